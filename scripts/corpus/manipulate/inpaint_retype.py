"""Inpaint and retype: the old text of a field selected (its dark strokes, or the whole box, as
a forger's lasso would) and filled by classical inpainting (cv2.inpaint, Telea's fast marching
or Navier-Stokes), then the new value drawn over it: glyphs laid out by the document's own font
at its size (an RGBA layer rendered by the TS side), in the ink colour picked off the old text."""
import cv2
import numpy as np

from pixels import as_box, clip_box, mask_box, read_bgr, read_rgba, ring_median, union, write_png


def ink_mask(img, x0, y0, x1, y1, threshold):
    """Strokes that stand out from the surrounding paper by `threshold` grey levels: darker
    ones, or lighter ones where a card prints pale text on a dark band."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    paper = float(cv2.cvtColor(ring_median(img, x0, y0, x1, y1).reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2GRAY)[0, 0])
    inside = grey[y0:y1, x0:x1]
    light = np.percentile(inside, 98) - paper > paper - np.percentile(inside, 2)
    mask = np.zeros(grey.shape, np.uint8)
    mask[y0:y1, x0:x1] = ((inside > paper + threshold) if light else (inside < paper - threshold)).astype(np.uint8) * 255
    if not mask.any():
        # Text too faint for the threshold: the forger's lasso takes the whole box instead.
        mask[y0:y1, x0:x1] = 255
    return mask


def run(a):
    img = read_bgr(a["base"])
    b = a["box"]
    pad = int(a["pad"])
    x0, y0, x1, y1 = clip_box({"x": b["x"] - pad, "y": b["y"] - pad, "w": b["w"] + 2 * pad, "h": b["h"] + 2 * pad}, img.shape)
    if a["select"] == "ink":
        mask = ink_mask(img, x0, y0, x1, y1, a["threshold"])
        mask = cv2.dilate(mask, np.ones((3, 3), np.uint8), iterations=int(a["dilate"]))
    else:
        mask = np.zeros(img.shape[:2], np.uint8)
        mask[y0:y1, x0:x1] = 255
    # The eyedropper: the mean of the 3% of the selection farthest from the paper
    # colour (the strokes' cores, not their anti-aliased edges nor the paper in a box).
    paper = ring_median(img, x0, y0, x1, y1)
    strokes = img[mask > 0].reshape(-1, 3).astype(np.float32)
    order = np.argsort(-np.abs(strokes - paper).sum(axis=1))
    ink = strokes[order[: max(1, len(order) * 3 // 100)]].mean(axis=0)
    method = cv2.INPAINT_TELEA if a["method"] == "telea" else cv2.INPAINT_NS
    out = cv2.inpaint(img, mask, float(a["radius"]), method)

    layer = read_rgba(a["text"])
    if layer.shape[:2] != img.shape[:2]:
        raise ValueError(f"text layer {layer.shape[:2]} does not match the image {img.shape[:2]}")
    alpha = layer[..., 3].astype(np.float32) / 255
    shift = np.float32([[1, 0, a["dx"]], [0, 1, a["dy"]]])
    alpha = cv2.warpAffine(alpha, shift, (img.shape[1], img.shape[0]), flags=cv2.INTER_LINEAR)
    if a.get("soften", 0) > 0:
        alpha = cv2.GaussianBlur(alpha, (0, 0), float(a["soften"]))
    colour = (ink + np.float32(a["ink_jitter"])).clip(0, 255)
    out = (out * (1 - alpha[..., None]) + colour * alpha[..., None]).round().clip(0, 255).astype(np.uint8)
    write_png(a["out"], out)

    drawn = mask_box(alpha > 0.02)
    erased = mask_box(mask)
    region = erased if drawn is None else union(erased, drawn)
    return {"regions": [region], "ink": [float(v) for v in ink[::-1]]}
