"""Trains the tampered-region localiser and exports it to ONNX with its validation figures.

  /usr/bin/python3 scripts/models/localiser/train.py --corpus DIR [--corpus DIR2] --seed 7 \
      --steps N [--minutes M] --out sidecar/models/localiser.onnx --device cpu|cuda [--figures FILE.json]
      [--width W] [--batch-scale K] [--workers P] [--hard-negatives SHARE] [--checkpoint FILE]

On a machine lent for training (a GPU, no corpus generator, little room for files), train on a
corpus packed by pack.py with --validation 0 --checkpoint FILE, bring the checkpoint back, and
evaluate and export it here with --evaluate-only --checkpoint FILE on the whole corpus.

Train on corpora generated with a seed other than the evaluation corpus's (42), so that no
evaluated document, nor any variant of one, is seen here. Image documents only (corpus.py);
a validation part, split by base document, picks the threshold (at most --fpr of genuine
validation pages raising anything) and gives the figures.

Training is on CROP x CROP patches at the page's own resolution (the working size only
reduces pages beyond MAX_SIDE), origins on the 8-pixel grid, in batches mixed as MIX says:
crops across a forged box of a corpus page; genuine crops given a synthetic edit with its
exact mask (synth.py: pasted patches processed on their own, inpainted or retyped strips);
genuine pages; each forged page's genuine base at the forged box's place, so that the same
field is seen untouched as often as edited and the template predicts nothing; and forged
pages elsewhere. Every crop then gets the same page-wide processing (JPEG re-saves, a mild
capture now and then), so that recompression alone is never the tell. The loss is cell BCE
plus Dice at 1/8 resolution; Adam with a cosine learning rate over --steps or --minutes.
Validation is on whole pages, as the sidecar runs them: a page scores its highest cell after
a 3 x 3 mean.
"""
import argparse
import hashlib
import math
import json
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth  # noqa: E402
from corpus import load_corpora  # noqa: E402
from metrics import cell_target, summarise, threshold_for  # noqa: E402
from model import STRIDE, ExportWrapper, Localiser, smooth  # noqa: E402
from working_size import MAX_SIDE, pad  # noqa: E402

CROP = 192
BATCH = 16
# Per batch: crops overlapping a forged box of a corpus page, genuine crops with a synthetic
# edit, genuine crops of genuine pages, the base page at a forged box's place (the same field
# untouched), and forged pages away from (or across) their boxes. About half hold an edit.
MIX = {"forged_box": 4, "synthetic": 5, "genuine": 3, "base_at_box": 2, "forged_page": 2}
# After hard negatives are mined (--hard-negatives): crops at the genuine training pages' own
# hottest cells (portraits, red print, guilloches) take part of the genuine and forged-page share.
MIX_HARD = {"forged_box": 4, "synthetic": 5, "genuine": 1, "hard_negative": 3, "base_at_box": 2, "forged_page": 1}
# Hottest cells kept per genuine page when mining, and the lowest probability worth keeping.
HARD_PER_PAGE = 6
HARD_FLOOR = 0.2
# Forged cells weigh this much more than genuine ones in the cell loss.
POS_WEIGHT = 3.0
# Below this no page raises, whatever the genuine validation pages scored.
THRESHOLD_FLOOR = 0.5


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", action="append", required=True, help="corpus folder with labels.jsonl (repeatable)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--steps", type=int, default=4000, help="batches at most")
    p.add_argument("--minutes", type=float, default=0, help="training time budget; the cosine schedule follows the elapsed share of it (0: steps only)")
    p.add_argument("--out", required=True, help="ONNX file to write")
    p.add_argument("--figures", help="JSON file for the validation figures (default: beside --out)")
    p.add_argument("--calibration", help="JSON file for the sidecar: the threshold and the model's sha256")
    p.add_argument("--checkpoint", help="state dict written every 100 steps; with --evaluate-only it is read instead of training")
    p.add_argument("--evaluate-only", action="store_true")
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    p.add_argument("--threads", type=int, default=2, help="CPU threads for torch")
    p.add_argument("--validation", type=float, default=0.25, help="fraction of base documents held out")
    p.add_argument("--fpr", type=float, default=0.01, help="genuine validation pages allowed to raise anything")
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--width", type=float, default=1.0, help="channel multiplier of the model (1: 27k parameters)")
    p.add_argument("--batch-scale", type=int, default=1, help="each batch holds this many times the MIX")
    p.add_argument("--workers", type=int, default=0, help="processes making batches (0: the training process itself)")
    p.add_argument("--hard-negatives", type=float, default=0, help="share of the budget after which hard negatives are mined (0: never)")
    return p.parse_args()


