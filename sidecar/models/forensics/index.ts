// The forensic graph's bytes, imported as a file like sidecar/models/index.ts does for the OCR
// models, so `bun build --compile` embeds it. Regenerate with
// scripts/models/build-forensics-graphs.ts.
import forensicsMaps from "./forensics-maps.onnx" with { type: "file" };

export async function loadForensicsGraphBytes(): Promise<Uint8Array> {
  return Bun.file(forensicsMaps).bytes();
}
