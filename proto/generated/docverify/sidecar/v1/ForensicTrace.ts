// Original file: docverify/sidecar/v1/analyzer.proto

import type { Fact as _docverify_sidecar_v1_Fact, Fact__Output as _docverify_sidecar_v1_Fact__Output } from '../../../docverify/sidecar/v1/Fact';
import type { ResidualMeasures as _docverify_sidecar_v1_ResidualMeasures, ResidualMeasures__Output as _docverify_sidecar_v1_ResidualMeasures__Output } from '../../../docverify/sidecar/v1/ResidualMeasures';
import type { DoubleQuantMeasures as _docverify_sidecar_v1_DoubleQuantMeasures, DoubleQuantMeasures__Output as _docverify_sidecar_v1_DoubleQuantMeasures__Output } from '../../../docverify/sidecar/v1/DoubleQuantMeasures';
import type { CopyMoveMeasures as _docverify_sidecar_v1_CopyMoveMeasures, CopyMoveMeasures__Output as _docverify_sidecar_v1_CopyMoveMeasures__Output } from '../../../docverify/sidecar/v1/CopyMoveMeasures';
import type { PortraitMeasures as _docverify_sidecar_v1_PortraitMeasures, PortraitMeasures__Output as _docverify_sidecar_v1_PortraitMeasures__Output } from '../../../docverify/sidecar/v1/PortraitMeasures';
import type { RecaptureMeasures as _docverify_sidecar_v1_RecaptureMeasures, RecaptureMeasures__Output as _docverify_sidecar_v1_RecaptureMeasures__Output } from '../../../docverify/sidecar/v1/RecaptureMeasures';
import type { GreyDocumentMeasures as _docverify_sidecar_v1_GreyDocumentMeasures, GreyDocumentMeasures__Output as _docverify_sidecar_v1_GreyDocumentMeasures__Output } from '../../../docverify/sidecar/v1/GreyDocumentMeasures';

export interface ForensicTrace {
  /**
   * "ela", "noise", "jpeg_grid", "double_quant", "copy_move", "portrait", "recapture",
   * "grey_document".
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
  /**
   * What the trace measured, for people. The values below are also sent here under their
   * camelCase names (lineThreshold, minCorrelation, ...), which is how APIs older than
   * `measures` read them; an API reads the typed fields, never these.
   */
  'facts'?: (_docverify_sidecar_v1_Fact)[];
  /**
   * ela, noise.
   */
  'residual'?: (_docverify_sidecar_v1_ResidualMeasures | null);
  'doubleQuant'?: (_docverify_sidecar_v1_DoubleQuantMeasures | null);
  'copyMove'?: (_docverify_sidecar_v1_CopyMoveMeasures | null);
  'portrait'?: (_docverify_sidecar_v1_PortraitMeasures | null);
  'recapture'?: (_docverify_sidecar_v1_RecaptureMeasures | null);
  'greyDocument'?: (_docverify_sidecar_v1_GreyDocumentMeasures | null);
  /**
   * The thresholds and measures the API judges the trace by, typed, one message per kind of
   * trace. Absent from a sidecar older than them, and each optional field absent where the
   * sidecar did not measure it: the API treats an absent value as unknown (a trace without
   * its threshold raises nothing), as it treated a missing fact.
   */
  'measures'?: "residual"|"doubleQuant"|"copyMove"|"portrait"|"recapture"|"greyDocument";
}

export interface ForensicTrace__Output {
  /**
   * "ela", "noise", "jpeg_grid", "double_quant", "copy_move", "portrait", "recapture",
   * "grey_document".
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
  /**
   * What the trace measured, for people. The values below are also sent here under their
   * camelCase names (lineThreshold, minCorrelation, ...), which is how APIs older than
   * `measures` read them; an API reads the typed fields, never these.
   */
  'facts': (_docverify_sidecar_v1_Fact__Output)[];
  /**
   * ela, noise.
   */
  'residual'?: (_docverify_sidecar_v1_ResidualMeasures__Output | null);
  'doubleQuant'?: (_docverify_sidecar_v1_DoubleQuantMeasures__Output | null);
  'copyMove'?: (_docverify_sidecar_v1_CopyMoveMeasures__Output | null);
  'portrait'?: (_docverify_sidecar_v1_PortraitMeasures__Output | null);
  'recapture'?: (_docverify_sidecar_v1_RecaptureMeasures__Output | null);
  'greyDocument'?: (_docverify_sidecar_v1_GreyDocumentMeasures__Output | null);
  /**
   * The thresholds and measures the API judges the trace by, typed, one message per kind of
   * trace. Absent from a sidecar older than them, and each optional field absent where the
   * sidecar did not measure it: the API treats an absent value as unknown (a trace without
   * its threshold raises nothing), as it treated a missing fact.
   */
  'measures'?: "residual"|"doubleQuant"|"copyMove"|"portrait"|"recapture"|"greyDocument";
}
