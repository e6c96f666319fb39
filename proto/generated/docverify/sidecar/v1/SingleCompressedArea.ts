// Original file: docverify/sidecar/v1/analyzer.proto

import type { Box as _docverify_sidecar_v1_Box, Box__Output as _docverify_sidecar_v1_Box__Output } from '../../../docverify/sidecar/v1/Box';

export interface SingleCompressedArea {
  'box'?: (_docverify_sidecar_v1_Box | null);
  /**
   * Tiles of 32 x 32 pixels it spans; the double_quant trace's area_threshold says from how many
   * it stands out.
   */
  'tiles'?: (number);
  /**
   * Mean robust z-score of its tiles against the page's other tiles.
   */
  'meanZ'?: (number | string);
}

export interface SingleCompressedArea__Output {
  'box': (_docverify_sidecar_v1_Box__Output | null);
  /**
   * Tiles of 32 x 32 pixels it spans; the double_quant trace's area_threshold says from how many
   * it stands out.
   */
  'tiles': (number);
  /**
   * Mean robust z-score of its tiles against the page's other tiles.
   */
  'meanZ': (number);
}
