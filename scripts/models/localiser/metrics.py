"""Validation figures of the localiser: what a page raises and how well its cells match the labels.

A page's score is its highest cell probability; a region is a 8-connected group of cells at
or above the threshold (the sidecar's regions.ts does the same). The threshold is the
lowest score at which at most `fpr` of the genuine validation pages would raise anything.
"""
import numpy as np


def roc_auc(positive: list, negative: list):
    if not positive or not negative:
        return None
    pos, neg = np.asarray(positive), np.asarray(negative)
    greater = (pos[:, None] > neg[None, :]).sum()
    ties = (pos[:, None] == neg[None, :]).sum()
    return float((greater + 0.5 * ties) / (len(pos) * len(neg)))


def rank_auc(positive: np.ndarray, negative: np.ndarray):
    """roc_auc by ranks (ties shared), for the thousands of cells of one page."""
    if positive.size == 0 or negative.size == 0:
        return None
    values = np.concatenate([positive, negative])
    order = values.argsort(kind="mergesort")
    ranks = np.empty(len(values), dtype=np.float64)
    sorted_values = values[order]
    _, first, counts = np.unique(sorted_values, return_index=True, return_counts=True)
    ranks[order] = np.repeat(first + (counts + 1) / 2, counts)
    return float((ranks[: positive.size].sum() - positive.size * (positive.size + 1) / 2) / (positive.size * negative.size))


def threshold_for(genuine_scores: list, fpr: float, floor: float) -> float:
    """Lowest threshold raising at most floor(fpr * n) genuine pages: just above the (k+1)-th highest score."""
    scores = sorted(genuine_scores, reverse=True)
    allowed = int(np.floor(fpr * len(scores)))
    if allowed >= len(scores):
        return floor
    return max(floor, float(np.nextafter(np.float32(scores[allowed]), np.float32(1))))


def cell_target(mask: np.ndarray, stride: int, rows: int, cols: int) -> np.ndarray:
    """A cell is forged when at least half of its working pixels are."""
    h, w = mask.shape
    padded = np.zeros((rows * stride, cols * stride), dtype=np.float32)
    padded[:h, :w] = mask
    return padded.reshape(rows, stride, cols, stride).mean(axis=(1, 3)) >= 0.5


def summarise(results: list, threshold: float) -> dict:
    """`results`: per validation page {kind, label, family, score, probs, target}.

    AUCs are given against every genuine validation page and against the genuine pages of the
    forged pages' own families (the same capture of the same templates), where the template
    alone cannot tell them apart."""
    genuine = [r for r in results if r["label"] == "genuine"]
    forged = [r for r in results if r["label"] == "forged"]
    tp = fp = fn = 0
    ious, hits, within = [], 0, []
    for r in forged:
        # Does the page's own forged area score above the rest of the page, whatever the threshold?
        inside = rank_auc(r["probs"][r["target"]].ravel(), r["probs"][~r["target"]].ravel())
        if inside is not None:
            within.append(inside)
        pred, target = r["probs"] >= threshold, r["target"]
        a, b, c = int((pred & target).sum()), int((pred & ~target).sum()), int((~pred & target).sum())
        tp, fp, fn = tp + a, fp + b, fn + c
        ious.append(a / max(1, a + b + c))
        hits += a > 0
    by_kind = {}
    for kind in sorted({r["kind"] for r in forged}):
        scores = [r["score"] for r in forged if r["kind"] == kind]
        families = {r["family"] for r in forged if r["kind"] == kind}
        by_kind[kind] = {
            "pages": len(scores),
            "auc": roc_auc(scores, [r["score"] for r in genuine]),
            "aucSameFamily": roc_auc(scores, [r["score"] for r in genuine if r["family"] in families]),
            "raised": sum(s >= threshold for s in scores) / len(scores),
            "regionHit": sum(1 for r in forged if r["kind"] == kind and (r["probs"] >= threshold)[r["target"]].any()) / len(scores),
        }
    by_genuine = {}
    for family in sorted({f"{r['kind']} {r['family']}" for r in genuine}):
        scores = [r["score"] for r in genuine if f"{r['kind']} {r['family']}" == family]
        by_genuine[family] = {"pages": len(scores), "raised": sum(s >= threshold for s in scores), "maxScore": round(max(scores), 4)}
    return {
        "threshold": threshold,
        "genuinePages": len(genuine),
        "forgedPages": len(forged),
        "genuineRaised": sum(r["score"] >= threshold for r in genuine),
        "pageAuc": roc_auc([r["score"] for r in forged], [r["score"] for r in genuine]),
        # Forged pages against the genuine pages of their own families (same capture, same
        # templates).
        "pageAucSameFamily": roc_auc([r["score"] for r in forged], [r["score"] for r in genuine if r["family"] in {f["family"] for f in forged}]),
        "cellIou": tp / max(1, tp + fp + fn),
        "cellF1": 2 * tp / max(1, 2 * tp + fp + fn),
        "meanPageIou": float(np.mean(ious)) if ious else None,
        "cellAucWithinForgedPages": float(np.mean(within)) if within else None,
        "forgedRegionHit": hits / max(1, len(forged)),
        "byForgeryKind": by_kind,
        "byGenuineFamily": by_genuine,
    }
