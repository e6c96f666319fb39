// The one way the sidecar gets model bytes. Static file imports make `bun build --compile`
// embed the files, so the executable needs nothing beside it; a packaging step that keeps
// models elsewhere only has to change this function.
import ocrDetection from "./ch_PP-OCRv4_det_infer.onnx" with { type: "file" };
import ocrRecognition from "./ch_PP-OCRv4_rec_infer.onnx" with { type: "file" };
import ocrDictionary from "./ppocr_keys_v1.txt" with { type: "file" };

const MODEL_PATHS = {
  "ocr-detection": ocrDetection,
  "ocr-recognition": ocrRecognition,
  "ocr-dictionary": ocrDictionary,
} as const;

export type ModelName = keyof typeof MODEL_PATHS;

export const MODEL_NAMES = Object.keys(MODEL_PATHS) as ModelName[];

export async function loadModelBytes(name: ModelName): Promise<Uint8Array> {
  return Bun.file(MODEL_PATHS[name]).bytes();
}
