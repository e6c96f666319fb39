// Described machines for the execution-provider decision: this machine has no GPU, so the
// probe is the one test double the suite allows. Paths are plain strings; nothing is touched.
import type { DeviceProbe } from "../../../../sidecar/ocr/providers.ts";

export const ORT_DIR = "/home/svc/.cache/docverify/natives-0123abcd/onnxruntime-node/bin/napi-v6/linux/x64";
export const OPERATOR_DIR = "/opt/onnxruntime-gpu/lib";
export const PROVIDERS = ["libonnxruntime_providers_cuda.so", "libonnxruntime_providers_shared.so"];
export const CUDA_LIBS = ["libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcufft.so.11", "libcudnn.so.9"];

export interface MachineSpec {
  gpu?: boolean;
  /**
   * Provider files beside ONNX Runtime: shipped with the build, or links placed by an earlier
   * start.
   */
  beside?: Partial<Record<string, "file" | "link">>;
  /** Provider files in the operator's folder. */
  operator?: string[];
  libraries?: string[];
  untrusted?: string;
  linkFails?: string;
}

export interface DescribedMachine extends DeviceProbe {
  /** [target, path] of every link made. */
  linked: [string, string][];
}

export function machine(spec: MachineSpec = {}): DescribedMachine {
  const files = new Map<string, "file" | "link">();
  for (const [name, kind] of Object.entries(spec.beside ?? {})) if (kind) files.set(`${ORT_DIR}/${name}`, kind);
  for (const name of spec.operator ?? []) files.set(`${OPERATOR_DIR}/${name}`, "file");
  const linked: [string, string][] = [];
  return {
    linked,
    gpuPresent: () => spec.gpu ?? true,
    onnxRuntimeLibraryDir: () => ORT_DIR,
    isFile: (path) => files.has(path),
    isLink: (path) => files.get(path) === "link",
    untrustedReason: (path) => (spec.untrusted && path.startsWith(OPERATOR_DIR) ? spec.untrusted : null),
    loadableLibraries: () => new Set(spec.libraries ?? CUDA_LIBS),
    link(target, path) {
      if (spec.linkFails) throw new Error(spec.linkFails);
      linked.push([target, path]);
      files.set(path, "link");
    },
  };
}

export const shipped = { [PROVIDERS[0]!]: "file", [PROVIDERS[1]!]: "file" } as const;
