// Original file: docverify/sidecar/v1/analyzer.proto

import type { Box as _docverify_sidecar_v1_Box, Box__Output as _docverify_sidecar_v1_Box__Output } from '../../../docverify/sidecar/v1/Box';

export interface CopyMove {
  'source'?: (_docverify_sidecar_v1_Box | null);
  'target'?: (_docverify_sidecar_v1_Box | null);
  /**
   * Normalised cross-correlation of the two areas, 0..1.
   */
  'score'?: (number | string);
}

export interface CopyMove__Output {
  'source': (_docverify_sidecar_v1_Box__Output | null);
  'target': (_docverify_sidecar_v1_Box__Output | null);
  /**
   * Normalised cross-correlation of the two areas, 0..1.
   */
  'score': (number);
}
