"""Paste field: the same field box cut from another document of the same template (so its
guilloche and layout line up) and pasted over the target, slightly off position and with a
small colour change, as a copy-paste between two scans of the same card model looks."""
import cv2
import numpy as np

from pixels import as_box, clip_box, read_bgr, write_png


def run(a):
    img = read_bgr(a["base"])
    donor = read_bgr(a["donor"])
    x0, y0, x1, y1 = clip_box(a["box"], donor.shape)
    patch = donor[y0:y1, x0:x1].astype(np.float32)
    patch = patch * np.float32(a["gain"]) + np.float32(a["bias"])
    patch = patch.clip(0, 255)
    tx0, ty0 = x0 + int(a["dx"]), y0 + int(a["dy"])
    tx0 = max(0, min(img.shape[1] - (x1 - x0), tx0))
    ty0 = max(0, min(img.shape[0] - (y1 - y0), ty0))
    h, w = patch.shape[:2]
    feather = float(a["feather"])
    alpha = np.ones((h, w), np.float32)
    if feather > 0:
        inset = np.zeros((h, w), np.float32)
        k = int(np.ceil(feather))
        inset[k : h - k, k : w - k] = 1
        alpha = cv2.GaussianBlur(inset, (0, 0), feather / 2) if h > 2 * k and w > 2 * k else alpha
    under = img[ty0 : ty0 + h, tx0 : tx0 + w].astype(np.float32)
    out = img.copy()
    out[ty0 : ty0 + h, tx0 : tx0 + w] = (patch * alpha[..., None] + under * (1 - alpha[..., None])).round().astype(np.uint8)
    write_png(a["out"], out)
    return {"regions": [as_box(tx0, ty0, tx0 + w, ty0 + h)]}
