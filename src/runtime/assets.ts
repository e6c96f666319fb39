/**
 * How code reaches the files of src/runtime/catalog.ts (protos, mupdf's engine): by catalog
 * name, the same from source and from the compiled binary.
 */
import { join, resolve } from "node:path";
import { findInCatalog } from "./catalog.ts";
import { embedded } from "./embedded.ts";

/** This file is src/runtime/assets.ts; catalog paths are relative to the repository root. */
const REPO_ROOT = resolve(import.meta.dir, "../..");
const HOST = { platform: process.platform, arch: process.arch };

/**
 * A path `Bun.file()` and `node:fs` read. Inside the binary it points into the executable, so
 * native code (onnxruntime, dlopen) cannot open it: hand such code the bytes of `Bun.file()`.
 */
export function assetPath(name: string): string {
  if (embedded) {
    const path = embedded.files[name];
    if (path === undefined) throw new Error(`asset not embedded in this build: ${name}`);
    return path;
  }
  const found = findInCatalog(name, HOST);
  if (!found) throw new Error(`asset not in src/runtime/catalog.ts, so a build would not carry it: ${name}`);
  return join(REPO_ROOT, found.group.dir, found.rel);
}

/** @grpc/proto-loader reads the file through node:fs, which reaches embedded files. */
export function protoPath(file: string): string {
  return assetPath(`proto/${file}`);
}
