// Original file: docverify/sidecar/v1/analyzer.proto

import type { TraceScore as _docverify_sidecar_v1_TraceScore, TraceScore__Output as _docverify_sidecar_v1_TraceScore__Output } from '../../../docverify/sidecar/v1/TraceScore';

export interface LineTraceScores {
  /**
   * Index into Page.lines.
   */
  'lineIndex'?: (number);
  'scores'?: (_docverify_sidecar_v1_TraceScore)[];
}

export interface LineTraceScores__Output {
  /**
   * Index into Page.lines.
   */
  'lineIndex': (number);
  'scores': (_docverify_sidecar_v1_TraceScore__Output)[];
}
