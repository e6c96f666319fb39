#!/usr/bin/env bun
// Entry point. The runtime is prepared before anything that loads native code or
// WebAssembly (sharp, onnxruntime-node, mupdf) is imported, hence the dynamic import.
import { prepareRuntime } from "./runtime/index.ts";

await prepareRuntime();
const { run } = await import("./cli/run.ts");
process.exitCode = await run(process.argv.slice(2), process.env);
