"""Trains the tampered-region localiser and exports it to ONNX with its validation figures.

  /usr/bin/python3 scripts/models/localiser/train.py --corpus DIR [--corpus DIR2] --seed 7 \
      --epochs E --out sidecar/models/localiser.onnx --device cpu|cuda [--figures FILE.json]

Train on corpora generated with a seed other than the evaluation corpus's (42), so that no
evaluated document, nor any variant of one, is seen here. Image documents only (corpus.py);
a validation part, split by base document, picks the threshold (at most --fpr of genuine
validation pages raising anything) and gives the figures. Training is on random crops of
the working-size pages (crops centred on a forged box half of the time, so the rare forged
cells are seen often enough), with random re-saves as JPEG so that recompression alone is
never the tell; validation is on whole pages, as the sidecar runs it.
"""
import argparse
import hashlib
import io
import json
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import load_corpora  # noqa: E402
from metrics import cell_target, summarise, threshold_for  # noqa: E402
from model import STRIDE, ExportWrapper, Localiser  # noqa: E402
from working_size import MAX_SIDE, pad  # noqa: E402

CROP = 256
BATCH = 8
# Cells of forged crops weigh this much more than genuine ones: forged cells are a few percent of all.
POS_WEIGHT = 4.0
# The page-level term: a crop's highest cell should say whether it holds a forged cell at all.
PAGE_WEIGHT = 0.5
# Below this no page raises, whatever the genuine validation pages scored.
THRESHOLD_FLOOR = 0.5


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", action="append", required=True, help="corpus folder with labels.jsonl (repeatable)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--out", required=True, help="ONNX file to write")
    p.add_argument("--figures", help="JSON file for the validation figures (default: beside --out)")
    p.add_argument("--calibration", help="JSON file for the sidecar: the threshold and the model's sha256")
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    p.add_argument("--threads", type=int, default=2, help="CPU threads for torch")
    p.add_argument("--validation", type=float, default=0.25, help="fraction of base documents held out")
    p.add_argument("--fpr", type=float, default=0.01, help="genuine validation pages allowed to raise anything")
    p.add_argument("--lr", type=float, default=3e-3)
    return p.parse_args()


