import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Alternative as _docverify_sidecar_v1_Alternative, Alternative__Output as _docverify_sidecar_v1_Alternative__Output } from './docverify/sidecar/v1/Alternative';
import type { AnalyzeDocumentRequest as _docverify_sidecar_v1_AnalyzeDocumentRequest, AnalyzeDocumentRequest__Output as _docverify_sidecar_v1_AnalyzeDocumentRequest__Output } from './docverify/sidecar/v1/AnalyzeDocumentRequest';
import type { AnalyzeDocumentResponse as _docverify_sidecar_v1_AnalyzeDocumentResponse, AnalyzeDocumentResponse__Output as _docverify_sidecar_v1_AnalyzeDocumentResponse__Output } from './docverify/sidecar/v1/AnalyzeDocumentResponse';
import type { AnalyzerClient as _docverify_sidecar_v1_AnalyzerClient, AnalyzerDefinition as _docverify_sidecar_v1_AnalyzerDefinition } from './docverify/sidecar/v1/Analyzer';
import type { Box as _docverify_sidecar_v1_Box, Box__Output as _docverify_sidecar_v1_Box__Output } from './docverify/sidecar/v1/Box';
import type { CharacterReading as _docverify_sidecar_v1_CharacterReading, CharacterReading__Output as _docverify_sidecar_v1_CharacterReading__Output } from './docverify/sidecar/v1/CharacterReading';
import type { CopyMove as _docverify_sidecar_v1_CopyMove, CopyMove__Output as _docverify_sidecar_v1_CopyMove__Output } from './docverify/sidecar/v1/CopyMove';
import type { CopyMoveMeasures as _docverify_sidecar_v1_CopyMoveMeasures, CopyMoveMeasures__Output as _docverify_sidecar_v1_CopyMoveMeasures__Output } from './docverify/sidecar/v1/CopyMoveMeasures';
import type { DocumentHeader as _docverify_sidecar_v1_DocumentHeader, DocumentHeader__Output as _docverify_sidecar_v1_DocumentHeader__Output } from './docverify/sidecar/v1/DocumentHeader';
import type { DoubleQuantMeasures as _docverify_sidecar_v1_DoubleQuantMeasures, DoubleQuantMeasures__Output as _docverify_sidecar_v1_DoubleQuantMeasures__Output } from './docverify/sidecar/v1/DoubleQuantMeasures';
import type { Fact as _docverify_sidecar_v1_Fact, Fact__Output as _docverify_sidecar_v1_Fact__Output } from './docverify/sidecar/v1/Fact';
import type { ForensicRegion as _docverify_sidecar_v1_ForensicRegion, ForensicRegion__Output as _docverify_sidecar_v1_ForensicRegion__Output } from './docverify/sidecar/v1/ForensicRegion';
import type { ForensicTrace as _docverify_sidecar_v1_ForensicTrace, ForensicTrace__Output as _docverify_sidecar_v1_ForensicTrace__Output } from './docverify/sidecar/v1/ForensicTrace';
import type { GreyDocumentMeasures as _docverify_sidecar_v1_GreyDocumentMeasures, GreyDocumentMeasures__Output as _docverify_sidecar_v1_GreyDocumentMeasures__Output } from './docverify/sidecar/v1/GreyDocumentMeasures';
import type { Heatmap as _docverify_sidecar_v1_Heatmap, Heatmap__Output as _docverify_sidecar_v1_Heatmap__Output } from './docverify/sidecar/v1/Heatmap';
import type { ImageFacts as _docverify_sidecar_v1_ImageFacts, ImageFacts__Output as _docverify_sidecar_v1_ImageFacts__Output } from './docverify/sidecar/v1/ImageFacts';
import type { LineTraceScores as _docverify_sidecar_v1_LineTraceScores, LineTraceScores__Output as _docverify_sidecar_v1_LineTraceScores__Output } from './docverify/sidecar/v1/LineTraceScores';
import type { OcrLine as _docverify_sidecar_v1_OcrLine, OcrLine__Output as _docverify_sidecar_v1_OcrLine__Output } from './docverify/sidecar/v1/OcrLine';
import type { Page as _docverify_sidecar_v1_Page, Page__Output as _docverify_sidecar_v1_Page__Output } from './docverify/sidecar/v1/Page';
import type { Point as _docverify_sidecar_v1_Point, Point__Output as _docverify_sidecar_v1_Point__Output } from './docverify/sidecar/v1/Point';
import type { PortraitMeasures as _docverify_sidecar_v1_PortraitMeasures, PortraitMeasures__Output as _docverify_sidecar_v1_PortraitMeasures__Output } from './docverify/sidecar/v1/PortraitMeasures';
import type { RecaptureMeasures as _docverify_sidecar_v1_RecaptureMeasures, RecaptureMeasures__Output as _docverify_sidecar_v1_RecaptureMeasures__Output } from './docverify/sidecar/v1/RecaptureMeasures';
import type { ResidualMeasures as _docverify_sidecar_v1_ResidualMeasures, ResidualMeasures__Output as _docverify_sidecar_v1_ResidualMeasures__Output } from './docverify/sidecar/v1/ResidualMeasures';
import type { SingleCompressedArea as _docverify_sidecar_v1_SingleCompressedArea, SingleCompressedArea__Output as _docverify_sidecar_v1_SingleCompressedArea__Output } from './docverify/sidecar/v1/SingleCompressedArea';
import type { TamperLocalisation as _docverify_sidecar_v1_TamperLocalisation, TamperLocalisation__Output as _docverify_sidecar_v1_TamperLocalisation__Output } from './docverify/sidecar/v1/TamperLocalisation';
import type { TraceScore as _docverify_sidecar_v1_TraceScore, TraceScore__Output as _docverify_sidecar_v1_TraceScore__Output } from './docverify/sidecar/v1/TraceScore';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  docverify: {
    sidecar: {
      v1: {
        Alternative: MessageTypeDefinition<_docverify_sidecar_v1_Alternative, _docverify_sidecar_v1_Alternative__Output>
        AnalyzeDocumentRequest: MessageTypeDefinition<_docverify_sidecar_v1_AnalyzeDocumentRequest, _docverify_sidecar_v1_AnalyzeDocumentRequest__Output>
        AnalyzeDocumentResponse: MessageTypeDefinition<_docverify_sidecar_v1_AnalyzeDocumentResponse, _docverify_sidecar_v1_AnalyzeDocumentResponse__Output>
        Analyzer: SubtypeConstructor<typeof grpc.Client, _docverify_sidecar_v1_AnalyzerClient> & { service: _docverify_sidecar_v1_AnalyzerDefinition }
        Box: MessageTypeDefinition<_docverify_sidecar_v1_Box, _docverify_sidecar_v1_Box__Output>
        CharacterReading: MessageTypeDefinition<_docverify_sidecar_v1_CharacterReading, _docverify_sidecar_v1_CharacterReading__Output>
        CopyMove: MessageTypeDefinition<_docverify_sidecar_v1_CopyMove, _docverify_sidecar_v1_CopyMove__Output>
        CopyMoveMeasures: MessageTypeDefinition<_docverify_sidecar_v1_CopyMoveMeasures, _docverify_sidecar_v1_CopyMoveMeasures__Output>
        DocumentFormat: EnumTypeDefinition
        DocumentHeader: MessageTypeDefinition<_docverify_sidecar_v1_DocumentHeader, _docverify_sidecar_v1_DocumentHeader__Output>
        DoubleQuantMeasures: MessageTypeDefinition<_docverify_sidecar_v1_DoubleQuantMeasures, _docverify_sidecar_v1_DoubleQuantMeasures__Output>
        Fact: MessageTypeDefinition<_docverify_sidecar_v1_Fact, _docverify_sidecar_v1_Fact__Output>
        ForensicRegion: MessageTypeDefinition<_docverify_sidecar_v1_ForensicRegion, _docverify_sidecar_v1_ForensicRegion__Output>
        ForensicTrace: MessageTypeDefinition<_docverify_sidecar_v1_ForensicTrace, _docverify_sidecar_v1_ForensicTrace__Output>
        GreyDocumentMeasures: MessageTypeDefinition<_docverify_sidecar_v1_GreyDocumentMeasures, _docverify_sidecar_v1_GreyDocumentMeasures__Output>
        Heatmap: MessageTypeDefinition<_docverify_sidecar_v1_Heatmap, _docverify_sidecar_v1_Heatmap__Output>
        ImageFacts: MessageTypeDefinition<_docverify_sidecar_v1_ImageFacts, _docverify_sidecar_v1_ImageFacts__Output>
        LineTraceScores: MessageTypeDefinition<_docverify_sidecar_v1_LineTraceScores, _docverify_sidecar_v1_LineTraceScores__Output>
        OcrLine: MessageTypeDefinition<_docverify_sidecar_v1_OcrLine, _docverify_sidecar_v1_OcrLine__Output>
        Page: MessageTypeDefinition<_docverify_sidecar_v1_Page, _docverify_sidecar_v1_Page__Output>
        Point: MessageTypeDefinition<_docverify_sidecar_v1_Point, _docverify_sidecar_v1_Point__Output>
        PortraitMeasures: MessageTypeDefinition<_docverify_sidecar_v1_PortraitMeasures, _docverify_sidecar_v1_PortraitMeasures__Output>
        RecaptureMeasures: MessageTypeDefinition<_docverify_sidecar_v1_RecaptureMeasures, _docverify_sidecar_v1_RecaptureMeasures__Output>
        ResidualMeasures: MessageTypeDefinition<_docverify_sidecar_v1_ResidualMeasures, _docverify_sidecar_v1_ResidualMeasures__Output>
        SingleCompressedArea: MessageTypeDefinition<_docverify_sidecar_v1_SingleCompressedArea, _docverify_sidecar_v1_SingleCompressedArea__Output>
        TamperLocalisation: MessageTypeDefinition<_docverify_sidecar_v1_TamperLocalisation, _docverify_sidecar_v1_TamperLocalisation__Output>
        TraceScore: MessageTypeDefinition<_docverify_sidecar_v1_TraceScore, _docverify_sidecar_v1_TraceScore__Output>
      }
    }
  }
}

