import { describe, expect, test } from "bun:test";
import { FORGERY_KINDS, GENUINE_KINDS, type Kind } from "../../../scripts/corpus/labels.ts";
import { evaluate } from "../../../scripts/eval/evaluation.ts";
import type { RunInfo } from "../../../scripts/eval/evaluation-types.ts";
import { formatEvaluation } from "../../../scripts/eval/format-report.ts";
import type { FailedRow, ScoreRow } from "../../../scripts/eval/score-row.ts";

const RUN: RunInfo = {
  corpus: "corpus",
  split: "test",
  mode: "hand-made rows",
  documents: 0,
  startedAt: "2025-01-01T00:00:00.000Z",
  durationMs: 1000,
};

let counter = 0;
function row(kind: Kind, score: number, extra: Partial<ScoreRow> = {}): ScoreRow {
  const id = `d${String(++counter).padStart(4, "0")}`;
  const genuine = (GENUINE_KINDS as readonly string[]).includes(kind);
  return {
    id,
    file: `${id}.pdf`,
    label: genuine ? "genuine" : "forged",
    kind,
    documentType: "financial",
    format: "pdf",
    generator: "pdf-lib",
    family: "pdf-lib/native",
    split: "test",
    score,
    confidence: "high",
    flags: [],
    predictedType: "financial",
    latencyMs: 100,
    evidence: [],
    ...extra,
  };
}

/**
 * 20 genuine documents of every genuine kind scoring 0.00..0.19, and 20 of every forgery kind
 * scoring 0.80..0.99.
 */
function separable(): ScoreRow[] {
  return [
    ...GENUINE_KINDS.flatMap((kind) => Array.from({ length: 20 }, (_, i) => row(kind, i / 100))),
    ...FORGERY_KINDS.flatMap((kind) => Array.from({ length: 20 }, (_, i) => row(kind, 0.8 + i / 100))),
  ];
}

describe("an evaluation of perfectly separated scores", () => {
  const evaluation = evaluate(separable(), [], RUN);

  test("has AUC 1 and detects every forgery at 1% and 5% FPR", () => {
    expect(evaluation.roc.auc).toBe(1);
    expect(evaluation.overall.detection.fpr1.rate).toBe(1);
    expect(evaluation.overall.detection.fpr5.rate).toBe(1);
    expect(evaluation.overall.falsePositives.operating.rate).toBe(0);
  });

  test("derives the FPR rules from the genuine scores alone", () => {
    // 140 genuine scores, seven at each of 0.00..0.19: 1% allows 1 false positive, so none of
    // the seven tied at 0.19 may pass; 5% allows 7, exactly the seven above 0.18.
    expect(evaluation.rules.fpr1).toEqual({ value: 0.19, inclusive: false });
    expect(evaluation.rules.fpr5).toEqual({ value: 0.18, inclusive: false });
    expect(evaluation.overall.falsePositives.fpr5).toEqual({ flagged: 7, total: 140, rate: 0.05 });
    expect(evaluation.rules.operating).toEqual({ value: 0.5, inclusive: true });
  });

  test("passes every target", () => {
    expect(evaluation.targets.map((target) => [target.id, target.pass])).toEqual([
      ["auc", true],
      ["aucAllKinds", true],
      ["detectionAt5PerKind", true],
      ["manipulationAt5SameCapture", true],
      ["documentTypeAccuracy", true],
      ["genuineFamilyMaxFpr", true],
    ]);
  });

  test("is reported on the terminal with PASS for each target", () => {
    const text = formatEvaluation(evaluation);
    expect(text).toContain("ROC AUC 1.000 (140 genuine, 260 forged)");
    expect(text.match(/^ {2}PASS {2}/gm)).toHaveLength(6);
  });
});

