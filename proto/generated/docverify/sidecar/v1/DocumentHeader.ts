// Original file: docverify/sidecar/v1/analyzer.proto

import type { DocumentFormat as _docverify_sidecar_v1_DocumentFormat, DocumentFormat__Output as _docverify_sidecar_v1_DocumentFormat__Output } from '../../../docverify/sidecar/v1/DocumentFormat';
import type { Long } from '@grpc/proto-loader';

export interface DocumentHeader {
  /**
   * The format intake judged from the content; the sidecar refuses bytes that do not decode as it.
   */
  'format'?: (_docverify_sidecar_v1_DocumentFormat);
  /**
   * Total bytes the client will send; a stream that sends more or fewer is refused.
   */
  'sizeBytes'?: (number | string | Long);
}

export interface DocumentHeader__Output {
  /**
   * The format intake judged from the content; the sidecar refuses bytes that do not decode as it.
   */
  'format': (_docverify_sidecar_v1_DocumentFormat__Output);
  /**
   * Total bytes the client will send; a stream that sends more or fewer is refused.
   */
  'sizeBytes': (number);
}
