"""Portrait swap: another face cropped to the portrait's frame, colour-matched to the portrait
it replaces (Reinhard transfer in Lab, so the new face takes the print's tint and contrast) and
blended in with Poisson editing (cv2.seamlessClone) or a feathered alpha mask, as a forger does
in an image editor."""
import cv2
import numpy as np

from pixels import as_box, clip_box, read_bgr, write_png


def crop_to(donor, w, h, zoom, dx, dy):
    """The donor cropped to the target's aspect ratio: `zoom` < 1 tightens on the face, dx/dy
    (fractions of the free margin, -1..1) move the crop, so the head sits differently."""
    dh, dw = donor.shape[:2]
    aspect = w / h
    cw, ch = (dw, dw / aspect) if dw / dh < aspect else (dh * aspect, dh)
    cw, ch = cw * zoom, ch * zoom
    cx = (dw - cw) / 2 * (1 + dx)
    cy = (dh - ch) / 2 * (1 + dy)
    x0, y0 = int(round(cx)), int(round(cy))
    crop = donor[y0 : y0 + int(round(ch)), x0 : x0 + int(round(cw))]
    return cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA)


def match_colour(src, ref, strength):
    s = cv2.cvtColor(src, cv2.COLOR_BGR2LAB).astype(np.float32)
    r = cv2.cvtColor(ref, cv2.COLOR_BGR2LAB).astype(np.float32)
    out = s.copy()
    for c in range(3):
        sm, ss = s[..., c].mean(), s[..., c].std() + 1e-3
        rm, rs = r[..., c].mean(), r[..., c].std() + 1e-3
        out[..., c] = (s[..., c] - sm) / ss * rs + rm
    out = s * (1 - strength) + out * strength
    return cv2.cvtColor(out.clip(0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)


def run(a):
    img = read_bgr(a["base"])
    donor = read_bgr(a["donor"])
    b = a["box"]
    grow = int(a.get("grow", 0))
    x0, y0, x1, y1 = clip_box({"x": b["x"] - grow, "y": b["y"] - grow, "w": b["w"] + 2 * grow, "h": b["h"] + 2 * grow}, img.shape)
    w, h = x1 - x0, y1 - y0
    original = img[y0:y1, x0:x1].copy()
    face = crop_to(donor, w, h, a["zoom"], a["dx"], a["dy"])
    if a.get("grey"):
        face = cv2.cvtColor(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    face = match_colour(face, original, a["match"])
    if a["blend"] == "seamless":
        # seamlessClone needs the mask inside the patch: a 2-pixel rim is left to the original,
        # which the Poisson solve then blends across.
        mask = np.zeros((h, w), np.uint8)
        mask[2:-2, 2:-2] = 255
        centre = (x0 + w // 2, y0 + h // 2)
        out = cv2.seamlessClone(face, img, mask, centre, cv2.NORMAL_CLONE)
    else:
        feather = float(a["feather"])
        alpha = np.zeros((h, w), np.float32)
        inset = int(np.ceil(feather))
        alpha[inset : h - inset, inset : w - inset] = 1
        alpha = cv2.GaussianBlur(alpha, (0, 0), feather)[..., None]
        out = img.copy()
        out[y0:y1, x0:x1] = (face * alpha + original * (1 - alpha)).round().astype(np.uint8)
    write_png(a["out"], out)
    return {"regions": [as_box(x0, y0, x1, y1)]}