describe("an evaluation that misses the targets", () => {
  // Amount rewrites score like genuine documents; recompressed genuine images, a family of
  // their own, score just above 0.5; every other document is typed as a utility bill.
  const rows = separable().map((r, i) => ({
    ...r,
    family: r.kind === "genuine_recompressed" ? "resvg/photo" : r.family,
    score: r.kind === "pdf_amount_rewrite" ? 0.1 : r.kind === "genuine_recompressed" ? 0.55 : r.score,
    predictedType: i % 2 === 0 ? ("utility_bill" as const) : r.predictedType,
  }));
  const failed: FailedRow[] = [
    { ...rows[0]!, code: "UNSUPPORTED_FORMAT", message: "the document is not a JPEG, PNG or PDF" },
  ];
  const evaluation = evaluate(rows, failed, { ...RUN, documents: rows.length + 1 });

  test("fails detection for the kind that is missed, and only that kind", () => {
    const target = evaluation.targets.find((t) => t.id === "detectionAt5PerKind")!;
    expect(target.pass).toBe(false);
    expect(target.checks.filter((check) => check.pass === false).map((check) => check.name)).toEqual([
      "pdf_amount_rewrite",
    ]);
    expect(evaluation.byKind.pdf_amount_rewrite!.detection.fpr5.rate).toBe(0);
  });

  test("fails the genuine false-positive target for the family flagged at 0.5", () => {
    const target = evaluation.targets.find((t) => t.id === "genuineFamilyMaxFpr")!;
    expect(target.pass).toBe(false);
    expect(target.checks.filter((check) => check.pass === false).map((check) => check.name)).toEqual(["resvg/photo"]);
    expect(evaluation.byFamily["resvg/photo"]!.falsePositives.operating.rate).toBe(1);
  });

  test("measures documentType accuracy and its confusion table", () => {
    expect(evaluation.documentType.accuracy).toBe(0.5);
    expect(evaluation.documentType.counts.financial.utility_bill).toBe(200);
    expect(evaluation.targets.find((t) => t.id === "documentTypeAccuracy")!.pass).toBe(false);
  });

  test("counts and lists the documents that failed", () => {
    expect(evaluation.errors.count).toBe(1);
    expect(evaluation.errors.byCode).toEqual({ UNSUPPORTED_FORMAT: 1 });
    expect(formatEvaluation(evaluation)).toContain("Errors: 1 (UNSUPPORTED_FORMAT 1)");
  });
});

describe("a manipulation judged against genuine documents captured the same way", () => {
  // 200 clean renders score 0.00-0.19, 20 genuine photos 0.30-0.49; photographed portrait
  // swaps score 0.40-0.49: above every clean render, but not above the photos they must be
  // told from.
  const clean = Array.from({ length: 200 }, (_, i) => row("genuine_clean", (i % 20) / 100, { family: "resvg/native" }));
  const photos = Array.from({ length: 20 }, (_, i) => row("genuine_photo", (30 + i) / 100, { family: "resvg/photo" }));
  const swaps = Array.from({ length: 10 }, (_, i) =>
    row("image_splice_portrait", (40 + i) / 100, { family: "resvg/photo" }),
  );
  const evaluation = evaluate([...clean, ...photos, ...swaps], [], RUN);

  test("sets the rule on that family's genuine documents alone", () => {
    const entry = evaluation.sameCapture["resvg/photo · image_splice_portrait"]!;
    expect(entry.genuine).toBe(20);
    // 5% of 20 allows one false positive: flagged above the second-highest photo, 0.48.
    expect(entry.threshold).toEqual({ value: 0.48, inclusive: false });
    expect(entry.detection).toEqual({ flagged: 1, total: 10, rate: 0.1 });
  });

  test("fails the manipulation target although every swap outscores every clean render", () => {
    expect(evaluation.byKind.image_splice_portrait!.detection.fpr5.rate).toBe(1);
    const target = evaluation.targets.find((t) => t.id === "manipulationAt5SameCapture")!;
    expect(target.pass).toBe(false);
    expect(target.checks.map((check) => check.name)).toEqual(["resvg/photo · image_splice_portrait"]);
    expect(formatEvaluation(evaluation)).toContain("Each forgery kind against the genuine documents of its own family");
  });

  test("judges nothing where a family has too few genuine documents", () => {
    const few = evaluate(
      [
        row("genuine_photo", 0.1, { family: "resvg/photo" }),
        row("image_splice_portrait", 0.9, { family: "resvg/photo" }),
      ],
      [],
      RUN,
    );
    const entry = few.sameCapture["resvg/photo · image_splice_portrait"]!;
    expect(entry.threshold).toBeNull();
    expect(entry.detection.rate).toBeNull();
    expect(few.targets.find((t) => t.id === "manipulationAt5SameCapture")!.pass).toBeNull();
  });
});

