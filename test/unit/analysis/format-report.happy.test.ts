import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { describe, expect, test } from "bun:test";
import { formatReport } from "../../../src/analysis/format-report.ts";
import { makePdf, whiteOutAndRetype } from "../../helpers/fixtures.ts";

describe("the printed report", () => {
  test("shows the verdict, the type, each flag with its evidence, and every detector's facts", async () => {
    const report = await createLocalAnalyzer().analyze({
      bytes: whiteOutAndRetype(makePdf(), 8, "Closing balance 9,513.65"),
      format: "pdf",
    });
    const text = formatReport(report);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(
      /^Verdict: (SUSPICIOUS|LIKELY FORGED) — forgery score [01]\.\d\d, confidence (low|medium|high)$/,
    );
    expect(lines[1]).toBe("Document: financial (pdf, 1 page)");
    expect(text).toMatch(/ {2}pdf_text_overlay \(strength 0\.85, adds 0\.\d\d to the score\)/);
    expect(text).toMatch(
      /- A white fill drawn over \d+ characters of earlier text.* \[pdf-text-overlay\] \(page 1, box \[72, \d+, \d+, \d+\]; measured \d+ vs threshold 3; strength 0\.85\)/,
    );
    expect(text).toContain("  pdf-revisions (API worker): coverage 1.00, 1 evidence");
    expect(text).toContain("    producer: ReportLab PDF Library - www.reportlab.com");
  });

  test("a clean document reads as such, and facts can be left out", async () => {
    const report = await createLocalAnalyzer().analyze({ bytes: makePdf(), format: "pdf" });
    expect(formatReport(report, { facts: false })).toMatch(
      /^Verdict: NO SIGNS OF FORGERY — forgery score 0\.[01]\d, confidence (medium|high)\nDocument: financial \(pdf, 1 page\)\nFlags: none$/,
    );
  });

  test("the verdict names a concern only when a flag explains it", async () => {
    const report = await createLocalAnalyzer().analyze({ bytes: makePdf(), format: "pdf" });
    const first = (r: typeof report) => formatReport(r, { facts: false }).split("\n")[0];
    expect(first({ ...report, forgeryScore: 0.3 })).toStartWith("Verdict: NO SIGNS OF FORGERY — forgery score 0.30");
    expect(first({ ...report, forgeryScore: 0.3, flags: ["low_quality"] })).toStartWith("Verdict: NO SIGNS OF FORGERY");
    expect(first({ ...report, forgeryScore: 0.3, flags: ["editing_software"] })).toStartWith(
      "Verdict: NO SIGN OF ALTERATION, PROVENANCE CONCERNS — forgery score 0.30",
    );
    expect(first({ ...report, forgeryScore: 0.3, flags: ["pdf_font_inconsistency"] })).toStartWith(
      "Verdict: MINOR CONCERNS — forgery score 0.30",
    );
    expect(first({ ...report, forgeryScore: 0.45, flags: ["editing_software", "balance_mismatch"] })).toStartWith(
      "Verdict: SUSPICIOUS",
    );
  });
});
