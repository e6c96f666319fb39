// Runs the structure and metadata detectors off the API's event loop. mupdf is synchronous
// WebAssembly and the DCT statistics are plain loops: on the main thread one large or hostile
// document would stall every request, health checks included.
//
// In the compiled binary this file is an entry point of the build (scripts/build.ts).
import { prepareRuntime } from "../../runtime/index.ts";
import { capMupdfMemoryFromArgv } from "../../runtime/mupdf-memory-cap.ts";
import type { WorkerReply, WorkerRequest } from "./protocol.ts";

declare const self: Worker;

await prepareRuntime();
// Before mupdf is first imported: its heap is capped from the start (the pool says how much).
const cap = capMupdfMemoryFromArgv();
const { inspectDocument } = await import("../analyze.ts");
const { DEFAULT_LIMITS } = await import("../detector.ts");
const { isAppError } = await import("../../errors.ts");
const { assertDecodablePdf } = await import("../../intake/validate-pdf.ts");

const reply = (message: WorkerReply) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const { id, task, document } = event.data;
  cap?.reset();
  try {
    if (task === "validate") {
      assertDecodablePdf(document.bytes);
      return reply({ type: "valid", id });
    }
    const inspection = await inspectDocument(document, DEFAULT_LIMITS, Date.now);
    // A detector that caught mupdf's failed allocation would pass off a partial inspection as
    // whole.
    if (cap?.exceeded()) return reply(overHeap(id));
    reply({ type: "done", id, inspection });
  } catch (error) {
    if (cap?.exceeded()) return reply(overHeap(id));
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

/**
 * mupdf asked for more than its cap: the document is refused, and this worker replaced (its heap
 * may be left damaged).
 */
function overHeap(id: number): WorkerReply {
  const mib = Math.round((cap?.maxBytes ?? 0) / 1_048_576);
  return {
    type: "failed",
    id,
    retire: true,
    error: {
      code: "FILE_TOO_LARGE",
      message: `The PDF needs more than the ${mib} MiB of memory each analysis worker may use (its share of DOCVERIFY_MEMORY_LIMIT)`,
    },
  };
}

reply({ type: "ready" });
