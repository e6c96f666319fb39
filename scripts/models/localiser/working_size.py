"""The page at the localiser's working size: the same reduction as sidecar/localiser/working-image.ts.

A page whose long side exceeds MAX_SIDE is reduced by the smallest whole factor that brings it
within, averaging factor x factor blocks (rounded half up to bytes). A whole factor keeps the
reduction exact and identical in NumPy and TypeScript, so that the sidecar feeds the network
exactly what it was trained on; resampling by a fractional factor would blur the noise
residual differently on each side. The result is then padded with black to multiples of 32
on the right and bottom; the padding's cells are ignored by the sidecar.
"""
import math

import numpy as np

MAX_SIDE = 1600
PAD_MULTIPLE = 32


def reduction_factor(width: int, height: int) -> int:
    return max(1, math.ceil(max(width, height) / MAX_SIDE))


def reduce(rgb: np.ndarray, factor: int) -> np.ndarray:
    """`rgb`: [H, W, 3] uint8. Drops the last rows/columns that do not fill a whole block."""
    if factor == 1:
        return rgb
    h, w = rgb.shape[0] // factor, rgb.shape[1] // factor
    blocks = rgb[: h * factor, : w * factor].astype(np.uint32).reshape(h, factor, w, factor, 3)
    total = blocks.sum(axis=(1, 3))
    area = factor * factor
    return ((total * 2 + area) // (2 * area)).astype(np.uint8)


def pad(rgb: np.ndarray) -> np.ndarray:
    h, w = rgb.shape[:2]
    ph, pw = -(-h // PAD_MULTIPLE) * PAD_MULTIPLE, -(-w // PAD_MULTIPLE) * PAD_MULTIPLE
    out = np.zeros((ph, pw, 3), dtype=np.uint8)
    out[:h, :w] = rgb
    return out
