// A ceiling on mupdf's heap in a worker thread. Bun (1.4.5) has no heap limit for a worker:
// `resourceLimits` is accepted and ignored, for Web and node:worker_threads workers alike (a
// worker told maxOldGenerationSizeMb: 64 grew to 1 GB of JS heap, and to 878 MB of WebAssembly
// memory, with no error), and `smol` only picks JavaScriptCore's smaller heap sizing. What a
// mupdf worker holds is mupdf's WebAssembly memory, which its allocator grows on demand up to
// 2 GiB and never shrinks. So the cap is put on that memory: mupdf's engine is instantiated
// here (Emscripten's `instantiateWasm` hook), and its memory refuses to grow past the cap. The
// allocator then fails, mupdf raises that as an error its caller catches, and the worker says
// so (`exceeded`) and is replaced rather than the process passing DOCVERIFY_MEMORY_LIMIT.
import { readFileSync } from "node:fs";
import { assetPath } from "./assets.ts";

type EmscriptenOptions = {
  instantiateWasm?: (
    imports: ConstructorParameters<typeof WebAssembly.Instance>[1],
    done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ) => object;
};

export interface MupdfMemoryCap {
  readonly maxBytes: number;
  /** Whether mupdf asked for more than the cap since the last `reset`. */
  exceeded(): boolean;
  reset(): void;
  /** mupdf's WebAssembly memory now: what it grew to, for it never shrinks. */
  heapBytes(): number;
}

const WASM_PAGE = 65_536;

/** The worker argument that carries the cap in bytes, from the thread that starts the worker. */
const MUPDF_HEAP_ARG = "--mupdf-heap-bytes";

/** The `argv` of a Worker whose mupdf heap is capped at `maxBytes` (none: mupdf's own 2 GiB). */
export const mupdfHeapArgv = (maxBytes: number | undefined): string[] =>
  maxBytes === undefined ? [] : [MUPDF_HEAP_ARG, String(Math.floor(maxBytes))];

/** In a worker: the cap its starter asked for (mupdfHeapArgv), put in place; undefined when none was. */
export function capMupdfMemoryFromArgv(): MupdfMemoryCap | undefined {
  const at = Bun.argv.indexOf(MUPDF_HEAP_ARG);
  return at < 0 ? undefined : capMupdfMemory(Number(Bun.argv[at + 1]));
}

/** Must run after prepareRuntime (which sets the options this adds to) and before mupdf is first imported in this thread. */
function capMupdfMemory(maxBytes: number): MupdfMemoryCap {
  const options = ((globalThis as Record<string, unknown>).$libmupdf_wasm_Module ?? {}) as EmscriptenOptions;
  let exceeded = false;
  let heap: WebAssembly.Memory | undefined;
  options.instantiateWasm = (imports, done) => {
    // The file prepareRuntime points mupdf at: node:fs reads it from the compiled binary too.
    const module = new WebAssembly.Module(readFileSync(assetPath("mupdf/mupdf-wasm.wasm")));
    const instance = new WebAssembly.Instance(module, imports);
    const memory = Object.values(instance.exports).find((value) => value instanceof WebAssembly.Memory);
    if (memory) {
      heap = memory;
      const grow = memory.grow.bind(memory);
      // Emscripten's heap growth catches what grow throws and reports failure to malloc.
      memory.grow = (pages: number) => {
        if (memory.buffer.byteLength + pages * WASM_PAGE > maxBytes) {
          exceeded = true;
          throw new RangeError(`mupdf's memory is capped at ${maxBytes} bytes`);
        }
        return grow(pages);
      };
    }
    done(instance, module);
    return {};
  };
  (globalThis as Record<string, unknown>).$libmupdf_wasm_Module = options;
  return {
    maxBytes,
    exceeded: () => exceeded,
    reset: () => {
      exceeded = false;
    },
    heapBytes: () => heap?.buffer.byteLength ?? 0,
  };
}
