// Messages between the sidecar and its PDF render worker (render-worker.ts).

export interface RenderSettings {
  maxPages: number;
  pdfDpi: number;
  maxPagePixels: number;
  maxPageSide: number;
}

export type RenderRequest =
  | { type: "open"; bytes: Uint8Array; settings: RenderSettings }
  | { type: "render"; index: number }
  | { type: "close" };

export type RenderReply =
  | { type: "ready" }
  | { type: "opened"; pageCount: number }
  | {
      type: "page";
      index: number;
      /** RGB, row-major, no padding; its buffer is transferred. */
      rgb: Uint8Array;
      width: number;
      height: number;
      /** Page size in points (1/72 in). */
      widthPt: number;
      heightPt: number;
      /** Pixels per point. */
      scale: number;
    }
  /** `heapBytes`: mupdf's WebAssembly memory now, when it is capped (it never shrinks). */
  | { type: "closed"; heapBytes?: number }
  /**
   * The document's fault (not a readable PDF, a page that fails): never the worker's.
   * `overMemory`: mupdf needed more than the worker's capped heap; the worker is to be replaced.
   */
  | { type: "refused"; message: string; overMemory?: boolean };
