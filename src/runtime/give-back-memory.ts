// Hands freed memory back to the system once a process (the API, a sidecar) has no document
// in flight. A document's buffers are JavaScript ArrayBuffers (freed only when the collector runs, which an idle
// process may not do for a long time) and native allocations of libvips and ONNX Runtime
// (freed into glibc's heaps, which keep the pages resident until they are trimmed): measured,
// a sidecar that had analysed a 13-megapixel page sat 350 MB above its idle size without this.
import { dlopen, FFIType } from "bun:ffi";

type Trim = () => void;

let trim: Trim | null | undefined;

function loadTrim(): Trim | null {
  try {
    const libc = dlopen("libc.so.6", { malloc_trim: { args: [FFIType.u64], returns: FFIType.i32 } });
    return () => void libc.symbols.malloc_trim(0);
  } catch {
    return null; // not glibc (musl, macOS): the collector's part still runs
  }
}

/**
 * Collects garbage and trims the heaps now; resolves once the trim is done, and with it what the
 * collected objects held is back with the system (or free to the next allocation).
 */
export function giveBackMemory(): Promise<void> {
  Bun.gc(true);
  // Native memory that collected objects own (sharp's buffers, ONNX Runtime's tensors) is freed
  // by their finalizers, which Bun runs on a later turn of the event loop than the collection:
  // a trim straight after it left a sidecar about 37 MB above its idle size.
  return new Promise((resolve) =>
    setImmediate(() => {
      trim ??= loadTrim();
      trim?.();
      resolve();
    }),
  );
}

/**
 * How long a process must stay without a document in flight before it collects: a full
 * collection stops the thread, so a steady stream of documents, one after another, must not
 * pay for one after each; only a pause does.
 */
const IDLE_MS = 250;

/**
 * Counts a process's documents in flight: `enter()` as one starts, and the function it returns
 * as it ends. Once the last is done and none has started for IDLE_MS, memory is given back;
 * `freed()` says more was let go outside a document (an idle worker ended), to give back too
 * once nothing is in flight.
 */
export function memoryGivenBackWhenIdle(): { enter(): () => void; freed(): void } {
  let inFlight = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if (inFlight > 0) return;
    clearTimeout(timer);
    timer = setTimeout(() => void giveBackMemory(), IDLE_MS);
    timer.unref?.();
  };
  return {
    enter() {
      inFlight++;
      clearTimeout(timer);
      return () => {
        inFlight--;
        schedule();
      };
    },
    freed: schedule,
  };
}
