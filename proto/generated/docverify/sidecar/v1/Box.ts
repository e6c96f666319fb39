// Original file: docverify/sidecar/v1/analyzer.proto


/**
 * Axis-aligned, in whole pixels.
 */
export interface Box {
  'x'?: (number);
  'y'?: (number);
  'width'?: (number);
  'height'?: (number);
}

/**
 * Axis-aligned, in whole pixels.
 */
export interface Box__Output {
  'x': (number);
  'y': (number);
  'width': (number);
  'height': (number);
}
