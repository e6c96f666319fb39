// Renders PDF pages with mupdf in a worker thread. mupdf is WebAssembly and runs synchronously:
// on the sidecar's own thread a hostile page would stall every request and the health checks,
// and nothing could interrupt it. Here the sidecar can terminate a render that overruns its
// budget, and mupdf's heap (at most 2 GB of WebAssembly memory) goes away with the worker.
//
// In the compiled binary this file is a second entry point of the build (scripts/build.ts).
import { prepareRuntime } from "../../src/runtime/index.ts";
import type { RenderReply, RenderRequest, RenderSettings } from "./render-protocol.ts";
import { fitScale } from "./limits.ts";
import { packPixmap } from "../../src/pdf/pack-pixmap.ts";

declare const self: Worker;

await prepareRuntime();
const { mupdf } = await import("../../src/pdf/mupdf.ts");

let open: { document: InstanceType<typeof mupdf.Document>; settings: RenderSettings } | null = null;

const reply = (message: RenderReply, transfer: ArrayBuffer[] = []) => self.postMessage(message, transfer);
/** Answers a refusal; callers return right after it. */
const refuse = (message: string) => reply({ type: "refused", message });

function openDocument(bytes: Uint8Array, settings: RenderSettings): void {
  closeDocument();
  let document: InstanceType<typeof mupdf.Document>;
  try {
    document = mupdf.Document.openDocument(bytes, "application/pdf");
  } catch {
    refuse("the PDF could not be parsed");
    return;
  }
  open = { document, settings };
  if (!document.isPDF()) {
    refuse("the document is not a PDF");
    return;
  }
  if (document.needsPassword()) {
    refuse("the PDF is password-protected");
    return;
  }
  let pageCount: number;
  try {
    pageCount = document.countPages();
  } catch {
    refuse("the PDF's page tree could not be read");
    return;
  }
  if (pageCount < 1) {
    refuse("the PDF has no pages");
    return;
  }
  reply({ type: "opened", pageCount });
}

function renderPage(index: number): void {
  if (!open) {
    refuse("no document is open");
    return;
  }
  const { document, settings } = open;
  let page: ReturnType<typeof document.loadPage> | undefined;
  let pixmap: InstanceType<typeof mupdf.Pixmap> | undefined;
  try {
    page = document.loadPage(index);
    const [x0, y0, x1, y1] = page.getBounds();
    const widthPt = x1 - x0;
    const heightPt = y1 - y0;
    if (!(widthPt > 0 && heightPt > 0)) {
      refuse(`page ${index + 1} has no area`);
      return;
    }
    const dpiScale = settings.pdfDpi / 72;
    // Scaled before rendering, so a huge MediaBox never allocates more than the page limit.
    const scale = dpiScale * fitScale(widthPt * dpiScale, heightPt * dpiScale, settings);
    pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false);
    const { data: rgb, width, height } = packPixmap(pixmap);
    reply({ type: "page", index, rgb, width, height, widthPt, heightPt, scale }, [rgb.buffer as ArrayBuffer]);
  } catch {
    // mupdf stops at its own bounds (nested graphics states, forms, arrays) and at damage alike.
    refuse(
      `page ${index + 1} of the PDF could not be drawn: its content is damaged, nests too deep or is larger than the renderer's limits`,
    );
  } finally {
    pixmap?.destroy();
    page?.destroy();
  }
}

function closeDocument(): void {
  open?.document.destroy();
  open = null;
}

self.onmessage = (event: MessageEvent<RenderRequest>) => {
  const request = event.data;
  if (request.type === "open") openDocument(request.bytes, request.settings);
  else if (request.type === "render") renderPage(request.index);
  else {
    closeDocument();
    reply({ type: "closed" });
  }
};

reply({ type: "ready" });
