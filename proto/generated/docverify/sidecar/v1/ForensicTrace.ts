// Original file: docverify/sidecar/v1/analyzer.proto

import type { Fact as _docverify_sidecar_v1_Fact, Fact__Output as _docverify_sidecar_v1_Fact__Output } from '../../../docverify/sidecar/v1/Fact';

export interface ForensicTrace {
  /**
   * "ela", "noise", "jpeg_grid", "copy_move".
   */
  'name'?: (string);
  /**
   * 0 = says nothing on this page (too small, too compressed, too little text), 1 = fully usable.
   */
  'reliability'?: (number | string);
  /**
   * Page-level strength; its meaning is per trace (e.g. the highest line z-score).
   */
  'globalScore'?: (number | string);
  'facts'?: (_docverify_sidecar_v1_Fact)[];
}

export interface ForensicTrace__Output {
  /**
   * "ela", "noise", "jpeg_grid", "copy_move".
   */
  'name': (string);
  /**
   * 0 = says nothing on this page (too small, too compressed, too little text), 1 = fully usable.
   */
  'reliability': (number);
  /**
   * Page-level strength; its meaning is per trace (e.g. the highest line z-score).
   */
  'globalScore': (number);
  'facts': (_docverify_sidecar_v1_Fact__Output)[];
}
