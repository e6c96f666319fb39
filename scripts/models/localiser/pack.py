"""Packs the training part of a corpus as windows under a size budget, for a training machine.

  /usr/bin/python3 scripts/models/localiser/pack.py --corpus SEED7_CORPUS --seed 7 \
      --budget-mib 27 --out PACK/NAME
  (then on that machine: train.py --corpus PACK/NAME --validation 0 --checkpoint FILE ...)

A GPU machine lent for training has PyTorch and OpenCV but neither the corpus generator (Bun,
resvg, pdfkit) nor room for a whole corpus: what travels to it is limited in size. Training
only ever looks at CROP x CROP patches, so this keeps WINDOW x WINDOW windows of the pages
train.py would train on (the same pages corpus.py loads, on the training side of the same
split by base document): one around each forged box, the same window of the genuine page the
forgery was made from (so that "the same field untouched" survives the packing), and windows
at random places of the other genuine pages. They are kept in that order until the budget is
spent, genuine windows taken in turn from each family so that every family and capture path
stays represented. The validation side is never packed: it is evaluated where the corpus is,
with `train.py --evaluate-only`.

Windows keep their pixels exactly. JPEG windows are cut by `jpegtran -crop` on the 16-pixel
grid (Debian's libjpeg-turbo-progs): the DCT coefficients are copied, not re-encoded, so the
compression history the network learns from is the original's, and the 8-pixel block grid
falls as on the page. PNG windows are cut from the decoded pixels and stored as lossless WebP.
Regions are moved into each window's coordinates. Ids are `<page>@<x>_<y>`.
"""
import argparse
import io
import json
import os
import random
import shutil
import subprocess
import sys
from collections import defaultdict

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import IMAGE_FORMATS, NO_PIXEL_TRACE_KINDS, base_of, is_validation, read_labels  # noqa: E402
from working_size import reduction_factor  # noqa: E402

# Twice train.py's CROP: room for crops at many offsets around a box. A multiple of the
# largest JPEG iMCU (16 pixels with 4:2:0 chroma), as crop origins must be.
WINDOW = 384
GRID = 16


def trainable(label: dict) -> bool:
    """What corpus.load_page would keep, read from the label alone."""
    if label.get("format") not in IMAGE_FORMATS or label["kind"] in NO_PIXEL_TRACE_KINDS:
        return False
    if label["label"] != "forged":
        return True
    regions = (label.get("forgery") or {}).get("regions") or []
    return bool(regions) and all(r.get("unit") == "px" for r in regions)


def size_of(folder: str, label: dict):
    with Image.open(os.path.join(folder, label["file"])) as image:
        return image.size


