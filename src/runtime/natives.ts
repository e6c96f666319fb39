/**
 * Native libraries inside the compiled binary. dlopen() needs real files, and each library finds
 * its dependencies through its RPATH, so the embedded natives are written once per build to a
 * cache directory with their node_modules layout. The loaders of sharp and onnxruntime-node are
 * rewritten at bundle time (bundle-plugin.ts) to load through requireNative().
 */
import { lstatSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { NATIVE_GROUP } from "./catalog.ts";
import type { Embedded } from "./embedded.ts";

interface NativeFile {
  /** Path relative to node_modules, which is also its path in the cache directory. */
  rel: string;
  embeddedPath: string;
  size: number;
}

let nativesDir: string | undefined;

export async function extractNatives(build: Embedded): Promise<void> {
  const prefix = `${NATIVE_GROUP}/`;
  const files: NativeFile[] = Object.entries(build.files)
    .filter(([name]) => name.startsWith(prefix))
    .map(([name, embeddedPath]) => ({
      rel: name.slice(prefix.length),
      embeddedPath,
      size: Bun.file(embeddedPath).size,
    }));
  const failures: string[] = [];
  for (const base of cacheBases()) {
    try {
      const dir = join(privateDir(base), `natives-${build.nativesId}`);
      if (!isComplete(dir, files)) await extractInto(dir, files);
      nativesDir = dir;
      return;
    } catch (error) {
      failures.push(`${base}: ${(error as Error).message}`);
    }
  }
  throw new Error(`cannot extract the native libraries (${failures.join("; ")})`);
}

/**
 * The folder the binary extracted its natives to, laid out as node_modules (so onnxruntime's
 * libraries are under onnxruntime-node/bin/...); null from source or before extraction.
 */
export function extractedNativesDir(): string | null {
  return nativesDir ?? null;
}

/**
 * Called by the rewritten loaders inside the binary with the module's node_modules path. They
 * reach it by name through `require()` (bundle-plugin.ts), which no import shows: hence @public,
 * which keeps `npm run deadcode` from calling the export unused.
 * @public
 */
export function requireNative(rel: string): unknown {
  if (!nativesDir) throw new Error("prepareRuntime() must run before sharp or onnxruntime-node is imported");
  const module = { exports: {} };
  process.dlopen(module, join(nativesDir, rel));
  return module.exports;
}

/**
 * The user's cache first: home directories are rarely mounted noexec, while /tmp often is on
 * hardened servers, and dlopen() refuses files on a noexec mount. The temp dir is the fallback
 * for accounts without a writable home. XDG_CACHE_HOME is read here, not in config.ts, because
 * this runs before configuration is parsed.
 */
function cacheBases(): string[] {
  const xdg = process.env.XDG_CACHE_HOME;
  const cache = xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".cache");
  return [join(cache, "docverify"), join(tmpdir(), `docverify-${process.getuid?.() ?? "user"}`)];
}

/** Libraries we dlopen must not be replaceable by another user: refuse a shared or foreign dir. */
function privateDir(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const stat = lstatSync(path);
  // POSIX owners and modes; Windows has neither in this form (nor getuid).
  const shared = process.getuid !== undefined && (stat.uid !== process.getuid() || (stat.mode & 0o022) !== 0);
  if (!stat.isDirectory() || shared) throw new Error("not a private directory");
  return path;
}

function isComplete(dir: string, files: NativeFile[]): boolean {
  return files.every((file) => statSync(join(dir, file.rel), { throwIfNoEntry: false })?.size === file.size);
}

/**
 * Written to a private temp dir and renamed into place: a directory rename is atomic, so two
 * processes starting at once never see half a library, and the loser of the race uses the
 * winner's copy. Nothing is deleted unless it was found damaged: a process that deleted what it
 * had just seen missing could remove the copy another had renamed in meanwhile and was loading
 * (two copies starting on an empty cache, test/e2e/binary.test.ts, once failed so). A damaged
 * copy (an interrupted cleanup, a deleted file) is renamed aside and removed there, never at the
 * shared path.
 */
async function extractInto(dir: string, files: NativeFile[]): Promise<void> {
  const staging = `${dir}.${process.pid}-${crypto.randomUUID()}`;
  const damaged = `${staging}.damaged`;
  try {
    for (const file of files) {
      const target = join(staging, file.rel);
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      await Bun.write(target, Bun.file(file.embeddedPath));
    }
    if (moveInto(staging, dir) || isComplete(dir, files)) return;
    moveInto(dir, damaged);
    if (!moveInto(staging, dir) && !isComplete(dir, files)) throw new Error(`cannot replace ${dir}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(damaged, { recursive: true, force: true });
  }
}

/**
 * Renames `from` to `to`; false where `to` is already a directory with something in it, or where
 * `from` is gone (another process moved a damaged copy aside first).
 */
function moveInto(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOENT") return false;
    throw error;
  }
}
