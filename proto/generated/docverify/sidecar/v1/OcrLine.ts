// Original file: docverify/sidecar/v1/analyzer.proto

import type { Point as _docverify_sidecar_v1_Point, Point__Output as _docverify_sidecar_v1_Point__Output } from '../../../docverify/sidecar/v1/Point';
import type { Box as _docverify_sidecar_v1_Box, Box__Output as _docverify_sidecar_v1_Box__Output } from '../../../docverify/sidecar/v1/Box';
import type { CharacterReading as _docverify_sidecar_v1_CharacterReading, CharacterReading__Output as _docverify_sidecar_v1_CharacterReading__Output } from '../../../docverify/sidecar/v1/CharacterReading';

export interface OcrLine {
  'text'?: (string);
  /**
   * Mean probability of the recognised characters, 0..1.
   */
  'confidence'?: (number | string);
  /**
   * Four corners clockwise from top-left.
   */
  'polygon'?: (_docverify_sidecar_v1_Point)[];
  'box'?: (_docverify_sidecar_v1_Box | null);
  /**
   * Per character of `text` (by code point), how surely it was read and what else it might
   * be: the content checks ask whether a misreading could explain a sum that does not add up.
   */
  'characters'?: (_docverify_sidecar_v1_CharacterReading)[];
}

export interface OcrLine__Output {
  'text': (string);
  /**
   * Mean probability of the recognised characters, 0..1.
   */
  'confidence': (number);
  /**
   * Four corners clockwise from top-left.
   */
  'polygon': (_docverify_sidecar_v1_Point__Output)[];
  'box': (_docverify_sidecar_v1_Box__Output | null);
  /**
   * Per character of `text` (by code point), how surely it was read and what else it might
   * be: the content checks ask whether a misreading could explain a sum that does not add up.
   */
  'characters': (_docverify_sidecar_v1_CharacterReading__Output)[];
}
