// Original file: docverify/sidecar/v1/analyzer.proto

import type { Page as _docverify_sidecar_v1_Page, Page__Output as _docverify_sidecar_v1_Page__Output } from '../../../docverify/sidecar/v1/Page';

export interface AnalyzeDocumentResponse {
  /**
   * Pages analysed, in document order; an image is one page.
   */
  'pages'?: (_docverify_sidecar_v1_Page)[];
  /**
   * Pages the document has (PDF); larger than pages.length when the page limit cut it short.
   */
  'pageCount'?: (number);
  /**
   * ONNX Runtime execution providers the sidecar ran with, best first (e.g. "cuda", "cpu").
   */
  'executionProviders'?: (string)[];
  /**
   * Wall time the sidecar spent on this document once all bytes had arrived.
   */
  'elapsedMs'?: (number);
}

export interface AnalyzeDocumentResponse__Output {
  /**
   * Pages analysed, in document order; an image is one page.
   */
  'pages': (_docverify_sidecar_v1_Page__Output)[];
  /**
   * Pages the document has (PDF); larger than pages.length when the page limit cut it short.
   */
  'pageCount': (number);
  /**
   * ONNX Runtime execution providers the sidecar ran with, best first (e.g. "cuda", "cpu").
   */
  'executionProviders': (string)[];
  /**
   * Wall time the sidecar spent on this document once all bytes had arrived.
   */
  'elapsedMs': (number);
}