describe("targets on a run that lacks some kinds", () => {
  test("are not measurable (N/A) rather than passed", () => {
    const rows = [row("genuine_clean", 0.1), row("pdf_incremental_edit", 0.9)];
    const evaluation = evaluate(rows, [], RUN);
    const target = evaluation.targets.find((t) => t.id === "detectionAt5PerKind")!;
    expect(target.pass).toBeNull();
    expect(target.checks.find((check) => check.name === "pdf_incremental_edit")!.pass).toBe(true);
    expect(target.checks.find((check) => check.name === "image_retype")!.measured).toBeNull();
  });
});

describe("per-group AUC", () => {
  test("compares a one-class group (a kind) with every document of the other class", () => {
    const rows = [
      row("genuine_clean", 0.1),
      row("genuine_scan", 0.6),
      row("pdf_incremental_edit", 0.5),
      row("image_retype", 0.9),
    ];
    const evaluation = evaluate(rows, [], RUN);
    expect(evaluation.byKind.pdf_incremental_edit!.auc).toBe(0.5);
    expect(evaluation.byKind.genuine_scan!.auc).toBe(0.5);
    expect(evaluation.byKind.image_retype!.auc).toBe(1);
  });
});

describe("the AUC of a family", () => {
  // Retyped fields the content checks see score 0.9; spliced portraits only pixels show score
  // among the genuine photos.
  const rows = [
    ...Array.from({ length: 10 }, (_, i) => row("genuine_photo", (10 + i) / 100, { family: "resvg/photo" })),
    ...Array.from({ length: 5 }, () => row("image_retype", 0.9, { family: "resvg/photo" })),
    ...Array.from({ length: 5 }, (_, i) => row("image_splice_portrait", (10 + i) / 100, { family: "resvg/photo" })),
  ];
  const evaluation = evaluate(rows, [], RUN);

  test("is judged against the forgeries the content checks can see, and against every forgery apart", () => {
    expect(evaluation.byFamilyContent["resvg/photo"]).toMatchObject({ genuine: 10, forged: 5, auc: 1 });
    expect(evaluation.byFamily["resvg/photo"]!.auc).toBeLessThan(0.95);
    const pass = (id: string) => evaluation.targets.find((t) => t.id === id)!.pass;
    expect([pass("auc"), pass("aucAllKinds")]).toEqual([true, false]);
    expect(formatEvaluation(evaluation)).toContain("By family, against those forgeries");
  });
});

describe("confidence", () => {
  test("says whether high confidence is the most accurate level", () => {
    const rows = [
      row("genuine_clean", 0.1, { confidence: "high" }),
      row("pdf_incremental_edit", 0.9, { confidence: "high" }),
      row("genuine_scan", 0.6, { confidence: "low" }),
      row("image_retype", 0.9, { confidence: "low" }),
    ];
    const evaluation = evaluate(rows, [], RUN);
    expect(evaluation.confidence.levels.map((level) => level.accuracy)).toEqual([0.5, null, 1]);
    expect(evaluation.confidence.highIsMostAccurate).toBe(true);
  });

  test("compares only levels with at least 5 documents: one right verdict at low says nothing", () => {
    const highRows = Array.from({ length: 10 }, (_, i) =>
      row("genuine_clean", i < 9 ? 0.1 : 0.7, { confidence: "high" }),
    );
    const oneLow = evaluate([...highRows, row("genuine_scan", 0.1, { confidence: "low" })], [], RUN);
    expect(oneLow.confidence.highIsMostAccurate).toBe(true);
    const fiveLow = Array.from({ length: 5 }, () => row("genuine_scan", 0.1, { confidence: "low" }));
    expect(evaluate([...highRows, ...fiveLow], [], RUN).confidence.highIsMostAccurate).toBe(false);
  });
});