def aligned(v: int, limit: int) -> int:
    """A crop origin on the 8-pixel grid (JPEG blocks and output cells line up as on the whole page)."""
    return max(0, min((max(0, v) // STRIDE) * STRIDE, ((limit // STRIDE) * STRIDE)))


def crop_at(page, x0: int, y0: int):
    h, w = page.rgb.shape[:2]
    x0, y0 = aligned(x0, max(0, w - CROP)), aligned(y0, max(0, h - CROP))
    rgb = np.full((CROP, CROP, 3), 255, dtype=np.uint8)
    mask = np.zeros((CROP, CROP), dtype=np.uint8)
    valid = np.zeros((CROP, CROP), dtype=np.uint8)
    part = page.rgb[y0 : y0 + CROP, x0 : x0 + CROP]
    ph, pw = part.shape[:2]
    rgb[:ph, :pw] = part
    mask[:ph, :pw] = page.mask[y0 : y0 + CROP, x0 : x0 + CROP]
    valid[:ph, :pw] = 1
    return rgb, mask, valid


def around_box(box, rng: random.Random):
    x, y, bw, bh = box
    cx, cy = x + rng.uniform(0, bw), y + rng.uniform(0, bh)
    return int(cx - rng.uniform(0.15, 0.85) * CROP), int(cy - rng.uniform(0.15, 0.85) * CROP)


def random_origin(page, rng: random.Random):
    h, w = page.rgb.shape[:2]
    return rng.randint(0, max(0, w - CROP)), rng.randint(0, max(0, h - CROP))


class Sampler:
    def __init__(self, train, mix: dict, scale: int = 1):
        self.mix, self.scale = mix, scale
        self.forged = [p for p in train if p.boxes]
        self.genuine = [p for p in train if not p.boxes]
        self.hard = []  # (genuine page, x, y): a cell centre in working pixels, from mine_hard
        by_id = {p.id: p for p in train}
        # A forged page with its genuine base in the training part, when the base has the same size.
        self.with_base = [(p, by_id[p.base]) for p in self.forged if p.base in by_id and by_id[p.base].rgb.shape == p.rgb.shape]

    def one(self, what: str, rng: random.Random):
        if what == "forged_box":
            page = rng.choice(self.forged)
            rgb, mask, valid = crop_at(page, *around_box(rng.choice(page.boxes), rng))
            return synth.after_edit(rgb, rng), mask, valid
        if what == "forged_page":
            page = rng.choice(self.forged)
            rgb, mask, valid = crop_at(page, *random_origin(page, rng))
            return synth.after_edit(rgb, rng), mask, valid
        if what == "hard_negative" and self.hard:
            page, x, y = rng.choice(self.hard)
            rgb, mask, valid = crop_at(page, x - int(rng.uniform(0.2, 0.8) * CROP), y - int(rng.uniform(0.2, 0.8) * CROP))
            return synth.after_edit(rgb, rng, first_jpeg=0.5), mask, valid
        if what == "base_at_box" and self.with_base:
            forged, base = rng.choice(self.with_base)
            rgb, mask, valid = crop_at(base, *around_box(rng.choice(forged.boxes), rng))
            return synth.after_edit(rgb, rng, first_jpeg=0.5), mask, valid
        # "genuine", "synthetic", and "base_at_box" or "hard_negative" when none is at hand
        page = rng.choice(self.genuine)
        rgb, mask, valid = crop_at(page, *random_origin(page, rng))
        if what == "synthetic":
            donor = rng.choice(self.genuine + self.forged).rgb
            rgb, mask = synth.tamper(rgb, donor, rng)
            mask = mask * valid
        return synth.after_edit(rgb, rng, first_jpeg=0.5), mask, valid

    def batch(self, rng: random.Random):
        crops = [self.one(what, rng) for what, n in self.mix.items() for _ in range(n * self.scale)]
        for i, (rgb, mask, valid) in enumerate(crops):
            if rng.random() < 0.5:  # tone jitter, the same for the whole crop
                gain, shift = rng.uniform(0.85, 1.15), rng.uniform(-15, 15)
                crops[i] = (np.clip(rgb.astype(np.float32) * gain + shift, 0, 255).astype(np.uint8), mask, valid)
        # uint8 NumPy arrays: worker processes pass them through a pipe (no shared memory, which
        # containers often keep small), and the conversion to floats happens on the device.
        return tuple(np.stack([c[i] for c in crops]) for i in range(3))


class BatchStream(torch.utils.data.IterableDataset):
    """Endless batches from the sampler; each worker process draws with its own seed."""

    def __init__(self, sampler: Sampler, seed: int, phase: str):
        self.sampler, self.seed, self.phase = sampler, seed, phase

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        rng = random.Random(f"{self.seed}:{self.phase}:{info.id if info else 0}")
        while True:
            yield self.sampler.batch(rng)


def single_threaded_worker(_):
    # Each batch-making process is one of many: threads inside them would only contend.
    torch.set_num_threads(1)
    synth.cv2.setNumThreads(1)


def as_made(batch):
    """Batches stay NumPy arrays across the pipe (the default would convert them in shared memory)."""
    return batch


def batches(sampler: Sampler, seed: int, phase: str, workers: int):
    stream = BatchStream(sampler, seed, phase)
    if not workers:
        return iter(stream)
    loader = torch.utils.data.DataLoader(
        stream, batch_size=None, num_workers=workers, collate_fn=as_made,
        worker_init_fn=single_threaded_worker, prefetch_factor=4,
    )
    return iter(loader)


@torch.no_grad()
def mine_hard(model, pages, device) -> list:
    """The hottest cells of genuine training pages as the model stands: what it must learn to leave alone."""
    model.eval()
    spots = []
    for page in pages:
        x = torch.from_numpy(pad(page.rgb)).permute(2, 0, 1).unsqueeze(0).float().to(device)
        probs = smooth(torch.sigmoid(model.logits(x)))[0, 0]
        h, w = page.rgb.shape[:2]
        probs = probs[: -(-h // STRIDE), : -(-w // STRIDE)]
        values, indices = probs.flatten().topk(min(HARD_PER_PAGE, probs.numel()))
        for value, index in zip(values.tolist(), indices.tolist()):
            if value >= HARD_FLOOR:
                row, col = divmod(index, probs.shape[1])
                spots.append((page, col * STRIDE + STRIDE // 2, row * STRIDE + STRIDE // 2))
    model.train()
    return spots


def loss_of(logits, mask, valid):
    """Cell BCE (forged cells weighted up) plus Dice over the batch, at the output's 1/8 resolution."""
    target = F.avg_pool2d(mask, STRIDE)
    weight = (F.avg_pool2d(valid, STRIDE) > 0.5).float()
    cell = F.binary_cross_entropy_with_logits(logits, target, weight=weight * (1 + (POS_WEIGHT - 1) * (target > 0).float()), reduction="sum")
    cell = cell / weight.sum().clamp(min=1)
    probs = torch.sigmoid(logits) * weight
    dice = 1 - (2 * (probs * target).sum() + 1) / (probs.sum() + target.sum() + 1)
    return cell + dice


@torch.no_grad()
def validate(model, pages, device):
    model.eval()
    results = []
    for page in pages:
        padded = pad(page.rgb)
        x = torch.from_numpy(padded).permute(2, 0, 1).unsqueeze(0).float().to(device)
        probs = smooth(torch.sigmoid(model.logits(x)))[0, 0].cpu().numpy()
        h, w = page.rgb.shape[:2]
        rows, cols = -(-h // STRIDE), -(-w // STRIDE)
        probs = probs[:rows, :cols]
        results.append({
            "id": page.id, "kind": page.kind, "label": page.label, "family": page.family,
            "score": float(probs.max()), "probs": probs, "target": cell_target(page.mask, STRIDE, rows, cols),
        })
    model.train()
    return results


def export(model, path: str):
    dummy = torch.zeros(256, 320, 3, dtype=torch.uint8)
    torch.onnx.export(
        ExportWrapper(model), dummy, path, opset_version=13, input_names=["rgb"], output_names=["probability"],
        dynamic_axes={"rgb": {0: "height", 1: "width"}, "probability": {0: "rows", 1: "cols"}},
    )


def main():
    args = parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    torch.backends.cudnn.benchmark = True  # crops are all one size
    started = time.time()
    train, validation, skipped = load_corpora(args.corpus, args.seed, args.validation)
    print(f"pages: {len(train)} training, {len(validation)} validation, {skipped} forged images skipped (no pixel regions or no pixel trace) ({time.time() - started:.0f} s)", flush=True)
    if not validation and not args.checkpoint:
        sys.exit("no validation pages (a packed corpus?): give --checkpoint to keep the weights")

    model = Localiser(args.width).to(device)
    steps = 0
    train_seconds = 0.0
    if args.evaluate_only:
        model.load_state_dict(torch.load(args.checkpoint, map_location=device))
    else:
        sampler = Sampler(train, MIX, args.batch_scale)
        print(f"sampler: {len(sampler.forged)} forged, {len(sampler.genuine)} genuine, {len(sampler.with_base)} forged with their base", flush=True)
        stream = batches(sampler, args.seed, "first", args.workers)
        mined = args.hard_negatives <= 0
        optimiser = torch.optim.Adam(model.parameters(), lr=args.lr)
        train_started = time.time()
        total, count = 0.0, 0
        budget = args.minutes * 60
        while steps < args.steps:
            done = (time.time() - train_started) / budget if budget else steps / args.steps
            if done >= 1:
                break
            warm = min(1.0, (steps + 1) / 100)
            for group in optimiser.param_groups:
                group["lr"] = args.lr * warm * 0.5 * (1 + math.cos(math.pi * done))
            if not mined and done >= args.hard_negatives:
                sampler = Sampler(train, MIX_HARD, args.batch_scale)
                sampler.hard = mine_hard(model, sampler.genuine, device)
                print(f"step {steps}: mined {len(sampler.hard)} hard negative cells on {len(sampler.genuine)} genuine pages", flush=True)
                stream, mined = batches(sampler, args.seed, "hard", args.workers), True
            rgb, mask, valid = (torch.from_numpy(a).to(device).float() for a in next(stream))
            loss = loss_of(model.logits(rgb.permute(0, 3, 1, 2)), mask.unsqueeze(1), valid.unsqueeze(1))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            steps += 1
            total, count = total + loss.item(), count + 1
            if steps % 50 == 0:
                print(f"step {steps}: loss {total / count:.4f} lr {optimiser.param_groups[0]['lr']:.2e} ({time.time() - train_started:.0f} s)", flush=True)
                total, count = 0.0, 0
            if args.checkpoint and steps % 100 == 0:
                torch.save(model.state_dict(), args.checkpoint)
        train_seconds = time.time() - train_started
        if args.checkpoint:
            torch.save(model.state_dict(), args.checkpoint)

    if not validation:
        # A packed corpus (pack.py) travels without its validation side: the checkpoint comes
        # back, and is evaluated and exported where the corpus is, with --evaluate-only.
        print(f"no validation pages: wrote the checkpoint {args.checkpoint} after {steps} steps in {train_seconds:.0f} s")
        return
    results = validate(model, validation, device)
    threshold = threshold_for([r["score"] for r in results if r["label"] == "genuine"], args.fpr, THRESHOLD_FLOOR)
    figures = summarise(results, threshold)

    model.eval().cpu()
    export(model, args.out)
    record = {
        "command": " ".join(["/usr/bin/python3", "scripts/models/localiser/train.py", *sys.argv[1:]]),
        "seed": args.seed,
        "steps": steps,
        "batch": BATCH * args.batch_scale,
        "crop": CROP,
        "batchMix": MIX,
        "batchMixAfterMining": MIX_HARD if args.hard_negatives > 0 else None,
        "hardNegatives": {"afterShare": args.hard_negatives, "perPage": HARD_PER_PAGE, "floor": HARD_FLOOR} if args.hard_negatives > 0 else None,
        "width": args.width,
        "workers": args.workers,
        "device": args.device,
        "threads": args.threads,
        "torch": torch.__version__,
        "parameters": sum(p.numel() for p in model.parameters()),
        "onnxBytes": os.path.getsize(args.out),
        "workingSize": {"maxSide": MAX_SIDE, "reduction": "whole factor, block mean", "cell": STRIDE, "pageScore": "highest cell after 3 x 3 mean smoothing"},
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
        "validationScores": [{"id": r["id"], "kind": r["kind"], "family": r["family"], "score": round(r["score"], 4)} for r in results],
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
