import { describe, expect, test } from "bun:test";
import { FLAG_WEIGHTS, fuse } from "../../../src/analysis/fusion";
import type { DetectorResult, Evidence } from "../../../src/analysis/report";

const detector = (name: string, evidence: Omit<Evidence, "detector" | "message">[], coverage = 1): DetectorResult => ({
  detector: name,
  evidence: evidence.map((e) => ({ ...e, detector: name, message: e.flag })),
  facts: {},
  coverage,
});

describe("fusion", () => {
  test("no evidence means no flags, a zero score, and confidence from coverage", () => {
    const f = fuse([detector("a", []), detector("b", [])]);
    expect(f).toMatchObject({ forgeryScore: 0, flags: [], confidence: "high" });
  });

  test("one flag contributes its strength times its weight", () => {
    const f = fuse([detector("a", [{ flag: "pdf_text_overlay", strength: 0.6 }])]);
    expect(f.forgeryScore).toBeCloseTo(0.6 * FLAG_WEIGHTS.pdf_text_overlay, 3);
    expect(f.flags).toEqual(["pdf_text_overlay"]);
  });

  test("flags combine by noisy-OR, never above 1", () => {
    const f = fuse([
      detector("a", [{ flag: "pdf_text_overlay", strength: 1 }]),
      detector("b", [{ flag: "pdf_font_inconsistency", strength: 1 }]),
    ]);
    const expected = 1 - (1 - FLAG_WEIGHTS.pdf_text_overlay) * (1 - FLAG_WEIGHTS.pdf_font_inconsistency);
    expect(f.forgeryScore).toBeCloseTo(expected, 3);
    expect(f.forgeryScore).toBeLessThanOrEqual(1);
  });

  test("evidence from a detector that saw little counts for less and lowers confidence", () => {
    const full = fuse([detector("a", [{ flag: "editing_software", strength: 0.6 }], 1)]);
    const partial = fuse([detector("a", [{ flag: "editing_software", strength: 0.6 }], 0.3)]);
    expect(partial.forgeryScore).toBeLessThan(full.forgeryScore);
    expect(partial.confidence).toBe("low");
  });

  test("double compression alone weighs little, beside an editor it weighs fully", () => {
    const alone = fuse([detector("d", [{ flag: "double_jpeg_compression", strength: 0.8 }])]);
    const withEditor = fuse([
      detector("d", [{ flag: "double_jpeg_compression", strength: 0.8 }]),
      detector("m", [{ flag: "editing_software", strength: 0.6 }]),
    ]);
    expect(alone.forgeryScore).toBeLessThan(0.3);
    expect(withEditor.contributions.find((c) => c.flag === "double_jpeg_compression")!.weight).toBe(0.8);
    expect(withEditor.forgeryScore).toBeGreaterThan(0.7);
  });

  test("low_quality is listed to explain the confidence but adds nothing to the score", () => {
    const f = fuse([detector("q", [{ flag: "low_quality", strength: 1 }])]);
    expect(f.flags).toEqual(["low_quality"]);
    expect(f.forgeryScore).toBe(0);
    expect(f.confidence).toBe("medium");
  });

  test("a failed detector keeps confidence from being high", () => {
    const failed: DetectorResult = { detector: "x", evidence: [], facts: { failed: "TypeError" }, coverage: 0 };
    expect(fuse([detector("a", []), detector("b", []), detector("c", []), detector("d", []), detector("e", []), failed]).confidence).toBe("medium");
  });

  test("a ceiling caps confidence for analyses that leave evidence unexamined", () => {
    expect(fuse([detector("a", [])], { confidenceCeiling: "medium" }).confidence).toBe("medium");
  });
});
