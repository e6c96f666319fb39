// Runs the structure and metadata detectors off the API's event loop. mupdf is synchronous
// WebAssembly and the DCT statistics are plain loops: on the main thread one large or hostile
// document would stall every request, health checks included.
//
// In the compiled binary this file is an entry point of the build (scripts/build.ts).
import { prepareRuntime } from "../../runtime/index.ts";
import type { WorkerReply, WorkerRequest } from "./protocol.ts";

declare const self: Worker;

await prepareRuntime();
const { inspectDocument } = await import("../analyze.ts");
const { DEFAULT_LIMITS } = await import("../detector.ts");
const { isAppError } = await import("../../errors.ts");
const { assertDecodablePdf } = await import("../../intake/validate-pdf.ts");

const reply = (message: WorkerReply) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const { id, task, document } = event.data;
  try {
    if (task === "validate") {
      assertDecodablePdf(document.bytes);
      return reply({ type: "valid", id });
    }
    reply({ type: "done", id, inspection: await inspectDocument(document, DEFAULT_LIMITS, Date.now) });
  } catch (error) {
    // Only a document nested deeper than the parsers' stack can follow overflows it: that is
    // the document's fault, not the service's.
    const tooDeep = error instanceof RangeError && /call stack/i.test(error.message);
    const typed = isAppError(error)
      ? { code: error.code, message: error.message }
      : tooDeep
        ? { code: "UNSUPPORTED_FORMAT" as const, message: "The document nests deeper than the analysis can follow" }
        : null;
    reply({ type: "failed", id, error: typed });
  }
};

reply({ type: "ready" });
