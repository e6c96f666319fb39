import { describe, expect, test } from "bun:test";
import { InferenceSession } from "onnxruntime-node";
import manifest from "../../../../sidecar/models/manifest.json";
import { loadModelBytes } from "../../../../sidecar/models/index.ts";
import { ctcLabels } from "../../../../sidecar/ocr/ctc.ts";

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

describe("the shipped OCR models", () => {
  test("are the files recorded in the manifest, byte for byte", async () => {
    const byName = {
      "ch_PP-OCRv4_det_infer.onnx": await loadModelBytes("ocr-detection"),
      "ch_PP-OCRv4_rec_infer.onnx": await loadModelBytes("ocr-recognition"),
      "ppocr_keys_v1.txt": await loadModelBytes("ocr-dictionary"),
    };
    for (const [file, bytes] of Object.entries(byName)) {
      const recorded = manifest.files[file as keyof typeof manifest.files];
      expect({ file, sha256: sha256(bytes), bytes: bytes.byteLength }).toEqual({ file, ...recorded });
    }
  });

  test("load in ONNX Runtime on the CPU with the input shapes the pipeline feeds them", async () => {
    const det = await InferenceSession.create(await loadModelBytes("ocr-detection"), { executionProviders: ["cpu"] });
    const rec = await InferenceSession.create(await loadModelBytes("ocr-recognition"), { executionProviders: ["cpu"] });
    try {
      const detInput = det.inputMetadata[0]!;
      const recInput = rec.inputMetadata[0]!;
      const recOutput = rec.outputMetadata[0]!;
      expect(detInput.isTensor && detInput.shape[1]).toBe(3);
      expect(recInput.isTensor && recInput.shape.slice(1, 3)).toEqual([3, 48]);
      // CTC blank + the dictionary's characters + space.
      const labels = ctcLabels(await loadModelBytes("ocr-dictionary"));
      expect(recOutput.isTensor && recOutput.shape[2]).toBe(labels.length);
      expect(labels[0]).toBe("");
      expect(labels.at(-1)).toBe(" ");
    } finally {
      await Promise.all([det.release(), rec.release()]);
    }
  });
});
