"""On-the-fly synthetic tampering of genuine crops, each with its exact mask, and the page-wide
processing that follows an edit (DocTamper / CAT-Net style, scaled down to a CPU budget).

The corpus has a few hundred forged pages; these edits give every training batch as many
forged crops as it wants, made on genuine crops of the same templates, so that a field's
position predicts nothing and only the edit's own trace does:

- paste: a field-sized patch from another page (or elsewhere on the same page), processed
  on its own (another JPEG quality, resampling, blur, noise) before it is pasted;
- inpaint: a text strip erased with OpenCV inpainting, left blank or overwritten with a
  shifted copy of a neighbouring strip (a retyped field);
- then, for every crop alike, forged or genuine: a JPEG re-save at a random quality half of
  the time or more (so single against double compression is what tells), and sometimes a
  mild capture (blur, resampling, noise) after the edit.

Crops are RGB uint8 arrays; masks are uint8 0/1 of the same height and width.
"""
import random

import cv2
import numpy as np


def jpeg(rgb: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", rgb[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)[..., ::-1].copy()


def _field_size(rng: random.Random, side: int):
    if rng.random() < 0.2:  # a portrait or a stamp
        return rng.randint(48, min(side - 8, 144)), rng.randint(48, min(side - 8, 144))
    return rng.randint(10, 40), rng.randint(24, min(side - 8, 160))


def _textured_spot(grey: np.ndarray, h: int, w: int, rng: random.Random, tries: int = 6):
    """A position for an h x w box, preferring one with ink in it (the highest grey spread of a few tries)."""
    H, W = grey.shape
    best, best_std = None, -1.0
    for _ in range(tries):
        y, x = rng.randint(0, H - h), rng.randint(0, W - w)
        std = float(grey[y : y + h, x : x + w].std())
        if std > best_std:
            best, best_std = (y, x), std
    return best


def _process_patch(patch: np.ndarray, rng: random.Random) -> np.ndarray:
    """What an editor's source patch went through on its own: one or two of JPEG, resampling, blur, noise."""
    ops = rng.sample(["jpeg", "resample", "blur", "noise", "tone"], rng.choice([1, 1, 2]))
    out = patch
    for op in ops:
        if op == "jpeg":
            out = jpeg(out, rng.randint(35, 90))
        elif op == "resample":
            h, w = out.shape[:2]
            s = rng.uniform(0.5, 0.85) if rng.random() < 0.6 else rng.uniform(1.2, 1.6)
            small = cv2.resize(out, (max(2, int(w * s)), max(2, int(h * s))), interpolation=rng.choice([cv2.INTER_LINEAR, cv2.INTER_CUBIC, cv2.INTER_AREA]))
            out = cv2.resize(small, (w, h), interpolation=rng.choice([cv2.INTER_LINEAR, cv2.INTER_CUBIC]))
        elif op == "blur":
            out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.6, 1.4))
        elif op == "noise":
            out = np.clip(out.astype(np.float32) + np.random.normal(0, rng.uniform(2, 7), out.shape), 0, 255).astype(np.uint8)
        else:
            out = np.clip(out.astype(np.float32) * rng.uniform(0.9, 1.1) + rng.uniform(-12, 12), 0, 255).astype(np.uint8)
    return out


def paste(crop: np.ndarray, donor: np.ndarray, rng: random.Random):
    """`donor`: an RGB page (another one, or the crop's own page) to take the patch from."""
    side = min(crop.shape[:2])
    h, w = _field_size(rng, side)
    dh, dw = donor.shape[:2]
    h, w = min(h, dh), min(w, dw)
    sy, sx = _textured_spot(cv2.cvtColor(donor, cv2.COLOR_RGB2GRAY), h, w, rng, tries=4)
    patch = _process_patch(donor[sy : sy + h, sx : sx + w].copy(), rng)
    y, x = rng.randint(0, crop.shape[0] - h), rng.randint(0, crop.shape[1] - w)
    out = crop.copy()
    mask = np.zeros(crop.shape[:2], dtype=np.uint8)
    if rng.random() < 0.3:  # feathered edge
        alpha = np.zeros((h, w), dtype=np.float32)
        alpha[2:-2, 2:-2] = 1
        alpha = cv2.GaussianBlur(alpha, (0, 0), 1.2)[..., None]
        region = out[y : y + h, x : x + w].astype(np.float32)
        out[y : y + h, x : x + w] = np.clip(alpha * patch + (1 - alpha) * region + 0.5, 0, 255).astype(np.uint8)
    else:
        out[y : y + h, x : x + w] = patch
    mask[y : y + h, x : x + w] = 1
    return out, mask


def inpaint(crop: np.ndarray, rng: random.Random):
    """A text strip erased by inpainting; half of the time a neighbouring strip is copied over it, shifted."""
    H, W = crop.shape[:2]
    h, w = rng.randint(10, 32), rng.randint(24, min(W - 8, 150))
    grey = cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)
    y, x = _textured_spot(grey, h, w, rng)
    hole = np.zeros((H, W), dtype=np.uint8)
    hole[y : y + h, x : x + w] = 255
    bgr = crop[..., ::-1].copy()
    out = cv2.inpaint(bgr, hole, rng.choice([2, 3, 5]), rng.choice([cv2.INPAINT_TELEA, cv2.INPAINT_NS]))[..., ::-1].copy()
    if rng.random() < 0.5:
        dy = rng.choice([-1, 1]) * rng.randint(h + 2, 2 * h + 8)
        dx = rng.randint(-w // 3, w // 3)
        sy, sx = min(max(0, y + dy), H - h), min(max(0, x + dx), W - w)
        if (sy, sx) != (y, x):
            out[y : y + h, x : x + w] = crop[sy : sy + h, sx : sx + w]
    mask = (hole > 0).astype(np.uint8)
    return out, mask


def tamper(crop: np.ndarray, donor: np.ndarray, rng: random.Random):
    """One synthetic edit of a genuine crop: paste (from `donor` or the crop itself) or inpaint."""
    r = rng.random()
    if r < 0.4:
        return paste(crop, donor, rng)
    if r < 0.6:
        return paste(crop, crop, rng)  # copy-move within the page
    return inpaint(crop, rng)


def after_edit(rgb: np.ndarray, rng: random.Random, first_jpeg: float = 0.0) -> np.ndarray:
    """The same page-wide processing for forged and genuine crops: JPEG re-save, sometimes a mild capture."""
    if rng.random() < first_jpeg:
        rgb = jpeg(rgb, rng.randint(80, 97))
    if rng.random() < 0.15:
        h, w = rgb.shape[:2]
        rgb = cv2.GaussianBlur(rgb, (0, 0), rng.uniform(0.3, 0.8))
        s = rng.uniform(0.8, 0.95)
        rgb = cv2.resize(cv2.resize(rgb, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA), (w, h), interpolation=cv2.INTER_LINEAR)
        rgb = np.clip(rgb.astype(np.float32) + np.random.normal(0, rng.uniform(1, 3), rgb.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        rgb = jpeg(rgb, rng.randint(60, 96))
    return rgb