def random_crop(page, rng: random.Random):
    h, w = page.rgb.shape[:2]
    ch, cw = min(CROP, -(-h // 32) * 32), min(CROP, -(-w // 32) * 32)
    if page.boxes and rng.random() < 0.5:
        x, y, bw, bh = rng.choice(page.boxes)
        cx, cy = x + rng.uniform(0, bw), y + rng.uniform(0, bh)
        x0, y0 = int(cx - rng.uniform(0.2, 0.8) * cw), int(cy - rng.uniform(0.2, 0.8) * ch)
    else:
        x0, y0 = rng.randint(0, max(0, w - cw)), rng.randint(0, max(0, h - ch))
    x0, y0 = min(max(0, x0), max(0, w - cw)), min(max(0, y0), max(0, h - ch))
    rgb = np.zeros((CROP, CROP, 3), dtype=np.uint8)
    mask = np.zeros((CROP, CROP), dtype=np.uint8)
    valid = np.zeros((CROP, CROP), dtype=np.uint8)
    part = page.rgb[y0 : y0 + ch, x0 : x0 + cw]
    rgb[: part.shape[0], : part.shape[1]] = part
    mask[: part.shape[0], : part.shape[1]] = page.mask[y0 : y0 + ch, x0 : x0 + cw]
    valid[: part.shape[0], : part.shape[1]] = 1
    return rgb, mask, valid


def augment(rgb: np.ndarray, rng: random.Random) -> np.ndarray:
    if rng.random() < 0.3:
        buffer = io.BytesIO()
        Image.fromarray(rgb).save(buffer, format="JPEG", quality=rng.randint(55, 95))
        rgb = np.asarray(Image.open(buffer).convert("RGB"))
    if rng.random() < 0.3:
        gain, shift = rng.uniform(0.8, 1.2), rng.uniform(-20, 20)
        rgb = np.clip(rgb.astype(np.float32) * gain + shift, 0, 255).astype(np.uint8)
    return rgb


def batches(pages, rng: random.Random):
    """One epoch: every page once and every forged page a second time, shuffled, in batches."""
    order = pages + [p for p in pages if p.boxes]
    rng.shuffle(order)
    for i in range(0, len(order) - BATCH + 1, BATCH):
        crops = [random_crop(p, rng) for p in order[i : i + BATCH]]
        rgb = np.stack([augment(c[0], rng) for c in crops])
        yield (
            torch.from_numpy(rgb).permute(0, 3, 1, 2).float(),
            torch.from_numpy(np.stack([c[1] for c in crops])).float().unsqueeze(1),
            torch.from_numpy(np.stack([c[2] for c in crops])).float().unsqueeze(1),
        )


def loss_of(logits, mask, valid):
    target = F.avg_pool2d(mask, STRIDE)
    weight = F.avg_pool2d(valid, STRIDE)
    cell = F.binary_cross_entropy_with_logits(logits, target, weight=weight * (1 + (POS_WEIGHT - 1) * (target > 0).float()), reduction="sum")
    cell = cell / weight.sum().clamp(min=1)
    page_target = (target.flatten(1).amax(1) >= 0.5).float()
    page_logit = (logits - 1e4 * (1 - (weight > 0).float())).flatten(1).amax(1)
    page = F.binary_cross_entropy_with_logits(page_logit, page_target)
    probs = torch.sigmoid(logits) * weight
    dice = 1 - (2 * (probs * target).sum() + 1) / (probs.sum() + target.sum() + 1)
    return cell + PAGE_WEIGHT * page + 0.5 * dice


@torch.no_grad()
def validate(model, pages, device):
    model.eval()
    results = []
    for page in pages:
        padded = pad(page.rgb)
        x = torch.from_numpy(padded).permute(2, 0, 1).unsqueeze(0).float().to(device)
        probs = torch.sigmoid(model.logits(x))[0, 0].cpu().numpy()
        h, w = page.rgb.shape[:2]
        rows, cols = -(-h // STRIDE), -(-w // STRIDE)
        probs = probs[:rows, :cols]
        results.append({
            "id": page.id, "kind": page.kind, "label": page.label, "family": page.family,
            "score": float(probs.max()), "probs": probs, "target": cell_target(page.mask, STRIDE, rows, cols),
        })
    model.train()
    return results


def main():
    args = parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    started = time.time()
    train, validation, skipped = load_corpora(args.corpus, args.seed, args.validation)
    print(f"pages: {len(train)} training, {len(validation)} validation, {skipped} forged images skipped (no pixel regions or no pixel trace) ({time.time() - started:.0f} s)", flush=True)

    model = Localiser().to(device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps_per_epoch = (len(train) + sum(1 for p in train if p.boxes)) // BATCH
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=args.lr, total_steps=max(1, steps_per_epoch * args.epochs), pct_start=0.15)
    rng = random.Random(args.seed)
    train_started = time.time()
    for epoch in range(args.epochs):
        total, count = 0.0, 0
        for rgb, mask, valid in batches(train, rng):
            loss = loss_of(model.logits(rgb.to(device)), mask.to(device), valid.to(device))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total, count = total + loss.item(), count + 1
        print(f"epoch {epoch + 1}/{args.epochs}: loss {total / max(1, count):.4f} ({time.time() - train_started:.0f} s)", flush=True)
    train_seconds = time.time() - train_started

    results = validate(model, validation, device)
    threshold = threshold_for([r["score"] for r in results if r["label"] == "genuine"], args.fpr, THRESHOLD_FLOOR)
    figures = summarise(results, threshold)

    model.eval().cpu()
    wrapper = ExportWrapper(model)
    dummy = torch.zeros(256, 320, 3, dtype=torch.uint8)
    torch.onnx.export(
        wrapper, dummy, args.out, opset_version=13, input_names=["rgb"], output_names=["probability"],
        dynamic_axes={"rgb": {0: "height", 1: "width"}, "probability": {0: "rows", 1: "cols"}},
    )
    record = {
        "command": " ".join(["/usr/bin/python3", "scripts/models/localiser/train.py", *sys.argv[1:]]),
        "seed": args.seed,
        "epochs": args.epochs,
        "device": args.device,
        "threads": args.threads,
        "torch": torch.__version__,
        "parameters": sum(p.numel() for p in model.parameters()),
        "onnxBytes": os.path.getsize(args.out),
        "workingSize": {"maxSide": MAX_SIDE, "reduction": "whole factor, block mean", "cell": STRIDE},
        "data": {
            "corpora": [os.path.basename(os.path.normpath(c)) for c in args.corpus],
            "trainingPages": len(train),
            "trainingForged": sum(1 for p in train if p.boxes),
            "validationPages": len(validation),
            "validationFraction": args.validation,
            "skippedForged": skipped,
        },
        "trainingSeconds": round(train_seconds),
        "thresholdRule": f"lowest page score at which at most {args.fpr:.0%} of genuine validation pages raise (floor {THRESHOLD_FLOOR})",
        "validation": figures,
        "validationScores": [{"id": r["id"], "kind": r["kind"], "score": round(r["score"], 4)} for r in results],
    }
    if args.calibration:
        with open(args.out, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        with open(args.calibration, "w") as f:
            json.dump({"threshold": threshold, "sha256": digest, "by": record["command"]}, f, indent=2)
            f.write("\n")
    figures_path = args.figures or os.path.splitext(args.out)[0] + ".figures.json"
    with open(figures_path, "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    print(json.dumps({k: v for k, v in figures.items() if k not in ("byForgeryKind", "byGenuineFamily")}, indent=2))
    print(f"wrote {args.out} and {figures_path} in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
