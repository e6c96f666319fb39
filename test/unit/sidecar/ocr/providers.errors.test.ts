import { describe, expect, test } from "bun:test";
import { ExecutionProviderError, chooseExecutionProviders } from "../../../../sidecar/ocr/providers.ts";
import { CUDA_LIBS, OPERATOR_DIR, PROVIDERS, machine, shipped } from "./providers-machine.ts";

const fallbackReason = (box: ReturnType<typeof machine>, cudaLibDir?: string): string | undefined => {
  let told: string | undefined;
  expect(chooseExecutionProviders("auto", { cudaLibDir, onCpuFallback: (reason) => (told = reason) }, box)).toEqual([
    "cpu",
  ]);
  return told;
};

describe("when CUDA cannot be used", () => {
  test("auto falls back to CPU without a GPU and says why", () => {
    expect(fallbackReason(machine({ gpu: false, beside: shipped }))).toContain("no NVIDIA GPU found");
  });

  test("auto falls back to CPU when the provider is neither shipped nor in a named folder, naming the files and the setting", () => {
    const reason = fallbackReason(machine({}));
    expect(reason).toContain("libonnxruntime_providers_cuda.so");
    expect(reason).toContain("DOCVERIFY_SIDECAR_CUDA_LIB_DIR");
  });

  test("an operator's folder without one of the libraries is named with the missing file, and nothing is linked", () => {
    const box = machine({ operator: [PROVIDERS[0]!] });
    expect(fallbackReason(box, OPERATOR_DIR)).toBe(
      `DOCVERIFY_SIDECAR_CUDA_LIB_DIR ${OPERATOR_DIR} lacks libonnxruntime_providers_shared.so`,
    );
    expect(box.linked).toEqual([]);
  });

  test("a provider installed only in part beside ONNX Runtime is not mixed with another folder's", () => {
    const box = machine({ beside: { [PROVIDERS[0]!]: "file" }, operator: PROVIDERS });
    expect(fallbackReason(box, OPERATOR_DIR)).toContain("installed only in part");
    expect(box.linked).toEqual([]);
  });

  test("auto falls back to CPU when a CUDA runtime library cannot be loaded", () => {
    expect(
      fallbackReason(machine({ beside: shipped, libraries: CUDA_LIBS.filter((l) => l !== "libcudnn.so.9") })),
    ).toBe("CUDA libraries not found by the loader: libcudnn.so.9");
  });

  test("a link that cannot be made (a read-only folder) means CPU for auto, not a crash at session creation", () => {
    const box = machine({ operator: PROVIDERS, linkFails: "EROFS: read-only file system" });
    expect(fallbackReason(box, OPERATOR_DIR)).toContain("EROFS");
  });

  test("cuda that cannot be honoured is a configuration error with a one-line reason", () => {
    const attempt = () => chooseExecutionProviders("cuda", {}, machine({ gpu: false }));
    expect(attempt).toThrow(ExecutionProviderError);
    expect(attempt).toThrow("DOCVERIFY_SIDECAR_DEVICE: cuda requested but no NVIDIA GPU found");
    try {
      attempt();
    } catch (error) {
      expect((error as ExecutionProviderError).setting).toBe("DOCVERIFY_SIDECAR_DEVICE");
      expect((error as ExecutionProviderError).reason).not.toContain("\n");
    }
  });

  test("cuda with a GPU but missing CUDA libraries names them", () => {
    expect(() => chooseExecutionProviders("cuda", {}, machine({ beside: shipped, libraries: [] }))).toThrow(
      "libcudart.so.12",
    );
  });
});
