import { describe, expect, test } from "bun:test";
import {
  type DeviceProbe,
  ExecutionProviderError,
  chooseExecutionProviders,
  cudaUnavailableReason,
  sessionOptions,
  systemProbe,
} from "../../../../sidecar/ocr/providers.ts";

// The machine has no GPU, so the decision is tested against described machines.
const ORT_DIR = "/opt/app/node_modules/onnxruntime-node/bin/napi-v6/linux/x64";
const CUDA_LIBS = ["libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcufft.so.11", "libcudnn.so.9"];

function machine(opts: { gpu: boolean; provider: boolean; libraries: string[] }): DeviceProbe {
  return {
    gpuPresent: () => opts.gpu,
    onnxRuntimeLibraryDir: () => ORT_DIR,
    fileExists: (path) => opts.provider && path.startsWith(`${ORT_DIR}/libonnxruntime_providers_`),
    loadableLibraries: () => new Set(opts.libraries),
  };
}

const fullGpuBox = machine({ gpu: true, provider: true, libraries: CUDA_LIBS });

describe("choosing execution providers", () => {
  test("auto uses CUDA, with CPU behind it, when the GPU, the provider library and the CUDA libraries are all there", () => {
    expect(chooseExecutionProviders("auto", fullGpuBox)).toEqual(["cuda", "cpu"]);
    expect(chooseExecutionProviders("cuda", fullGpuBox)).toEqual(["cuda", "cpu"]);
  });

  test("auto falls back to CPU without a GPU", () => {
    expect(chooseExecutionProviders("auto", machine({ gpu: false, provider: true, libraries: CUDA_LIBS }))).toEqual(["cpu"]);
  });

  test("auto falls back to CPU when ONNX Runtime's CUDA provider library is missing, which would otherwise abort the process", () => {
    expect(chooseExecutionProviders("auto", machine({ gpu: true, provider: false, libraries: CUDA_LIBS }))).toEqual(["cpu"]);
  });

  test("auto falls back to CPU when a CUDA runtime library cannot be loaded", () => {
    const noCudnn = machine({ gpu: true, provider: true, libraries: CUDA_LIBS.filter((l) => l !== "libcudnn.so.9") });
    expect(chooseExecutionProviders("auto", noCudnn)).toEqual(["cpu"]);
  });

  test("cpu never asks for CUDA, even on a GPU box", () => {
    expect(chooseExecutionProviders("cpu", fullGpuBox)).toEqual(["cpu"]);
  });

  test("cuda without a GPU is a configuration error with a one-line reason", () => {
    const attempt = () => chooseExecutionProviders("cuda", machine({ gpu: false, provider: true, libraries: CUDA_LIBS }));
    expect(attempt).toThrow(ExecutionProviderError);
    expect(attempt).toThrow("DOCVERIFY_SIDECAR_DEVICE: cuda requested but no NVIDIA GPU found");
    try {
      attempt();
    } catch (error) {
      expect((error as ExecutionProviderError).setting).toBe("DOCVERIFY_SIDECAR_DEVICE");
      expect((error as ExecutionProviderError).reason).not.toContain("\n");
    }
  });

  test("cuda with a GPU but no provider library names the missing file", () => {
    expect(() => chooseExecutionProviders("cuda", machine({ gpu: true, provider: false, libraries: CUDA_LIBS }))).toThrow(
      "libonnxruntime_providers_cuda.so",
    );
  });

  test("cuda with a GPU but missing CUDA libraries names them", () => {
    expect(() => chooseExecutionProviders("cuda", machine({ gpu: true, provider: true, libraries: [] }))).toThrow("libcudart.so.12");
  });

  test("the system probe finds ONNX Runtime's native library, and auto on this machine picks what the probe allows", () => {
    const probe = systemProbe();
    const dir = probe.onnxRuntimeLibraryDir();
    expect(dir).not.toBeNull();
    expect(probe.fileExists(`${dir}/libonnxruntime.so.1`)).toBe(true);
    const expected = cudaUnavailableReason(probe) === null ? ["cuda", "cpu"] : ["cpu"];
    expect(chooseExecutionProviders("auto", probe)).toEqual(expected);
  });

  test("session options carry the configured thread counts", () => {
    const options = sessionOptions(["cpu"], { intraOpThreads: 3, interOpThreads: 2 });
    expect(options).toMatchObject({ executionProviders: ["cpu"], intraOpNumThreads: 3, interOpNumThreads: 2 });
    expect(options.extra).toEqual({ session: { intra_op: { allow_spinning: "0" }, inter_op: { allow_spinning: "0" } } });
  });
});
