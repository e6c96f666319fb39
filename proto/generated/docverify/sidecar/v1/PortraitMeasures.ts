// Original file: docverify/sidecar/v1/analyzer.proto

import type { Box as _docverify_sidecar_v1_Box, Box__Output as _docverify_sidecar_v1_Box__Output } from '../../../docverify/sidecar/v1/Box';

/**
 * The portrait against the rest of the card: log2 of the portrait's value over the card's.
 */
export interface PortraitMeasures {
  /**
   * The portrait found; absent where none was.
   */
  'box'?: (_docverify_sidecar_v1_Box | null);
  /**
   * The measure furthest above its threshold: "sharpSeam".
   */
  'strongestMeasure'?: (string);
  /**
   * The smaller of sharpness and seam, and the threshold it is judged by.
   */
  'sharpSeam'?: (number | string);
  'sharpSeamThreshold'?: (number | string);
  'sharpness'?: (number | string);
  'seam'?: (number | string);
  'errorLevel'?: (number | string);
  'noise'?: (number | string);
  'blockiness'?: (number | string);
  '_strongestMeasure'?: "strongestMeasure";
  '_sharpSeam'?: "sharpSeam";
  '_sharpSeamThreshold'?: "sharpSeamThreshold";
  '_sharpness'?: "sharpness";
  '_seam'?: "seam";
  '_errorLevel'?: "errorLevel";
  '_noise'?: "noise";
  '_blockiness'?: "blockiness";
}

/**
 * The portrait against the rest of the card: log2 of the portrait's value over the card's.
 */
export interface PortraitMeasures__Output {
  /**
   * The portrait found; absent where none was.
   */
  'box': (_docverify_sidecar_v1_Box__Output | null);
  /**
   * The measure furthest above its threshold: "sharpSeam".
   */
  'strongestMeasure'?: (string);
  /**
   * The smaller of sharpness and seam, and the threshold it is judged by.
   */
  'sharpSeam'?: (number);
  'sharpSeamThreshold'?: (number);
  'sharpness'?: (number);
  'seam'?: (number);
  'errorLevel'?: (number);
  'noise'?: (number);
  'blockiness'?: (number);
  '_strongestMeasure'?: "strongestMeasure";
  '_sharpSeam'?: "sharpSeam";
  '_sharpSeamThreshold'?: "sharpSeamThreshold";
  '_sharpness'?: "sharpness";
  '_seam'?: "seam";
  '_errorLevel'?: "errorLevel";
  '_noise'?: "noise";
  '_blockiness'?: "blockiness";
}
