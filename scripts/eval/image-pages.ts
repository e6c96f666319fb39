// The image documents of a labelled corpus as the sidecar sees them: decoded as it decodes
// them, with the boxes of their OCR lines, cached in a folder so that a measure run again after
// a change to a trace or cue costs the pixels alone (OCR is most of a page's time).
import { existsSync } from "node:fs";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ParseArgsConfig } from "node:util";
import type { Box } from "../../sidecar/forensics/types.ts";
import { createOcrEngine } from "../../sidecar/ocr/engine.ts";
import { type DecodedPage, decodeImage } from "../../sidecar/server/decode-image.ts";
import { DEFAULT_LIMITS } from "../../sidecar/server/limits.ts";
import { IDENTITY_TYPES, type CorpusLabel } from "../corpus/labels.ts";
import { readLabels } from "./corpus-input.ts";

/** The command-line options of a measure over a corpus's images. */
export const MEASURE_OPTIONS = {
  corpus: { type: "string" },
  out: { type: "string" },
  "only-identity": { type: "boolean", default: false },
  "report-only": { type: "boolean", default: false },
  "id-prefix": { type: "string", default: "" },
} as const satisfies ParseArgsConfig["options"];

/** The document types of identity documents, as a set to test labels and rows against. */
export const IDENTITY = new Set<string>(IDENTITY_TYPES);

/**
 * The labels of the corpus's images (JPEG or PNG files present), of identity documents only
 * with `--only-identity`, and of ids that start with `--id-prefix`.
 */
export function imageLabels(options: {
  corpus: string;
  "only-identity"?: boolean;
  "id-prefix"?: string;
}): CorpusLabel[] {
  return readLabels(options.corpus).filter(
    (l) =>
      (l.format === "jpeg" || l.format === "png") &&
      existsSync(join(options.corpus, l.file)) &&
      (!options["only-identity"] || IDENTITY.has(l.documentType)) &&
      l.id.startsWith(options["id-prefix"] ?? ""),
  );
}

export interface ImagePage<L> {
  label: L;
  /** The file as stored. */
  bytes: Uint8Array;
  page: DecodedPage;
  lines: Box[];
}

/**
 * Each labelled image (JPEG or PNG) of `corpus` in turn, its line boxes read from
 * `linesDir/ID.json` or, the first time, by the sidecar's OCR engine and written there.
 * Progress goes to stderr every 20 pages.
 */
export async function* imagePages<L extends Pick<CorpusLabel, "id" | "file" | "format">>(
  corpus: string,
  labels: readonly L[],
  linesDir: string,
): AsyncGenerator<ImagePage<L>> {
  await mkdir(linesDir, { recursive: true });
  const ocr = await createOcrEngine({ device: "cpu", batch: { maxBatch: 8, maxWaitMs: 2 } });
  try {
    for (const [n, label] of labels.entries()) {
      const bytes = new Uint8Array(await readFile(join(corpus, label.file)));
      const page = await decodeImage(bytes, label.format as "jpeg" | "png", DEFAULT_LIMITS);
      const cached = join(linesDir, `${label.id}.json`);
      const isCached = existsSync(cached);
      const lines: Box[] = isCached
        ? JSON.parse(await readFile(cached, "utf8"))
        : (await ocr.readImage(page.image)).map((l) => l.box);
      if (!isCached) await writeFile(cached, JSON.stringify(lines));
      yield { label, bytes, page, lines };
      if (n % 20 === 0) console.error(`${n}/${labels.length}`);
    }
  } finally {
    await ocr.close();
  }
}
