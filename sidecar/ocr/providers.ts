// Which ONNX Runtime execution providers to ask for. Asking for CUDA when its provider
// library or the libraries it links against are missing kills the process natively
// (no catchable error), so CUDA is chosen only after checking both the GPU and the
// libraries on disk.
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import type { InferenceSession } from "onnxruntime-node";

export type Device = "auto" | "cpu" | "cuda";

/** What the machine offers; injected in tests, read from the system otherwise. */
export interface DeviceProbe {
  gpuPresent(): boolean;
  /** Folder holding ONNX Runtime's native library, or null when it cannot be located. */
  onnxRuntimeLibraryDir(): string | null;
  fileExists(path: string): boolean;
  /** Library file names (e.g. "libcudart.so.12") the dynamic loader can find. */
  loadableLibraries(): Set<string>;
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
const CUDA_RUNTIME_LIBRARIES = ["libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcufft.so.11", "libcudnn.so.9"];

/** Why CUDA cannot be used, or null when it can. */
export function cudaUnavailableReason(probe: DeviceProbe): string | null {
  if (!probe.gpuPresent()) return "no NVIDIA GPU found (/dev/nvidia0, /proc/driver/nvidia)";
  const dir = probe.onnxRuntimeLibraryDir();
  if (!dir) return "ONNX Runtime's native library folder was not found";
  const missingProvider = CUDA_PROVIDER_FILES.filter((file) => !probe.fileExists(join(dir, file)));
  if (missingProvider.length > 0) return `ONNX Runtime's CUDA provider is not installed (${missingProvider.join(", ")} missing in ${dir})`;
  const loadable = probe.loadableLibraries();
  const missingRuntime = CUDA_RUNTIME_LIBRARIES.filter((name) => !loadable.has(name));
  if (missingRuntime.length > 0) return `CUDA libraries not found by the loader: ${missingRuntime.join(", ")}`;
  return null;
}

export function chooseExecutionProviders(device: Device, probe: DeviceProbe = systemProbe()): string[] {
  if (device === "cpu") return ["cpu"];
  const reason = cudaUnavailableReason(probe);
  if (reason === null) return ["cuda", "cpu"];
  if (device === "cuda") throw new ExecutionProviderError(`cuda requested but ${reason}`);
  return ["cpu"];
}

export interface ThreadOptions {
  intraOpThreads?: number;
  interOpThreads?: number;
}

export function sessionOptions(executionProviders: string[], threads: ThreadOptions = {}): InferenceSession.SessionOptions {
  return {
    executionProviders,
    intraOpNumThreads: threads.intraOpThreads ?? availableParallelism(),
    interOpNumThreads: threads.interOpThreads ?? 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
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
    onnxRuntimeLibraryDir,
    fileExists: existsSync,
    loadableLibraries,
  };
}

function onnxRuntimeLibraryDir(): string | null {
  try {
    const packageDir = dirname(createRequire(import.meta.url).resolve("onnxruntime-node/package.json"));
    const arch = process.arch === "arm64" ? "arm64" : "x64";
    const dir = join(packageDir, "bin", "napi-v6", process.platform, arch);
    return existsSync(dir) ? dir : null;
  } catch {
    return null;
  }
}

function loadableLibraries(): Set<string> {
  const names = new Set<string>();
  // The dynamic loader's own search path, read the way the loader reads it (not docverify configuration).
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
