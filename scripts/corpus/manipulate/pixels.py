"""Shared pixel helpers for the manipulation operations: reading and writing images, boxes,
and the seeded noise every operation draws from (numpy's PCG64, seeded by the TS planner, so
the same seed gives the same pixels)."""
import cv2
import numpy as np


def read_bgr(path):
    """BGR pixels; a transparent card corner is laid on white, as an editor's JPEG export or a
    printer puts it (reading without alpha would leave it black)."""
    img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if img is None:
        raise ValueError(f"cannot read image {path}")
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.shape[2] == 4:
        alpha = img[..., 3:4].astype(np.float32) / 255
        return (img[..., :3] * alpha + 255 * (1 - alpha)).round().astype(np.uint8)
    return img


def read_rgba(path):
    img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise ValueError(f"{path} is not an RGBA image")
    return img


def write_png(path, img):
    # Level 1: these are intermediate files, re-encoded as JPEG afterwards; speed over size.
    if not cv2.imwrite(path, img, [cv2.IMWRITE_PNG_COMPRESSION, 1]):
        raise ValueError(f"cannot write {path}")


def rng(seed):
    return np.random.default_rng(int(seed))


def clip_box(box, shape):
    """Box {x,y,w,h} cut to the image; returns (x0, y0, x1, y1) with x1/y1 exclusive."""
    h, w = shape[:2]
    x0 = max(0, int(round(box["x"])))
    y0 = max(0, int(round(box["y"])))
    x1 = min(w, int(round(box["x"] + box["w"])))
    y1 = min(h, int(round(box["y"] + box["h"])))
    if x1 <= x0 or y1 <= y0:
        raise ValueError(f"box {box} lies outside the {w}x{h} image")
    return x0, y0, x1, y1


def as_box(x0, y0, x1, y1):
    return {"x": int(x0), "y": int(y0), "w": int(x1 - x0), "h": int(y1 - y0)}


def union(a, b):
    x0 = min(a["x"], b["x"])
    y0 = min(a["y"], b["y"])
    x1 = max(a["x"] + a["w"], b["x"] + b["w"])
    y1 = max(a["y"] + a["h"], b["y"] + b["h"])
    return as_box(x0, y0, x1, y1)


def mask_box(mask):
    """Bounding box of the non-zero pixels of a mask, or None."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    return as_box(xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)


def ring_median(img, x0, y0, x1, y1, width=4):
    """Median colour of a ring just outside a box: the paper or background around a field."""
    h, w = img.shape[:2]
    ox0, oy0 = max(0, x0 - width), max(0, y0 - width)
    ox1, oy1 = min(w, x1 + width), min(h, y1 + width)
    outer = img[oy0:oy1, ox0:ox1].reshape(-1, img.shape[2]).astype(np.float32)
    keep = np.ones((oy1 - oy0, ox1 - ox0), bool)
    keep[y0 - oy0 : y1 - oy0, x0 - ox0 : x1 - ox0] = False
    return np.median(outer[keep.reshape(-1)], axis=0)


def smooth_field(r, shape, cell):
    """Low-frequency noise in [-1, 1]: random values on a coarse grid, enlarged smoothly."""
    h, w = shape
    gh, gw = max(2, h // cell + 2), max(2, w // cell + 2)
    coarse = r.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC).clip(-1, 1)
