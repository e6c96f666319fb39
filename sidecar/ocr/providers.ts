// Which ONNX Runtime execution providers to ask for. Asking for CUDA when its provider
// library or the libraries it links against are missing kills the process natively
// (no catchable error), so CUDA is chosen only after checking both the GPU and the
// libraries on disk.
//
// ONNX Runtime loads its CUDA provider only from the folder its own libonnxruntime.so.1 was
// loaded from (it finds that folder with dladdr): node_modules from source, the folder the
// compiled binary extracted its natives to otherwise. The provider libraries get there either
// with the build (onnxruntime-node installed with cuda12, embedded by scripts/build.ts) or from
// a folder the operator names, which they are linked from before the first session loads them.
import { existsSync, lstatSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { InferenceSession } from "onnxruntime-node";
import { extractedNativesDir } from "../../src/runtime/natives.ts";

export type Device = "auto" | "cpu" | "cuda";

/** The operator's setting for a folder of CUDA provider libraries (src/config.ts parses it). */
const CUDA_LIB_DIR_SETTING = "DOCVERIFY_SIDECAR_CUDA_LIB_DIR";

/** What the machine offers; injected in tests, read from the system otherwise. */
export interface DeviceProbe {
  gpuPresent(): boolean;
  /** Folder holding ONNX Runtime's native library, or null when it cannot be located. */
  onnxRuntimeLibraryDir(): string | null;
  /** A regular file is at `path` (after following links). */
  isFile(path: string): boolean;
  /** `path` itself is a symbolic link. */
  isLink(path: string): boolean;
  /** Why a library at `path` must not be loaded (another user could replace it), or null. */
  untrustedReason(path: string): string | null;
  /** Library file names (e.g. "libcudart.so.12") the dynamic loader can find. */
  loadableLibraries(): Set<string>;
  /** Makes `path` a symbolic link to `target`, replacing a link already there. */
  link(target: string, path: string): void;
}

export interface ProviderOptions {
  /**
   * Folder with the CUDA provider libraries, used when ONNX Runtime's own folder lacks them
   * (CUDA_LIB_DIR_SETTING).
   */
  cudaLibDir?: string;
  /** Told, with `device` auto, why CUDA was not chosen. */
  onCpuFallback?(reason: string): void;
}

/** A device setting that cannot be honoured; `reason` is one line for the operator. */
export class ExecutionProviderError extends Error {
  readonly setting = "DOCVERIFY_SIDECAR_DEVICE";
  constructor(readonly reason: string) {
    super(`DOCVERIFY_SIDECAR_DEVICE: ${reason}`);
    this.name = "ExecutionProviderError";
  }
}

const CUDA_PROVIDER_FILES = ["libonnxruntime_providers_cuda.so", "libonnxruntime_providers_shared.so"];
// ONNX Runtime 1.2x/1.30 CUDA builds link CUDA 12 and cuDNN 9.
const CUDA_RUNTIME_LIBRARIES = [
  "libcudart.so.12",
  "libcublas.so.12",
  "libcublasLt.so.12",
  "libcufft.so.11",
  "libcudnn.so.9",
];

/**
 * Whether CUDA can be used, and which provider libraries must first be linked beside ONNX Runtime.
 */
export type CudaPlan = { usable: true; links: { target: string; path: string }[] } | { usable: false; reason: string };

export function planCuda(probe: DeviceProbe, options: Pick<ProviderOptions, "cudaLibDir"> = {}): CudaPlan {
  const refuse = (reason: string): CudaPlan => ({ usable: false, reason });
  if (!probe.gpuPresent()) return refuse("no NVIDIA GPU found (/dev/nvidia0, /proc/driver/nvidia)");
  const dir = probe.onnxRuntimeLibraryDir();
  if (!dir) return refuse("ONNX Runtime's native library folder was not found");

  // Regular files are the build's own; links are what an earlier start placed from the setting.
  const shipped = CUDA_PROVIDER_FILES.filter((file) => probe.isFile(join(dir, file)) && !probe.isLink(join(dir, file)));
  let links: { target: string; path: string }[] = [];
  if (shipped.length > 0 && shipped.length < CUDA_PROVIDER_FILES.length) {
    const missing = CUDA_PROVIDER_FILES.filter((file) => !shipped.includes(file));
    return refuse(`ONNX Runtime's CUDA provider is installed only in part in ${dir} (${missing.join(", ")} missing)`);
  }
  if (shipped.length === 0) {
    if (!options.cudaLibDir) {
      return refuse(
        `ONNX Runtime's CUDA provider is not installed (${CUDA_PROVIDER_FILES.join(", ")} missing in ${dir}; ${CUDA_LIB_DIR_SETTING} names a folder holding them)`,
      );
    }
    const from = resolve(options.cudaLibDir);
    const missing = CUDA_PROVIDER_FILES.filter((file) => !probe.isFile(join(from, file)));
    if (missing.length > 0) return refuse(`${CUDA_LIB_DIR_SETTING} ${from} lacks ${missing.join(", ")}`);
    for (const file of CUDA_PROVIDER_FILES) {
      const untrusted = probe.untrustedReason(join(from, file));
      if (untrusted) return refuse(`${CUDA_LIB_DIR_SETTING}: ${untrusted}`);
    }
    links = CUDA_PROVIDER_FILES.map((file) => ({ target: join(from, file), path: join(dir, file) }));
  }

  const loadable = probe.loadableLibraries();
  const missingRuntime = CUDA_RUNTIME_LIBRARIES.filter((name) => !loadable.has(name));
  if (missingRuntime.length > 0) return refuse(`CUDA libraries not found by the loader: ${missingRuntime.join(", ")}`);
  return { usable: true, links };
}

/** Why CUDA cannot be used after trying to put its provider in place, or null when it can. */
function prepareCuda(probe: DeviceProbe, options: ProviderOptions): string | null {
  const plan = planCuda(probe, options);
  if (!plan.usable) return plan.reason;
  try {
    for (const { target, path } of plan.links) probe.link(target, path);
  } catch (error) {
    return `cannot link the CUDA provider beside ONNX Runtime (${(error as Error).message})`;
  }
  return null;
}

export function chooseExecutionProviders(
  device: Device,
  options: ProviderOptions = {},
  probe: DeviceProbe = systemProbe(),
): string[] {
  if (device === "cpu") return ["cpu"];
  const reason = prepareCuda(probe, options);
  if (reason === null) return ["cuda", "cpu"];
  if (device === "cuda") throw new ExecutionProviderError(`cuda requested but ${reason}`);
  options.onCpuFallback?.(reason);
  return ["cpu"];
}

export interface ThreadOptions {
  intraOpThreads?: number;
  interOpThreads?: number;
}

export function sessionOptions(
  executionProviders: string[],
  threads: ThreadOptions = {},
): InferenceSession.SessionOptions {
  return {
    executionProviders,
    intraOpNumThreads: threads.intraOpThreads ?? availableParallelism(),
    interOpNumThreads: threads.interOpThreads ?? 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
    enableCpuMemArena: false,
    // ORT's pool threads spin while waiting for work by default. Detection and recognition
    // sessions run side by side under concurrent requests, next to sharp and the API process:
    // spinning threads then steal the cores the other session needs (measured on 2 cores:
    // about 1.9x slower per page with spinning than without).
    extra: { session: { intra_op: { allow_spinning: "0" }, inter_op: { allow_spinning: "0" } } },
  };
}

export function systemProbe(): DeviceProbe {
  return {
    gpuPresent: () => existsSync("/dev/nvidia0") || existsSync("/proc/driver/nvidia/gpus"),
    onnxRuntimeLibraryDir: () =>
      onnxRuntimeLibraryDir({ standalone: Bun.isStandaloneExecutable, extractedNativesDir: extractedNativesDir() }),
    isFile: (path) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false,
    isLink: (path) => lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false,
    untrustedReason,
    loadableLibraries,
    link,
  };
}

/** Where the running program keeps onnxruntime-node's natives. */
export interface RuntimeLayout {
  /** Running as the compiled binary (Bun.isStandaloneExecutable). */
  standalone: boolean;
  /** Where the binary extracted its natives, node_modules layout (src/runtime/natives.ts). */
  extractedNativesDir: string | null;
}

/**
 * Inside the compiled binary the package folder does not exist (require.resolve finds nothing,
 * or a path inside the executable): the natives ONNX Runtime was loaded from are in the
 * extraction folder, at their node_modules paths.
 */
export function onnxRuntimeLibraryDir(
  layout: RuntimeLayout,
  exists: (path: string) => boolean = existsSync,
): string | null {
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const inPackage = join("bin", "napi-v6", process.platform, arch);
  let dir: string | null;
  if (layout.standalone) {
    dir = layout.extractedNativesDir ? join(layout.extractedNativesDir, "onnxruntime-node", inPackage) : null;
  } else {
    try {
      dir = join(dirname(createRequire(import.meta.url).resolve("onnxruntime-node/package.json")), inPackage);
    } catch {
      dir = null;
    }
  }
  return dir && exists(dir) ? dir : null;
}

/**
 * Libraries dlopen()ed into the sidecar must not be replaceable by another user (as
 * src/runtime/natives.ts requires of its folder).
 */
function untrustedReason(path: string): string | null {
  for (const checked of [path, dirname(path)]) {
    const stat = statSync(checked, { throwIfNoEntry: false });
    if (!stat) return `${checked} does not exist`;
    if ((stat.mode & 0o022) !== 0) return `${checked} is writable by other users`;
    // POSIX owners; root-owned system folders are trusted.
    if (process.getuid !== undefined && stat.uid !== 0 && stat.uid !== process.getuid())
      return `${checked} belongs to another user`;
  }
  return null;
}

/**
 * Made under a temporary name and renamed over the old link: two sidecars starting at once never
 * see no link.
 */
function link(target: string, path: string): void {
  const staging = `${path}.${process.pid}-${crypto.randomUUID()}`;
  symlinkSync(target, staging);
  try {
    renameSync(staging, path);
  } catch (error) {
    rmSync(staging, { force: true });
    throw error;
  }
}

function loadableLibraries(): Set<string> {
  const names = new Set<string>();
  // The dynamic loader's own search path, read the way the loader reads it (not docverify
  // configuration).
  for (const dir of (process.env.LD_LIBRARY_PATH ?? "").split(":").filter(Boolean)) {
    try {
      for (const name of readdirSync(dir)) names.add(name);
    } catch {
      // An unreadable or missing entry in LD_LIBRARY_PATH offers no libraries.
    }
  }
  try {
    const cache = Bun.spawnSync(["ldconfig", "-p"], { stdout: "pipe", stderr: "ignore" });
    for (const line of cache.stdout.toString().split("\n")) {
      const name = /^\s*(\S+)\s/.exec(line)?.[1];
      if (name) names.add(name);
    }
  } catch {
    // No ldconfig (e.g. a minimal image): LD_LIBRARY_PATH alone decides.
  }
  return names;
}
