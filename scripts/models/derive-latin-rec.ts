// Derives the recognition model the sidecar runs from the shipped PP-OCRv4 one, in two steps
// that leave what it reads unchanged on Latin-script documents (see sidecar/models/README.md):
//   1. Latin classes only. The shipped head scores 6625 classes per time step (CTC blank, the
//      Chinese dictionary, space); the documents read here are Latin script. The blank, the
//      dictionary's Latin, digit, punctuation and currency characters and the space are kept by
//      slicing the columns of the final MatMul weights and bias, and the dictionary lines with
//      them. The kept classes keep exactly their logits, so the softmax over them picks the same
//      character wherever the full model picked a kept one.
//   2. The backbone's exported op chains folded into its convolutions (fold-affine.ts): the
//      same function in fewer passes over memory.
// The graph is edited with onnx-proto (decode, rewrite, encode); nothing is trained or
// downloaded, and the output is byte-for-byte reproducible (the model tests rerun it).
//
// Run after scripts/models/copy-ocr-models.ts: bun scripts/models/derive-latin-rec.ts
// It checks its inputs against manifest.json, writes the model and dictionary into
// sidecar/models/ and records their sha256 and sizes in manifest.json under "derived".
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { onnx } from "onnx-proto";
import { foldAffineAfterConv, foldAffineBeforeConv, fuseHardSwish } from "./fold-affine.ts";
import { GraphIndex, floatValues, setFloatValues } from "./onnx-graph.ts";

const SOURCE_MODEL = "ch_PP-OCRv4_rec_infer.onnx";
const SOURCE_DICTIONARY = "ppocr_keys_v1.txt";
const TARGET_MODEL = "latin_PP-OCRv4_rec_infer.onnx";
const TARGET_DICTIONARY = "latin_ppocr_keys.txt";

/**
 * Code point ranges a kept dictionary entry must fall in: Basic Latin, Latin-1 Supplement and
 * Latin Extended-A/B (letters with diacritics, ×, ±, §, °), General Punctuation (typographic
 * quotes, dashes, bullet, ellipsis, per mille), Currency Symbols and Letterlike Symbols (№, ™).
 */
const KEPT_RANGES: readonly [number, number][] = [
  [0x21, 0x7e],
  [0xa0, 0x24f],
  [0x2010, 0x205e],
  [0x20a0, 0x20cf],
  [0x2100, 0x214f],
];

const modelsDir = join(import.meta.dir, "..", "..", "sidecar", "models");
const manifestPath = join(modelsDir, "manifest.json");

interface FileRecord {
  sha256: string;
  bytes: number;
}
interface Manifest {
  source: string;
  files: Record<string, FileRecord>;
  derived?: Record<string, FileRecord & { from: string[]; by: string }>;
}

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

const isKept = (entry: string): boolean =>
  [...entry].every((ch) => {
    const code = ch.codePointAt(0)!;
    return KEPT_RANGES.some(([lo, hi]) => code >= lo && code <= hi);
  });

async function verifiedSource(manifest: Manifest, name: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(await readFile(join(modelsDir, name)));
  const recorded = manifest.files[name];
  if (!recorded || recorded.sha256 !== sha256(bytes))
    throw new Error(`${name} does not match manifest.json; rerun scripts/models/copy-ocr-models.ts`);
  return bytes;
}

/** Class indices of the model output to keep: blank, the kept dictionary entries, space. */
function keptClasses(dictionary: string[]): { classes: number[]; entries: string[] } {
  const entries: string[] = [];
  const classes = [0];
  dictionary.forEach((entry, i) => {
    if (!isKept(entry)) return;
    entries.push(entry);
    classes.push(i + 1);
  });
  classes.push(dictionary.length + 1);
  return { classes, entries };
}

/**
 * Slices the classification head: output = Softmax(Add(MatMul(features, W[C, K]), b[K])) keeps the
 * columns in `classes`.
 */
