// Which manipulated documents a run makes: every forgery kind through every capture path, and
// as many genuine documents through each path, so each forgery is judged against genuine
// documents that travelled the same way. Each one starts from a genuine base document of the
// folder and keeps that base's train/test split, so a base never sits on both sides.
import type { CorpusDocumentType, CorpusLabel, Kind } from "../labels.ts";
import { typesFor } from "../labels.ts";
import type { CorpusSize, PlannedDocument } from "../plan.ts";
import { Rng } from "../rng.ts";

/**
 * How the file reaches the bank after the editor: as saved, printed and photographed, or
 * photographed off a screen.
 */
export type Path = "editor" | "print_photo" | "screen_recapture";
export const PATHS: readonly Path[] = ["editor", "print_photo", "screen_recapture"];

export const MANIPULATIONS = ["image_portrait_swap", "image_inpaint_retype", "image_paste_field"] as const;

/** The genuine kind of each path: the same journey with no edit. */
const GENUINE_OF: Record<Path, Kind> = {
  editor: "genuine_recompressed",
  print_photo: "genuine_print_photo",
  screen_recapture: "genuine_screen_recapture",
};

/**
 * A corpus plan entry (id, kind, type, split), with the journey and base document in place of a
 * variant.
 */
export interface PlannedManipulation extends Omit<PlannedDocument, "variant"> {
  path: Path;
  /** Sent on through a messaging app after the capture (downscaled, recompressed). */
  messaging: boolean;
  base: CorpusLabel;
}

// Full: 3 forgeries x 3 paths x 10 = 90 forged, 3 paths x 30 = 90 genuine. Small: every cell
// twice and each path's genuine kind three times (27).
const COPIES: Record<CorpusSize, { forged: number; genuine: number }> = {
  small: { forged: 2, genuine: 3 },
  full: { forged: 10, genuine: 30 },
};

export function planManipulations(
  seed: number,
  size: CorpusSize,
  bases: readonly CorpusLabel[],
): PlannedManipulation[] {
  const rng = Rng.derive(seed, "manipulate:plan");
  const byType = new Map<CorpusDocumentType, CorpusLabel[]>();
  for (const b of bases) byType.set(b.documentType, [...(byType.get(b.documentType) ?? []), b]);
  // Each type's bases in a seeded order, taken in turn: every base is used before any repeats.
  const queues = new Map([...byType].map(([t, list]) => [t, { order: rng.shuffle(list), next: 0 }]));
  const takeBase = (t: CorpusDocumentType): CorpusLabel => {
    const q = queues.get(t)!;
    const base = q.order[q.next % q.order.length]!;
    q.next++;
    return base;
  };
  const available = (kind: Kind) => typesFor(kind).filter((t) => byType.has(t));

  const docs: PlannedManipulation[] = [];
  // `turn` runs on across paths, so a kind made twice per path still meets every document type.
  const add = (kind: Kind, path: Path, copy: number, turn: number, types: readonly CorpusDocumentType[]) => {
    if (types.length === 0) throw new Error(`no base document of a type ${kind} applies to`);
    const documentType = types[turn % types.length]!;
    const base = takeBase(documentType);
    // Alternate, so every capture path is seen both straight from the phone and after an app.
    const messaging = path !== "editor" && copy % 2 === 1;
    docs.push({
      id: `m${String(docs.length + 1).padStart(4, "0")}`,
      kind,
      documentType,
      path,
      messaging,
      base,
      split: base.split,
    });
  };
  const copies = COPIES[size];
  PATHS.forEach((path, p) => {
    const forged: CorpusDocumentType[] = [];
    for (const kind of MANIPULATIONS) {
      for (let c = 0; c < copies.forged; c++) {
        add(kind, path, c, p * copies.forged + c, available(kind));
        forged.push(docs[docs.length - 1]!.documentType);
      }
    }
    // The genuine documents of a path mirror its forgeries' document types, so no type is
    // mostly genuine or mostly forged within a family (a small run, with fewer genuine than
    // forged, takes the forgeries' types in turn instead).
    const distinct = [...new Set(forged)];
    for (let c = 0; c < copies.genuine; c++) {
      const type = copies.genuine === forged.length ? forged[c]! : distinct[c % distinct.length]!;
      add(GENUINE_OF[path], path, c, 0, [type]);
    }
  });
  return docs;
}
