import { describe, expect, test } from "bun:test";
import { lstatSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  chooseExecutionProviders,
  onnxRuntimeLibraryDir,
  planCuda,
  sessionOptions,
  systemProbe,
} from "../../../../sidecar/ocr/providers.ts";
import { OPERATOR_DIR, ORT_DIR, PROVIDERS, machine, shipped } from "./providers-machine.ts";

describe("choosing execution providers", () => {
  test("auto and cuda use CUDA, with CPU behind it, when the GPU, the provider shipped beside ONNX Runtime and the CUDA libraries are all there", () => {
    const box = machine({ beside: shipped });
    expect(chooseExecutionProviders("auto", {}, box)).toEqual(["cuda", "cpu"]);
    expect(chooseExecutionProviders("cuda", {}, box)).toEqual(["cuda", "cpu"]);
    expect(box.linked).toEqual([]);
  });

  test("a build without the provider uses the operator's folder, linking both libraries beside ONNX Runtime where it loads them from", () => {
    const box = machine({ operator: PROVIDERS });
    expect(chooseExecutionProviders("cuda", { cudaLibDir: OPERATOR_DIR }, box)).toEqual(["cuda", "cpu"]);
    expect(box.linked).toEqual(PROVIDERS.map((file) => [`${OPERATOR_DIR}/${file}`, `${ORT_DIR}/${file}`]));
  });

  test("the provider shipped with the build is preferred to the operator's folder, which is then left alone", () => {
    const box = machine({ beside: shipped, operator: PROVIDERS });
    expect(planCuda(box, { cudaLibDir: OPERATOR_DIR })).toEqual({ usable: true, links: [] });
  });

  test("the OCR engine and the forensics graph choosing in turn both get CUDA, the second relinking the same files", () => {
    const box = machine({ operator: PROVIDERS });
    expect(chooseExecutionProviders("auto", { cudaLibDir: OPERATOR_DIR }, box)).toEqual(["cuda", "cpu"]);
    expect(chooseExecutionProviders("auto", { cudaLibDir: OPERATOR_DIR }, box)).toEqual(["cuda", "cpu"]);
    expect(new Set(box.linked.map(([, path]) => path))).toEqual(new Set(PROVIDERS.map((file) => `${ORT_DIR}/${file}`)));
  });

  test("cpu never asks for CUDA nor links anything, even on a GPU box", () => {
    const box = machine({ operator: PROVIDERS });
    expect(chooseExecutionProviders("cpu", { cudaLibDir: OPERATOR_DIR }, box)).toEqual(["cpu"]);
    expect(box.linked).toEqual([]);
  });

  test("session options carry the configured thread counts", () => {
    const options = sessionOptions(["cpu"], { intraOpThreads: 3, interOpThreads: 2 });
    expect(options).toMatchObject({ executionProviders: ["cpu"], intraOpNumThreads: 3, interOpNumThreads: 2 });
    expect(options.extra).toEqual({
      session: { intra_op: { allow_spinning: "0" }, inter_op: { allow_spinning: "0" } },
    });
  });
});

describe("finding ONNX Runtime's native folder", () => {
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const inPackage = `onnxruntime-node/bin/napi-v6/${process.platform}/${arch}`;

  test("the compiled binary looks where it extracted its natives, since the package folder does not exist inside it", () => {
    const extracted = "/home/svc/.cache/docverify/natives-0123abcd";
    const seen: string[] = [];
    const dir = onnxRuntimeLibraryDir({ standalone: true, extractedNativesDir: extracted }, (path) => {
      seen.push(path);
      return true;
    });
    expect(dir).toBe(`${extracted}/${inPackage}`);
    expect(seen).toEqual([`${extracted}/${inPackage}`]);
  });

  test("from source it is the installed package's folder, holding libonnxruntime.so.1", () => {
    const dir = onnxRuntimeLibraryDir({ standalone: false, extractedNativesDir: null });
    expect(dir).toEndWith(`node_modules/${inPackage}`);
    expect(systemProbe().isFile(`${dir}/libonnxruntime.so.1`)).toBe(true);
  });

  test("on this machine auto picks what the system probe allows", () => {
    const probe = systemProbe();
    expect(probe.onnxRuntimeLibraryDir()).not.toBeNull();
    expect(chooseExecutionProviders("auto", {}, probe)).toEqual(planCuda(probe).usable ? ["cuda", "cpu"] : ["cpu"]);
  });
});

describe("the system probe on real files", () => {
  test("link makes a symbolic link and replaces an earlier one in place", () => {
    const dir = mkdtempSync(join(tmpdir(), "providers-link-"));
    try {
      for (const name of ["old.so", "new.so"]) writeFileSync(join(dir, name), name);
      const path = join(dir, PROVIDERS[0]!);
      const probe = systemProbe();
      probe.link(join(dir, "old.so"), path);
      probe.link(join(dir, "new.so"), path);
      expect(lstatSync(path).isSymbolicLink()).toBe(true);
      expect(readlinkSync(path)).toBe(join(dir, "new.so"));
      expect(probe.isLink(path) && probe.isFile(path)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