function sliceHead(index: GraphIndex, classes: number[], total: number): void {
  const output = index.graph.output![0]!;
  const softmax = index.producer(output.name!);
  const add = softmax?.opType === "Softmax" ? index.producer(softmax.input![0]!) : undefined;
  const matmul = add?.opType === "Add" ? index.producer(add.input![0]!) : undefined;
  if (!add || matmul?.opType !== "MatMul") throw new Error("the model does not end in MatMul, Add, Softmax");
  const weights = index.constants.get(matmul.input![1]!);
  const bias = index.constants.get(add.input![1]!);
  if (!weights || !bias) throw new Error("the head's weights and bias are not constants");
  const [features, outputs] = weights.dims!.map(Number) as [number, number];
  if (outputs !== total || Number(bias.dims![0]) !== total)
    throw new Error(`head has ${outputs} classes, dictionary gives ${total}`);

  const w = floatValues(weights);
  const b = floatValues(bias);
  const keptW = new Float32Array(features * classes.length);
  for (let row = 0; row < features; row++)
    classes.forEach((c, j) => {
      keptW[row * classes.length + j] = w[row * outputs + c]!;
    });
  setFloatValues(weights, [features, classes.length], keptW);
  setFloatValues(
    bias,
    [classes.length],
    Float32Array.from(classes, (c) => b[c]!),
  );
  const dims = output.type!.tensorType!.shape!.dim!;
  dims[dims.length - 1] = { dimValue: classes.length };
}

/** The derived model and dictionary from the shipped ones. */
export function deriveLatin(
  sourceModel: Uint8Array,
  dictionaryText: string,
): { model: Uint8Array; dictionary: Uint8Array; classes: number; folded: Record<string, number> } {
  const dictionary = dictionaryText.split(/\r?\n/);
  if (dictionary.at(-1) === "") dictionary.pop();
  const { classes, entries } = keptClasses(dictionary);
  const model = onnx.ModelProto.decode(sourceModel);
  const index = new GraphIndex(model.graph!);
  sliceHead(index, classes, dictionary.length + 2);
  const folded = {
    affineAfterConv: foldAffineAfterConv(index),
    hardSwish: fuseHardSwish(index),
    affineBeforeConv: foldAffineBeforeConv(index),
    constantsDropped: index.pruneConstants(),
  };
  model.producerName = `docverify scripts/models/derive-latin-rec.ts from ${SOURCE_MODEL}`;
  return {
    model: onnx.ModelProto.encode(model).finish(),
    dictionary: new TextEncoder().encode(`${entries.join("\n")}\n`),
    classes: classes.length,
    folded,
  };
}

if (import.meta.main) {
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as Manifest;
  const sourceModel = await verifiedSource(manifest, SOURCE_MODEL);
  const dictionaryText = new TextDecoder("utf-8", { fatal: true }).decode(
    await verifiedSource(manifest, SOURCE_DICTIONARY),
  );
  const derived = deriveLatin(sourceModel, dictionaryText);
  await writeFile(join(modelsDir, TARGET_MODEL), derived.model);
  await writeFile(join(modelsDir, TARGET_DICTIONARY), derived.dictionary);

  const by = "bun scripts/models/derive-latin-rec.ts";
  const record = (bytes: Uint8Array) => ({ sha256: sha256(bytes), bytes: bytes.byteLength });
  manifest.derived = {
    ...manifest.derived,
    [TARGET_MODEL]: { ...record(derived.model), from: [SOURCE_MODEL, SOURCE_DICTIONARY], by },
    [TARGET_DICTIONARY]: { ...record(derived.dictionary), from: [SOURCE_DICTIONARY], by },
  };
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(
    `wrote ${TARGET_MODEL} (${derived.model.byteLength} bytes, ${derived.classes} classes, rewrites ${JSON.stringify(derived.folded)}) and ${TARGET_DICTIONARY}`,
  );
}
