// Original file: docverify/sidecar/v1/analyzer.proto


/**
 * A coarse map of how suspicious each area of the page is, for display.
 */
export interface Heatmap {
  'width'?: (number);
  'height'?: (number);
  /**
   * width*height bytes, row-major, 0 = clean .. 255 = most suspicious.
   */
  'values'?: (Buffer | Uint8Array | string);
}

/**
 * A coarse map of how suspicious each area of the page is, for display.
 */
export interface Heatmap__Output {
  'width': (number);
  'height': (number);
  /**
   * width*height bytes, row-major, 0 = clean .. 255 = most suspicious.
   */
  'values': (Buffer);
}
