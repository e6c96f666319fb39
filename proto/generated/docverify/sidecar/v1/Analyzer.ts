// Original file: docverify/sidecar/v1/analyzer.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AnalyzeDocumentRequest as _docverify_sidecar_v1_AnalyzeDocumentRequest, AnalyzeDocumentRequest__Output as _docverify_sidecar_v1_AnalyzeDocumentRequest__Output } from '../../../docverify/sidecar/v1/AnalyzeDocumentRequest';
import type { AnalyzeDocumentResponse as _docverify_sidecar_v1_AnalyzeDocumentResponse, AnalyzeDocumentResponse__Output as _docverify_sidecar_v1_AnalyzeDocumentResponse__Output } from '../../../docverify/sidecar/v1/AnalyzeDocumentResponse';

export interface AnalyzerClient extends grpc.Client {
  /**
   * The client sends one header, then the document's bytes as chunks, then half-closes.
   * The answer covers at most the first `pages_limit` pages (see AnalyzeDocumentResponse).
   */
  AnalyzeDocument(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_docverify_sidecar_v1_AnalyzeDocumentResponse__Output>): grpc.ClientWritableStream<_docverify_sidecar_v1_AnalyzeDocumentRequest>;
  AnalyzeDocument(metadata: grpc.Metadata, callback: grpc.requestCallback<_docverify_sidecar_v1_AnalyzeDocumentResponse__Output>): grpc.ClientWritableStream<_docverify_sidecar_v1_AnalyzeDocumentRequest>;
  AnalyzeDocument(options: grpc.CallOptions, callback: grpc.requestCallback<_docverify_sidecar_v1_AnalyzeDocumentResponse__Output>): grpc.ClientWritableStream<_docverify_sidecar_v1_AnalyzeDocumentRequest>;
  AnalyzeDocument(callback: grpc.requestCallback<_docverify_sidecar_v1_AnalyzeDocumentResponse__Output>): grpc.ClientWritableStream<_docverify_sidecar_v1_AnalyzeDocumentRequest>;
  /**
   * The client sends one header, then the document's bytes as chunks, then half-closes.
   * The answer covers at most the first `pages_limit` pages (see AnalyzeDocumentResponse).
   */
  analyzeDocument(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_docverify_sidecar_v1_AnalyzeDocumentResponse__Output>): grpc.ClientWritableStream<_docverify_sidecar_v1_AnalyzeDocumentRequest>;
  analyzeDocument(metadata: grpc.Metadata, callback: grpc.requestCallback<_docverify_sidecar_v1_AnalyzeDocumentResponse__Output>): grpc.ClientWritableStream<_docverify_sidecar_v1_AnalyzeDocumentRequest>;
  analyzeDocument(options: grpc.CallOptions, callback: grpc.requestCallback<_docverify_sidecar_v1_AnalyzeDocumentResponse__Output>): grpc.ClientWritableStream<_docverify_sidecar_v1_AnalyzeDocumentRequest>;
  analyzeDocument(callback: grpc.requestCallback<_docverify_sidecar_v1_AnalyzeDocumentResponse__Output>): grpc.ClientWritableStream<_docverify_sidecar_v1_AnalyzeDocumentRequest>;
  
}

export interface AnalyzerHandlers extends grpc.UntypedServiceImplementation {
  /**
   * The client sends one header, then the document's bytes as chunks, then half-closes.
   * The answer covers at most the first `pages_limit` pages (see AnalyzeDocumentResponse).
   */
  AnalyzeDocument: grpc.handleClientStreamingCall<_docverify_sidecar_v1_AnalyzeDocumentRequest__Output, _docverify_sidecar_v1_AnalyzeDocumentResponse>;
  
}

export interface AnalyzerDefinition extends grpc.ServiceDefinition {
  AnalyzeDocument: MethodDefinition<_docverify_sidecar_v1_AnalyzeDocumentRequest, _docverify_sidecar_v1_AnalyzeDocumentResponse, _docverify_sidecar_v1_AnalyzeDocumentRequest__Output, _docverify_sidecar_v1_AnalyzeDocumentResponse__Output>
}
