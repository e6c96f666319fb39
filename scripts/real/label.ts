// A real document's corpus label (scripts/corpus/labels.ts), so that scripts/evaluate.ts
// reads the real set exactly as it reads a generated corpus.
import type { CorpusDocumentType, CorpusLabel, ForgeryKind, GenuineKind } from "../corpus/labels.ts";
import type { Capture, RealSource } from "./sources.ts";

const EXTENSIONS = { pdf: "pdf", jpeg: "jpg", png: "png" } as const;

/**
 * The corpus kind that names how a genuine document was captured: its per-kind false-positive row.
 */
const GENUINE_KIND: Record<Capture, GenuineKind> = {
  native: "genuine_clean",
  scan: "genuine_scan",
  photo: "genuine_photo",
};

export const fileOf = (source: Pick<RealSource, "id" | "format">): string =>
  `${source.id}.${EXTENSIONS[source.format]}`;

/**
 * The label, or undefined for a document of no corpus type (the corpus has no "unknown":
 * such a document is rebuilt but left out of labels.jsonl). A forgery keeps the kind its
 * manifest names, whatever that set's vocabulary (K): the public-tampering set labels its
 * forgeries in its own words with this same function.
 */
export function labelOf<K extends string = ForgeryKind>(
  source: Omit<RealSource, "kind"> & { kind: "genuine_real" | K },
  asOf: string,
): (Omit<CorpusLabel, "kind"> & { kind: GenuineKind | K }) | undefined {
  if (source.documentType === "unknown") return undefined;
  return {
    id: source.id,
    file: fileOf(source),
    label: source.label,
    kind: source.kind === "genuine_real" ? GENUINE_KIND[source.capture] : source.kind,
    documentType: source.documentType satisfies CorpusDocumentType,
    format: source.format,
    generator: source.repo,
    family: source.family,
    split: "test",
    source: source.path,
    history: ["real"],
    asOf,
  };
}
