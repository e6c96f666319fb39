/**
 * Start-up of the runtime: src/main.ts awaits prepareRuntime() before it imports anything that
 * loads sharp, onnxruntime-node or mupdf, because those load their native code or WebAssembly as
 * they are imported.
 */
import { assetPath } from "./assets.ts";
import { embedded } from "./embedded.ts";
import { extractNatives } from "./natives.ts";

export async function prepareRuntime(): Promise<void> {
  if (embedded) await extractNatives(embedded);
  // mupdf.js instantiates its engine as it is imported, asking mupdf-wasm.js, which looks for
  // mupdf-wasm.wasm beside itself unless this Emscripten options global says where it is.
  const wasm = assetPath("mupdf/mupdf-wasm.wasm");
  (globalThis as Record<string, unknown>).$libmupdf_wasm_Module = { locateFile: () => wasm };
}
