// Which documents a corpus holds: every kind for every document type it applies to,
// repeated per size, with a train/test split stratified by kind.
import { FORGERY_KINDS, GENUINE_KINDS, type CorpusDocumentType, isGenuine, type Kind, typesFor } from "./labels.ts";
import { Rng } from "./rng.ts";

export type CorpusSize = "small" | "full";

export interface PlannedDocument {
  id: string;
  kind: Kind;
  documentType: CorpusDocumentType;
  /** Index among documents of the same kind and type: alternates generators and templates. */
  variant: number;
  split: "train" | "test";
}

// Full size: 29 genuine (kind, type) pairs x 13 + 35 forged pairs x 7 = 622 documents, a bit
// more genuine than forged as in production traffic. Small: each pair once (64 documents).
const COPIES: Record<CorpusSize, { genuine: number; forged: number }> = {
  small: { genuine: 1, forged: 1 },
  full: { genuine: 13, forged: 7 },
};

export function planCorpus(seed: number, size: CorpusSize): PlannedDocument[] {
  const docs: Omit<PlannedDocument, "split">[] = [];
  const copies = COPIES[size];
  for (let round = 0; round < Math.max(copies.genuine, copies.forged); round++) {
    for (const kind of [...GENUINE_KINDS, ...FORGERY_KINDS]) {
      if (round >= (isGenuine(kind) ? copies.genuine : copies.forged)) continue;
      for (const documentType of typesFor(kind)) {
        docs.push({ id: `d${String(docs.length + 1).padStart(4, "0")}`, kind, documentType, variant: round });
      }
    }
  }
  const train = new Set<string>();
  for (const kind of new Set(docs.map((d) => d.kind))) {
    const ids = Rng.derive(seed, `split:${kind}`).shuffle(docs.filter((d) => d.kind === kind).map((d) => d.id));
    ids.slice(0, Math.round(ids.length * 0.7)).forEach((id) => {
      train.add(id);
    });
  }
  return docs.map((d) => ({ ...d, split: train.has(d.id) ? "train" : "test" }));
}
