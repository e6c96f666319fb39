// Renders PDF pages with mupdf in a worker thread. mupdf is WebAssembly and runs synchronously:
// on the sidecar's own thread a hostile page would stall every request and the health checks,
// and nothing could interrupt it. Here the sidecar can terminate a render that overruns its
// budget, and mupdf's heap goes away with the worker. That heap (WebAssembly memory, at most
// 2 GiB of mupdf's own) is capped at what the sidecar's memory plan sets aside for each worker
// (memory-budget.ts, src/runtime/mupdf-memory-cap.ts): a document that needs more is refused as
// over the limit.
//
// In the compiled binary this file is a second entry point of the build (scripts/build.ts).
import { prepareRuntime } from "../../src/runtime/index.ts";
import type { RenderReply, RenderRequest, RenderSettings } from "./render-protocol.ts";
import { fitScale } from "./limits.ts";
import { packPixmap } from "../../src/pdf/pack-pixmap.ts";
import { capMupdfMemoryFromArgv } from "../../src/runtime/mupdf-memory-cap.ts";

declare const self: Worker;

await prepareRuntime();
// Before mupdf is first imported: its heap is capped from the start (the renderer says how much).
const cap = capMupdfMemoryFromArgv();
const { mupdf } = await import("../../src/pdf/mupdf.ts");

let open: { document: InstanceType<typeof mupdf.Document>; settings: RenderSettings } | null = null;

const reply = (message: RenderReply, transfer: ArrayBuffer[] = []) => self.postMessage(message, transfer);
/** Answers a refusal; callers return right after it. */
const refuse = (message: string) => reply(cap?.exceeded() ? overMemory() : { type: "refused", message });
/**
 * mupdf asked for more than its cap: whatever it answered (mupdf carries on past some failures) is
 * not the document's whole.
 */
const overMemory = (): RenderReply => ({
  type: "refused",
  overMemory: true,
  message: `the PDF needs more than the ${Math.round((cap?.maxBytes ?? 0) / 1_048_576)} MiB of memory each render worker may use (its share of the memory limit)`,
});

function openDocument(bytes: Uint8Array, settings: RenderSettings): void {
  closeDocument();
  cap?.reset();
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
  reply(cap?.exceeded() ? overMemory() : { type: "opened", pageCount });
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
    if (cap?.exceeded()) {
      reply(overMemory());
      return;
    }
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
    reply({ type: "closed", heapBytes: cap?.heapBytes() });
  }
};

reply({ type: "ready" });
