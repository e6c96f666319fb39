// The one way the sidecar gets model bytes. Static file imports make `bun build --compile`
// embed the files, so the executable needs nothing beside it; a packaging step that keeps
// models elsewhere only has to change this function. Recognition is the Latin-script model
// derived from the shipped PP-OCRv4 one (scripts/models/derive-latin-rec.ts, README.md); the
// shipped model stays in this folder as its source but is not embedded.
import ocrDetection from "./ch_PP-OCRv4_det_infer.onnx" with { type: "file" };
import ocrRecognition from "./latin_PP-OCRv4_rec_infer.onnx" with { type: "file" };
import ocrDictionary from "./latin_ppocr_keys.txt" with { type: "file" };
// Trained here by scripts/models/localiser/train.py (README.md, "The localiser").
import localiser from "./localiser.onnx" with { type: "file" };

const MODEL_PATHS = {
  "ocr-detection": ocrDetection,
  "ocr-recognition": ocrRecognition,
  "ocr-dictionary": ocrDictionary,
  localiser,
} as const;

export type ModelName = keyof typeof MODEL_PATHS;

export async function loadModelBytes(name: ModelName): Promise<Uint8Array> {
  return Bun.file(MODEL_PATHS[name]).bytes();
}
