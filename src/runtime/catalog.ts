/**
 * Files the compiled binary carries that code reaches by name at run time. One list serves both
 * sides: scripts/build.ts embeds exactly these files, and the asset API refuses names outside it
 * even from source, so a file that works from source but would be missing from the binary fails
 * in tests. Files with fixed names need no catalog: a static `with { type: "file" }` import
 * embeds them as well (the ONNX models in sidecar/models/index.ts, Swagger UI in src/api/docs.ts).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Files under `dir` (relative to the repository root) that code asks for as `name/<path>`. */
export interface AssetGroup {
  name: string;
  dir: string;
  patterns: string[];
  /** Every pattern must match a file, or the build fails instead of the binary. */
  required?: boolean;
}

export interface Platform {
  platform: NodeJS.Platform;
  arch: string;
}

/** The native libraries of one platform; extracted to disk at start, never read as assets. */
export const NATIVE_GROUP = "native";

function assetGroups(target: Platform): AssetGroup[] {
  return [
    // The sidecar's gRPC contract, read by @grpc/proto-loader at run time.
    { name: "proto", dir: "proto", patterns: ["**/*.proto"] },
    // mupdf's WebAssembly engine, which mupdf-wasm.js would otherwise look for beside itself.
    { name: "mupdf", dir: "node_modules/mupdf/dist", patterns: ["mupdf-wasm.wasm"], required: true },
    { name: NATIVE_GROUP, dir: "node_modules", patterns: nativePatterns(target), required: true },
  ];
}

/**
 * The N-API modules and the shared libraries they link, at their node_modules-relative paths:
 * extracting them with the same layout keeps their RPATHs valid (sharp's module finds libvips at
 * $ORIGIN/../../sharp-libvips-<platform>/lib, onnxruntime's binding finds libonnxruntime beside it).
 */
function nativePatterns({ platform, arch }: Platform): string[] {
  const sharpPlatform = `${platform === "linux" && isMusl() ? "linuxmusl" : platform}-${arch}`;
  return [
    `@img/sharp-${sharpPlatform}/lib/*.node`,
    `@img/sharp-libvips-${sharpPlatform}/lib/*.{so,so.*,dylib,dll}`,
    `onnxruntime-node/bin/napi-v6/${platform}/${arch}/*`,
  ];
}

let musl: boolean | undefined;

/** sharp publishes separate packages for musl; Node's report names the glibc only on glibc. */
function isMusl(): boolean {
  if (musl === undefined) {
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
    musl = !report?.header?.glibcVersionRuntime;
  }
  return musl;
}

export interface CatalogFile {
  /** How code asks for the file: `<group>/<path under the group's dir>`. */
  name: string;
  /** Absolute path of the file in the repository. */
  path: string;
}

/** Every file of every group as found in the repository at `root`, in a stable order. */
export function listCatalog(root: string, target: Platform): CatalogFile[] {
  const files: CatalogFile[] = [];
  for (const group of assetGroups(target)) {
    const dir = join(root, group.dir);
    const found = new Set<string>();
    for (const pattern of group.patterns) {
      const matches = existsSync(dir) ? [...new Bun.Glob(pattern).scanSync({ cwd: dir, onlyFiles: true })] : [];
      if (group.required && matches.length === 0)
        throw new Error(`no file matches ${group.dir}/${pattern}: is its package installed?`);
      for (const rel of matches) found.add(rel);
    }
    for (const rel of [...found].sort()) files.push({ name: `${group.name}/${rel}`, path: join(dir, rel) });
  }
  return files;
}

/** The group a name belongs to and the path inside it, if the catalog covers that name. */
export function findInCatalog(name: string, target: Platform): { group: AssetGroup; rel: string } | undefined {
  const slash = name.indexOf("/");
  const group = assetGroups(target).find((g) => g.name === name.slice(0, slash));
  const rel = name.slice(slash + 1);
  if (!group || slash < 0 || rel.split("/").includes("..")) return undefined;
  return group.patterns.some((p) => new Bun.Glob(p).match(rel)) ? { group, rel } : undefined;
}