def origin(centre: float, side: int) -> int:
    """A window origin on the grid, the window inside the page where the page allows."""
    last = max(0, (side - WINDOW) // GRID * GRID)
    return max(0, min(last, int(centre - WINDOW / 2) // GRID * GRID))


def cut(folder: str, label: dict, x: int, y: int, size):
    """The window's bytes and its file extension, pixels exactly as on the page."""
    path = os.path.join(folder, label["file"])
    w, h = min(WINDOW, size[0] - x), min(WINDOW, size[1] - y)
    if label["format"] == "jpeg":
        data = subprocess.run(["jpegtran", "-copy", "none", "-crop", f"{w}x{h}+{x}+{y}", path], check=True, capture_output=True).stdout
        return data, ".jpg"
    with Image.open(path) as image:
        pixels = np.asarray(image.convert("RGB"))[y : y + h, x : x + w]
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="WEBP", lossless=True, quality=100, method=4)
    if not np.array_equal(np.asarray(Image.open(io.BytesIO(out.getvalue())).convert("RGB")), pixels):
        out = io.BytesIO()
        Image.fromarray(pixels).save(out, format="PNG")
        return out.getvalue(), ".png"
    return out.getvalue(), ".webp"


def moved_regions(label: dict, x: int, y: int) -> list:
    """The label's pixel regions in window coordinates, clipped to the window; empty ones dropped."""
    out = []
    for region in (label.get("forgery") or {}).get("regions") or []:
        b = region["box"]
        x0, y0 = max(b["x"] - x, 0), max(b["y"] - y, 0)
        x1, y1 = min(b["x"] + b["w"] - x, WINDOW), min(b["y"] + b["h"] - y, WINDOW)
        if x1 > x0 and y1 > y0:
            out.append({**region, "box": {"x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0}})
    return out


def window_label(label: dict, x: int, y: int, base_window: str = "") -> dict:
    out = {**label, "id": f"{label['id']}@{x}_{y}"}
    if label["label"] == "forged":
        out["forgery"] = {**label["forgery"], "regions": moved_regions(label, x, y)}
        out["history"] = [s for s in label.get("history", []) if not s.startswith("base:")] + ([f"base:{base_window}"] if base_window else [])
    return out


def plan(folder: str, labels: list, seed: int, genuine_windows: int) -> list:
    """(label, x, y, window label) in packing order: forged windows each followed by its base's, then genuine ones by family."""
    by_id = {l["id"]: l for l in labels}
    sizes = {l["id"]: size_of(folder, l) for l in labels}
    rng = random.Random(seed)
    first, used_as_base = [], set()
    for label in (l for l in labels if l["label"] == "forged"):
        size, base = sizes[label["id"]], by_id.get(base_of(label))
        same_base = base is not None and base["label"] == "genuine" and sizes[base["id"]] == size
        for region in label["forgery"]["regions"]:
            b = region["box"]
            x, y = origin(b["x"] + b["w"] / 2, size[0]), origin(b["y"] + b["h"] / 2, size[1])
            forged = window_label(label, x, y, f"{base['id']}@{x}_{y}" if same_base else "")
            if not forged["forgery"]["regions"]:
                continue
            first.append((label, x, y, forged))
            if same_base:
                first.append((base, x, y, window_label(base, x, y)))
                used_as_base.add(base["id"])
    families = defaultdict(list)
    for label in (l for l in labels if l["label"] == "genuine" and l["id"] not in used_as_base):
        w, h = sizes[label["id"]]
        for _ in range(genuine_windows):
            x, y = origin(rng.uniform(0, w), w), origin(rng.uniform(0, h), h)
            families[label.get("family", "")].append((label, x, y, window_label(label, x, y)))
    for members in families.values():
        rng.shuffle(members)
    rest, queues = [], [families[k] for k in sorted(families)]
    while any(queues):
        for q in queues:
            if q:
                rest.append(q.pop())
    return first + rest


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", required=True)
    p.add_argument("--seed", type=int, default=7, help="the seed train.py splits with")
    p.add_argument("--validation", type=float, default=0.25, help="as train.py's --validation")
    p.add_argument("--budget-mib", type=float, required=True)
    p.add_argument("--genuine-windows", type=int, default=4, help="windows at random places per genuine page no forgery was made from")
    p.add_argument("--out", required=True)
    args = p.parse_args()

    labels = [l for l in read_labels(args.corpus) if trainable(l) and not is_validation(l, args.seed, args.validation)]
    # Windows are cut in file pixels; a page the working size reduces would need them in its own.
    reduced = [l for l in labels if reduction_factor(*size_of(args.corpus, l)) > 1]
    labels = [l for l in labels if l not in reduced]
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    budget, used, kept, seen = args.budget_mib * 2**20, 0, [], set()
    for label, x, y, window in plan(args.corpus, labels, args.seed, args.genuine_windows):
        if window["id"] in seen:
            continue
        data, ext = cut(args.corpus, label, x, y, size_of(args.corpus, label))
        if used + len(data) > budget:
            continue  # a smaller window further on may still fit
        name = window["id"].replace("@", "_") + ext
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
        used += len(data)
        seen.add(window["id"])
        kept.append({**window, "file": name})
    with open(os.path.join(args.out, "labels.jsonl"), "w") as f:
        for label in kept:
            f.write(json.dumps(label) + "\n")
    counts = defaultdict(int)
    for label in kept:
        counts[(label.get("family", ""), label["label"])] += 1
    print(f"packed {len(kept)} windows of {len(labels)} training pages ({len(reduced)} reduced pages left out), {used / 2**20:.1f} MiB")
    for (family, kind), n in sorted(counts.items()):
        print(f"  {family:28s} {kind:8s} {n}")


if __name__ == "__main__":
    main()
