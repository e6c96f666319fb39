"""Training pages from corpus folders (DIR/labels.jsonl, as scripts/corpus/labels.ts writes it).

Only image documents (jpg, png) are read: their forged regions are boxes in the file's pixels
(`unit: "px"`), so a page's target mask is the union of its forged boxes, and a genuine page's
mask is empty. A forged image whose regions are not all in pixels is skipped (its mask would
be a guess), and so is one forged before it was rendered (NO_PIXEL_TRACE_KINDS). Pages are
split into training and validation by base document: a hash, with the seed, of the
`base:<id>` its history names where it was made from another document, else of its own id,
so that no variant of a validation document is trained on.
"""
import hashlib
import io
import json
import os
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps

from working_size import reduce, reduction_factor

IMAGE_FORMATS = ("jpeg", "png")
# Forged in the PDF's content before it was ever rendered, then captured: every pixel is a
# genuine rendering's, so a mask there would teach the network to mark unaltered print.
NO_PIXEL_TRACE_KINDS = ("pdf_forged_photographed",)


@dataclass
class Page:
    id: str
    kind: str
    label: str
    family: str
    rgb: np.ndarray  # working size, unpadded, [h, w, 3] uint8
    mask: np.ndarray  # working size, [h, w] uint8 0/1
    factor: int
    boxes: list  # forged boxes in working pixels (x, y, w, h)
    base: str = ""  # the document it was made from (its own id when none)
    source: str = ""  # the template it was rendered from


def base_of(label: dict) -> str:
    """The document a page was made from: a manipulated page names it in its history (`base:<id>`)."""
    for step in label.get("history", []):
        if step.startswith("base:"):
            return step[len("base:") :]
    return label["id"]


def is_validation(label: dict, seed: int, fraction: float) -> bool:
    digest = hashlib.sha256(f"{seed}:{base_of(label)}".encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32 < fraction


def read_labels(folder: str) -> list:
    with open(os.path.join(folder, "labels.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def load_page(folder: str, label: dict):
    if label.get("format") not in IMAGE_FORMATS or label["kind"] in NO_PIXEL_TRACE_KINDS:
        return None
    regions = (label.get("forgery") or {}).get("regions") or []
    if label["label"] == "forged" and (not regions or any(r.get("unit") != "px" for r in regions)):
        return None
    with open(os.path.join(folder, label["file"]), "rb") as f:
        image = Image.open(io.BytesIO(f.read()))
        # Corpus boxes are in the file's pixels; the sidecar analyses pixels turned upright, and
        # the generated files carry no rotation, so the two agree.
        image = ImageOps.exif_transpose(image).convert("RGB")
    full = np.asarray(image)
    factor = reduction_factor(full.shape[1], full.shape[0])
    rgb = reduce(full, factor)
    h, w = rgb.shape[:2]
    mask = np.zeros((h, w), dtype=np.uint8)
    boxes = []
    for region in regions:
        b = region["box"]
        x0, y0 = int(b["x"] // factor), int(b["y"] // factor)
        x1, y1 = int(-(-(b["x"] + b["w"]) // factor)), int(-(-(b["y"] + b["h"]) // factor))
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 > x0 and y1 > y0:
            mask[y0:y1, x0:x1] = 1
            boxes.append((x0, y0, x1 - x0, y1 - y0))
    if label["label"] == "forged" and not boxes:
        return None
    return Page(label["id"], label["kind"], label["label"], label.get("family", ""), rgb, mask, factor, boxes, base_of(label), label.get("source", ""))


def load_corpora(folders: list, seed: int, validation_fraction: float):
    train, validation, skipped = [], [], 0
    for folder in folders:
        for label in read_labels(folder):
            page = load_page(folder, label)
            if page is None:
                skipped += label.get("format") in IMAGE_FORMATS and label["label"] == "forged"
                continue
            prefix = os.path.basename(os.path.normpath(folder))
            page.id, page.base = f"{prefix}/{page.id}", f"{prefix}/{page.base}"
            (validation if is_validation(label, seed, validation_fraction) else train).append(page)
    return train, validation, skipped
