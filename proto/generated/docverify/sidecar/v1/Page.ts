// Original file: docverify/sidecar/v1/analyzer.proto

import type { OcrLine as _docverify_sidecar_v1_OcrLine, OcrLine__Output as _docverify_sidecar_v1_OcrLine__Output } from '../../../docverify/sidecar/v1/OcrLine';
import type { ForensicRegion as _docverify_sidecar_v1_ForensicRegion, ForensicRegion__Output as _docverify_sidecar_v1_ForensicRegion__Output } from '../../../docverify/sidecar/v1/ForensicRegion';
import type { Heatmap as _docverify_sidecar_v1_Heatmap, Heatmap__Output as _docverify_sidecar_v1_Heatmap__Output } from '../../../docverify/sidecar/v1/Heatmap';
import type { ImageFacts as _docverify_sidecar_v1_ImageFacts, ImageFacts__Output as _docverify_sidecar_v1_ImageFacts__Output } from '../../../docverify/sidecar/v1/ImageFacts';
import type { LineTraceScores as _docverify_sidecar_v1_LineTraceScores, LineTraceScores__Output as _docverify_sidecar_v1_LineTraceScores__Output } from '../../../docverify/sidecar/v1/LineTraceScores';
import type { Fact as _docverify_sidecar_v1_Fact, Fact__Output as _docverify_sidecar_v1_Fact__Output } from '../../../docverify/sidecar/v1/Fact';
import type { ForensicTrace as _docverify_sidecar_v1_ForensicTrace, ForensicTrace__Output as _docverify_sidecar_v1_ForensicTrace__Output } from '../../../docverify/sidecar/v1/ForensicTrace';
import type { CopyMove as _docverify_sidecar_v1_CopyMove, CopyMove__Output as _docverify_sidecar_v1_CopyMove__Output } from '../../../docverify/sidecar/v1/CopyMove';
import type { SingleCompressedArea as _docverify_sidecar_v1_SingleCompressedArea, SingleCompressedArea__Output as _docverify_sidecar_v1_SingleCompressedArea__Output } from '../../../docverify/sidecar/v1/SingleCompressedArea';
import type { TamperLocalisation as _docverify_sidecar_v1_TamperLocalisation, TamperLocalisation__Output as _docverify_sidecar_v1_TamperLocalisation__Output } from '../../../docverify/sidecar/v1/TamperLocalisation';

export interface Page {
  /**
   * 0-based position in the document.
   */
  'index'?: (number);
  /**
   * The analysed pixels: every box, polygon and heatmap below is in this pixel space.
   */
  'width'?: (number);
  'height'?: (number);
  /**
   * Pixels per inch of the analysed pixels: the render resolution of a PDF page, the declared
   * density of an image (0 when the image declares none).
   */
  'dpi'?: (number | string);
  /**
   * Size before any downscaling: a PDF page in points (1/72 in), an image in pixels after EXIF
   * rotation.
   */
  'sourceWidth'?: (number | string);
  'sourceHeight'?: (number | string);
  /**
   * Analysed pixels per source unit (1 unless the page was downscaled to fit the pixel limits;
   * for PDFs, dpi / 72).
   */
  'scale'?: (number | string);
  'lines'?: (_docverify_sidecar_v1_OcrLine)[];
  'regions'?: (_docverify_sidecar_v1_ForensicRegion)[];
  'heatmap'?: (_docverify_sidecar_v1_Heatmap | null);
  'facts'?: (_docverify_sidecar_v1_ImageFacts | null);
  /**
   * Per OCR line, the pixel-trace scores measured inside its box.
   */
  'lineScores'?: (_docverify_sidecar_v1_LineTraceScores)[];
  /**
   * Measurements of the forensic analysis worth showing (e.g. an estimated JPEG quality).
   */
  'forensicFacts'?: (_docverify_sidecar_v1_Fact)[];
  /**
   * Every pixel trace the forensics measured, with how far it can be trusted on this page.
   */
  'traces'?: (_docverify_sidecar_v1_ForensicTrace)[];
  /**
   * Areas that are copies of other areas of the same page (cloned, not repeated text).
   */
  'copyMoves'?: (_docverify_sidecar_v1_CopyMove)[];
  /**
   * Areas away from text compressed once on a page compressed twice (pasted between the
   * saves), largest first.
   */
  'singleCompressedAreas'?: (_docverify_sidecar_v1_SingleCompressedArea)[];
  /**
   * The learnt tampered-region localiser's view of the page (absent from a sidecar without it).
   * Numbered apart from the fields above so that fields added beside it do not collide.
   */
  'localisation'?: (_docverify_sidecar_v1_TamperLocalisation | null);
}

export interface Page__Output {
  /**
   * 0-based position in the document.
   */
  'index': (number);
  /**
   * The analysed pixels: every box, polygon and heatmap below is in this pixel space.
   */
  'width': (number);
  'height': (number);
  /**
   * Pixels per inch of the analysed pixels: the render resolution of a PDF page, the declared
   * density of an image (0 when the image declares none).
   */
  'dpi': (number);
  /**
   * Size before any downscaling: a PDF page in points (1/72 in), an image in pixels after EXIF
   * rotation.
   */
  'sourceWidth': (number);
  'sourceHeight': (number);
  /**
   * Analysed pixels per source unit (1 unless the page was downscaled to fit the pixel limits;
   * for PDFs, dpi / 72).
   */
  'scale': (number);
  'lines': (_docverify_sidecar_v1_OcrLine__Output)[];
  'regions': (_docverify_sidecar_v1_ForensicRegion__Output)[];
  'heatmap': (_docverify_sidecar_v1_Heatmap__Output | null);
  'facts': (_docverify_sidecar_v1_ImageFacts__Output | null);
  /**
   * Per OCR line, the pixel-trace scores measured inside its box.
   */
  'lineScores': (_docverify_sidecar_v1_LineTraceScores__Output)[];
  /**
   * Measurements of the forensic analysis worth showing (e.g. an estimated JPEG quality).
   */
  'forensicFacts': (_docverify_sidecar_v1_Fact__Output)[];
  /**
   * Every pixel trace the forensics measured, with how far it can be trusted on this page.
   */
  'traces': (_docverify_sidecar_v1_ForensicTrace__Output)[];
  /**
   * Areas that are copies of other areas of the same page (cloned, not repeated text).
   */
  'copyMoves': (_docverify_sidecar_v1_CopyMove__Output)[];
  /**
   * Areas away from text compressed once on a page compressed twice (pasted between the
   * saves), largest first.
   */
  'singleCompressedAreas': (_docverify_sidecar_v1_SingleCompressedArea__Output)[];
  /**
   * The learnt tampered-region localiser's view of the page (absent from a sidecar without it).
   * Numbered apart from the fields above so that fields added beside it do not collide.
   */
  'localisation': (_docverify_sidecar_v1_TamperLocalisation__Output | null);
}
