// Original file: docverify/sidecar/v1/analyzer.proto

import type { ForensicRegion as _docverify_sidecar_v1_ForensicRegion, ForensicRegion__Output as _docverify_sidecar_v1_ForensicRegion__Output } from '../../../docverify/sidecar/v1/ForensicRegion';
import type { Heatmap as _docverify_sidecar_v1_Heatmap, Heatmap__Output as _docverify_sidecar_v1_Heatmap__Output } from '../../../docverify/sidecar/v1/Heatmap';
import type { Fact as _docverify_sidecar_v1_Fact, Fact__Output as _docverify_sidecar_v1_Fact__Output } from '../../../docverify/sidecar/v1/Fact';

/**
 * What the localiser network (sidecar/models/localiser.onnx) saw on one page.
 */
export interface TamperLocalisation {
  /**
   * The page's highest cell probability of tampering, 0..1.
   */
  'score'?: (number | string);
  /**
   * The score from which the sidecar reports a region, measured with the model: at most 1% of
   * genuine validation pages reach it.
   */
  'threshold'?: (number | string);
  /**
   * 0 = the model cannot see this page (too small), 1 = fully usable.
   */
  'reliability'?: (number | string);
  /**
   * Groups of cells at or above the threshold, strongest first; trace "localiser", score the
   * group's highest cell probability.
   */
  'regions'?: (_docverify_sidecar_v1_ForensicRegion)[];
  /**
   * The cell probabilities, 0..255, at most 64 x 64, over the whole page.
   */
  'heatmap'?: (_docverify_sidecar_v1_Heatmap | null);
  /**
   * How it ran: the working reduction factor, the model's time.
   */
  'facts'?: (_docverify_sidecar_v1_Fact)[];
}

/**
 * What the localiser network (sidecar/models/localiser.onnx) saw on one page.
 */
export interface TamperLocalisation__Output {
  /**
   * The page's highest cell probability of tampering, 0..1.
   */
  'score': (number);
  /**
   * The score from which the sidecar reports a region, measured with the model: at most 1% of
   * genuine validation pages reach it.
   */
  'threshold': (number);
  /**
   * 0 = the model cannot see this page (too small), 1 = fully usable.
   */
  'reliability': (number);
  /**
   * Groups of cells at or above the threshold, strongest first; trace "localiser", score the
   * group's highest cell probability.
   */
  'regions': (_docverify_sidecar_v1_ForensicRegion__Output)[];
  /**
   * The cell probabilities, 0..255, at most 64 x 64, over the whole page.
   */
  'heatmap': (_docverify_sidecar_v1_Heatmap__Output | null);
  /**
   * How it ran: the working reduction factor, the model's time.
   */
  'facts': (_docverify_sidecar_v1_Fact__Output)[];
}
