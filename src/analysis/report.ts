// The shapes detectors produce and the analysis returns. The public result
// (src/api/schemas/verification.ts) is a projection of AnalysisReport; the evidence stays
// in the stored result.
import type { Confidence, DocumentType, Flag } from "./flags.ts";
import type { DetectorName } from "./manifest.ts";
import type { Measurements } from "./measurements.ts";

/** [x, y, width, height] in pixels of the page or image the evidence is on. */
export type Box = [number, number, number, number];

/** One measured fact that supports a flag: enough to show a person why. */
export interface Evidence {
  flag: Flag;
  /** The detector that measured it (manifest.ts), e.g. "jpeg-quantization". */
  detector: DetectorName;
  /** How strongly this evidence alone suggests forgery, 0..1. */
  strength: number;
  message: string;
  page?: number;
  box?: Box;
  measured?: number | string;
  threshold?: number | string;
}

/**
 * What became of a detector that did not simply run: "not-applicable" where it has nothing to
 * judge on this kind of document (a check outside its document types, a pixel detector with
 * no picture to look at), "failed" where it threw. The fusion and the analyzer decide on this;
 * the facts say the same for people (`applicable: false`, `failed: <kind>`).
 */
type DetectorStatus = "not-applicable" | "failed";

/** What one detector returns: its evidence, plus facts worth showing even when clean. */
export interface DetectorResult {
  detector: DetectorName;
  evidence: Evidence[];
  facts: Record<string, unknown>;
  /**
   * How much this detector could see, 0..1 (e.g. 0 for a JPEG detector on a PNG, low for
   * a tiny or heavily recompressed image). Low coverage lowers confidence, never raises
   * the score.
   */
  coverage: number;
  /** What the fusion weighs beyond the evidence (measurements.ts); facts are for people. */
  measurements?: Measurements;
  /** Absent where the detector ran. */
  status?: DetectorStatus;
}

export interface AnalysisReport {
  documentType: DocumentType;
  forgeryScore: number;
  confidence: Confidence;
  flags: Flag[];
  evidence: Evidence[];
  detectors: DetectorResult[];
  format: "jpeg" | "png" | "pdf";
  pages: number;
}

/** The report of a fused analysis: one shape whichever analyzer produced it. */
export const reportOf = (
  fusion: { forgeryScore: number; confidence: Confidence; flags: Flag[]; evidence: Evidence[] },
  rest: Pick<AnalysisReport, "documentType" | "detectors" | "format" | "pages">,
): AnalysisReport => ({
  documentType: rest.documentType,
  forgeryScore: fusion.forgeryScore,
  confidence: fusion.confidence,
  flags: fusion.flags,
  evidence: fusion.evidence,
  detectors: rest.detectors,
  format: rest.format,
  pages: rest.pages,
});
