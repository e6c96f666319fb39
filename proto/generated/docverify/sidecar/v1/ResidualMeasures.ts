// Original file: docverify/sidecar/v1/analyzer.proto


/**
 * ela and noise: a line's robust z-score against the page's other lines.
 */
export interface ResidualMeasures {
  /**
   * The z-score from which a line stands out.
   */
  'lineThreshold'?: (number | string);
  '_lineThreshold'?: "lineThreshold";
}

/**
 * ela and noise: a line's robust z-score against the page's other lines.
 */
export interface ResidualMeasures__Output {
  /**
   * The z-score from which a line stands out.
   */
  'lineThreshold'?: (number);
  '_lineThreshold'?: "lineThreshold";
}
