// Original file: docverify/sidecar/v1/analyzer.proto


export interface DoubleQuantMeasures {
  /**
   * The z-score from which a line stands out as compressed once on a page compressed twice.
   */
  'lineThreshold'?: (number | string);
  /**
   * Tiles from which a SingleCompressedArea stands out.
   */
  'areaThreshold'?: (number);
  /**
   * 0..1: how far the areas can be trusted on this page (they need no lines, unlike the trace's
   * own reliability).
   */
  'areaReliability'?: (number | string);
  '_lineThreshold'?: "lineThreshold";
  '_areaThreshold'?: "areaThreshold";
  '_areaReliability'?: "areaReliability";
}

export interface DoubleQuantMeasures__Output {
  /**
   * The z-score from which a line stands out as compressed once on a page compressed twice.
   */
  'lineThreshold'?: (number);
  /**
   * Tiles from which a SingleCompressedArea stands out.
   */
  'areaThreshold'?: (number);
  /**
   * 0..1: how far the areas can be trusted on this page (they need no lines, unlike the trace's
   * own reliability).
   */
  'areaReliability'?: (number);
  '_lineThreshold'?: "lineThreshold";
  '_areaThreshold'?: "areaThreshold";
  '_areaReliability'?: "areaReliability";
}
