// Original file: docverify/sidecar/v1/analyzer.proto

import type { Box as _docverify_sidecar_v1_Box, Box__Output as _docverify_sidecar_v1_Box__Output } from '../../../docverify/sidecar/v1/Box';

export interface ForensicRegion {
  'box'?: (_docverify_sidecar_v1_Box | null);
  /**
   * How strongly the trace suggests tampering, 0..1.
   */
  'score'?: (number | string);
  /**
   * Which trace found it, e.g. "ela", "noise", "copy_move", "double_jpeg".
   */
  'trace'?: (string);
}

export interface ForensicRegion__Output {
  'box': (_docverify_sidecar_v1_Box__Output | null);
  /**
   * How strongly the trace suggests tampering, 0..1.
   */
  'score': (number);
  /**
   * Which trace found it, e.g. "ela", "noise", "copy_move", "double_jpeg".
   */
  'trace': (string);
}
