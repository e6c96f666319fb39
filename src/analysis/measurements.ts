// What detectors measured that the fusion weighs beyond their evidence, typed: a detector's
// facts are for people and free to change, these are the fusion's input
// (fusion/features.ts) and what the analyzer decides on (full-analyzer.ts). Each field
// belongs to the detectors named beside it. Values are kept as the detectors show them
// (rounded as their facts are), which is what the committed model was trained on.

/** A residual trace of one page: the highest OCR line z and the threshold it is judged by. */
interface LineTraceMeasurement {
  highestLineZ: number;
  /** Absent where the sidecar sent no threshold for the trace. */
  threshold?: number;
}

/** pixel-residuals, one page: each line trace measured, and the largest area compressed once. */
export interface ResidualPageMeasurement {
  ela?: LineTraceMeasurement;
  noise?: LineTraceMeasurement;
  singleCompressedArea: { tiles: number; threshold?: number; reliability: number };
}

export type CheckDigitState = "valid" | "invalid" | "unread";

/** mrz, one zone found: whether it was read confidently, a specimen, and its check digits. */
export interface MrzZoneMeasurement {
  readConfidently: boolean;
  specimen: boolean;
  checkDigits: CheckDigitState[];
}

export interface Measurements {
  /** double-jpeg-compression: its score (3 decimals) and the threshold for the final quality. */
  doubleCompression?: { score: number; threshold: number };
  /** pixel-residuals: per page analysed. */
  residualPages?: ResidualPageMeasurement[];
  /** copy-move: verified clones per page analysed. */
  clonesPerPage?: number[];
  /** mrz: every zone found, unreadable ones included. */
  mrzZones?: MrzZoneMeasurement[];
  /** reading-quality: mean OCR line confidence (2 decimals), 0 without text. */
  ocrMeanConfidence?: number;
  /**
   * balances, dates: findings left uncertain (a misreading could explain them). The analyzer
   * counts a check that has them as having judged something (full-analyzer.ts).
   */
  uncertainFindings?: number;
  /** image-metadata: whether the metadata names a camera (make or model), for screenshot. */
  namesCamera?: boolean;
}
