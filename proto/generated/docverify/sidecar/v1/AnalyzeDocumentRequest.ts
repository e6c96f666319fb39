// Original file: docverify/sidecar/v1/analyzer.proto

import type { DocumentHeader as _docverify_sidecar_v1_DocumentHeader, DocumentHeader__Output as _docverify_sidecar_v1_DocumentHeader__Output } from '../../../docverify/sidecar/v1/DocumentHeader';

export interface AnalyzeDocumentRequest {
  'header'?: (_docverify_sidecar_v1_DocumentHeader | null);
  /**
   * Any size up to the server's message limit; 64 KiB is a good choice.
   */
  'chunk'?: (Buffer | Uint8Array | string);
  'part'?: "header"|"chunk";
}

export interface AnalyzeDocumentRequest__Output {
  'header'?: (_docverify_sidecar_v1_DocumentHeader__Output | null);
  /**
   * Any size up to the server's message limit; 64 KiB is a good choice.
   */
  'chunk'?: (Buffer);
  'part'?: "header"|"chunk";
}
