// The report `docverify analyze FILE` prints: verdict, type, each flag with the evidence
// behind it, then what every detector measured. Plain text, one fact per line.
import { fuse } from "./fusion.ts";
import { accuses, concerns } from "./fusion/features.ts";
import { detectorEntry, PLACE_LABEL } from "./manifest.ts";
import type { AnalysisReport, Evidence } from "./report.ts";

export interface FormatReportOptions {
  /** Print detector facts (default true). */
  facts?: boolean;
}

const verdict = ({ forgeryScore: score, flags }: AnalysisReport): string => {
  // Without a flag, nothing could explain a concern: the score is only the model's prior then.
  if (!concerns(flags)) return "NO SIGNS OF FORGERY";
  // Provenance concerns alone are questions about the file's history, not signs of alteration.
  if (!accuses(flags)) return "NO SIGN OF ALTERATION, PROVENANCE CONCERNS";
  return score >= 0.7
    ? "LIKELY FORGED"
    : score >= 0.4
      ? "SUSPICIOUS"
      : score >= 0.15
        ? "MINOR CONCERNS"
        : "NO SIGNS OF FORGERY";
};

const value = (v: unknown): string => {
  if (Array.isArray(v)) return v.length ? v.map(value).join(", ") : "none";
  if (v && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>);
    return entries.length ? entries.map(([k, x]) => `${k}=${value(x)}`).join(", ") : "none";
  }
  return String(v);
};

const evidenceLine = (e: Evidence): string => {
  const where = [e.page !== undefined ? `page ${e.page}` : "", e.box ? `box [${e.box.join(", ")}]` : ""]
    .filter(Boolean)
    .join(", ");
  const measure =
    e.measured !== undefined
      ? `measured ${e.measured}${e.threshold !== undefined ? ` vs threshold ${e.threshold}` : ""}`
      : "";
  const detail = [where, measure, `strength ${e.strength.toFixed(2)}`].filter(Boolean).join("; ");
  return `    - ${e.message} [${e.detector}] (${detail})`;
};

export const formatReport = (report: AnalysisReport, opts: FormatReportOptions = {}): string => {
  const out: string[] = [];
  out.push(
    `Verdict: ${verdict(report)} — forgery score ${report.forgeryScore.toFixed(2)}, confidence ${report.confidence}`,
  );
  out.push(`Document: ${report.documentType} (${report.format}, ${report.pages} page${report.pages === 1 ? "" : "s"})`);
  const contributions = new Map(fuse(report.detectors).contributions.map((c) => [c.flag, c]));
  if (report.flags.length === 0) {
    out.push("Flags: none");
  } else {
    out.push("Flags:");
    for (const flag of report.flags) {
      const c = contributions.get(flag);
      // The contribution is what a reader can weigh: how much lower the score would be without this
      // flag.
      out.push(
        `  ${flag}${c ? ` (strength ${c.strength.toFixed(2)}, adds ${c.contribution.toFixed(2)} to the score)` : ""}`,
      );
      for (const e of report.evidence.filter((x) => x.flag === flag)) out.push(evidenceLine(e));
    }
  }
  const unflagged = report.evidence.filter((e) => !report.flags.includes(e.flag));
  if (unflagged.length > 0) {
    out.push("Evidence not enough to flag on its own:");
    for (const e of unflagged) out.push(evidenceLine(e));
  }
  if (opts.facts ?? true) {
    out.push("Detectors:");
    for (const d of report.detectors) {
      out.push(
        `  ${d.detector} (${PLACE_LABEL[detectorEntry(d.detector).runs]}): coverage ${d.coverage.toFixed(2)}, ${d.evidence.length} evidence`,
      );
      for (const [k, v] of Object.entries(d.facts)) out.push(`    ${k}: ${value(v)}`);
    }
  }
  return out.join("\n");
};
