"""Printed and photographed: the document printed on an office printer (CMYK clustered-dot
halftone at four screen angles, ink spread, paper tint and fibre texture, compressed tonal range)
and photographed lying on a table with a phone (perspective, uneven light and a soft shadow,
white-balance cast, defocus, sensor noise). The TS side chooses the corners the page lands on,
so it maps the forgery boxes through the same homography; the JPEG is written there too."""
import cv2
import numpy as np

from pixels import read_bgr, rng, smooth_field, write_png

# Screen angles of the C, M, Y, K separations (degrees), as offset and laser printers use them.
ANGLES = (15.0, 75.0, 0.0, 45.0)


def halftone(bgr, period, r):
    """Clustered-dot halftone computed at twice the resolution, then brought back down."""
    up = cv2.resize(bgr, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR).astype(np.float32) / 255
    h, w = up.shape[:2]
    cmy = 1 - up[..., ::-1]  # BGR -> RGB -> CMY
    k = cmy.min(axis=2)
    # Grey-component replacement: the shared darkness goes to the black plate.
    cmy = (cmy - k[..., None] * 0.85)
    planes = [cmy[..., 0], cmy[..., 1], cmy[..., 2], k * 0.85]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    out = np.ones((h, w, 3), np.float32)
    phase = r.uniform(0, period, 2)
    for i, (plane, angle) in enumerate(zip(planes, ANGLES)):
        t = np.deg2rad(angle)
        u = (xs + phase[0]) * np.cos(t) + (ys + phase[1]) * np.sin(t)
        v = -(xs + phase[0]) * np.sin(t) + (ys + phase[1]) * np.cos(t)
        spot = 0.5 - 0.25 * (np.cos(2 * np.pi * u / period) + np.cos(2 * np.pi * v / period))
        # A soft threshold: toner dots have soft edges, and a hard one aliases on the way down.
        dots = np.clip((plane - spot) * 6 + 0.5, 0, 1)
        if i < 3:
            out[..., 2 - i] *= 1 - dots  # C absorbs R (BGR index 2), M G, Y B
        else:
            out *= (1 - dots)[..., None]
    out = cv2.GaussianBlur(out, (0, 0), 0.9)
    return cv2.resize(out, (bgr.shape[1], bgr.shape[0]), interpolation=cv2.INTER_AREA)


def run(a):
    r = rng(a["seed"])
    img = read_bgr(a["image"])
    h, w = img.shape[:2]
    printed = halftone(img, a["period"], r)
    paper = np.float32(a["paper"])[::-1] / 255  # RGB -> BGR
    black = float(a["black"])
    printed = black + (1 - black) * printed
    fibres = 1 + 0.025 * smooth_field(r, (h, w), 24) + r.normal(0, 0.012, (h, w)).astype(np.float32)
    printed = printed * paper * fibres[..., None]
    printed = (printed * 255).clip(0, 255).astype(np.uint8)

    W, H = a["frame"]
    table = np.float32(a["table"])[::-1]
    grain = smooth_field(r, (H, W), 40)[..., None] * 14 + r.normal(0, 3, (H, W, 1)).astype(np.float32)
    frame = (table + grain).clip(0, 255).astype(np.uint8)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32(a["corners"])
    hom = cv2.getPerspectiveTransform(src, dst)
    cv2.warpPerspective(printed, hom, (W, H), dst=frame, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)

    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    nx, ny = xs / W - 0.5, ys / H - 0.5
    gx, gy = a["gradient"]
    light = a["exposure"] + gx * nx + gy * ny - a["vignette"] * (nx * nx + ny * ny)
    if a["shadow"]:
        # A phone's or a hand's soft shadow: a darkened half-plane with a blurred edge.
        angle, offset, depth = a["shadow"]
        d = nx * np.cos(angle) + ny * np.sin(angle) - offset
        light = light * (1 - depth / (1 + np.exp(-d * 30)))
    out = frame.astype(np.float32) * light[..., None] * np.float32(a["cast"])[::-1]
    out = cv2.GaussianBlur(out, (0, 0), a["blur"])
    noise = r.normal(0, 1, out.shape).astype(np.float32) * (a["noise"] * (0.6 + 0.8 * (1 - out / 255)))
    write_png(a["out"], (out + noise).clip(0, 255).astype(np.uint8))
    return {}
