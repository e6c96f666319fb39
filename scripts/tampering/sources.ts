// The public-tampering set's manifest (sources.json): forgeries that other people made of
// identity documents, published with their ground truth, beside the genuine images they
// were made from. Pinned exactly as the real-document set pins its files (repository,
// commit, path, sha256), but kept apart from it: this set is held out, and nothing in the
// project is tuned on it.
import type { ForgeryRegion } from "../corpus/labels.ts";
import { type ManifestRules, type RealSource, readManifest } from "../real/sources.ts";

/**
 * What was done to a forged image, in this set's own words: the corpus kinds name how this
 * project's generators forge, and a public forgery is judged by what its maker did, not by
 * which of our recipes it resembles.
 */
export const PUBLIC_KINDS = [
  "public_portrait_swap", // the holder's portrait replaced by another person's
  "public_inpaint", // a text field erased (inpainted) and written again
  "public_splice", // a field pasted from another document's image
  "public_copy_move", // a character or region copied from elsewhere in the same image
  "public_recapture", // the document reproduced (printed copy or screen) and photographed again
  // Several edits on one card by generative models: the face swapped (in the portrait and its
  // ghost) and text fields inpainted (DeepID 2025's "digital manipulations").
  "public_face_and_text",
] as const;

export type PublicKind = (typeof PUBLIC_KINDS)[number];

/**
 * A real-set entry (repository, commit, path, sha256, type, format, capture, licence), with this
 * set's kinds.
 */
export interface TamperingSource extends Omit<RealSource, "kind"> {
  /** t0001-style, so that a file of this set is never taken for one of the real set (r0001). */
  id: string;
  kind: "genuine_real" | PublicKind;
  /** The id of the genuine image this forgery was made from, where that image is in the set. */
  base?: string;
  /**
   * Where the forgery changed the image, from the source's mask, box or a pixel difference with its
   * base.
   */
  regions?: ForgeryRegion[];
  /** "tampering/<source>": one family per source repository. */
  family: string;
}

function checkRegion(region: unknown, where: string): void {
  const r = region as Partial<ForgeryRegion> | null;
  const box = r?.box;
  const whole = (n: unknown, min: number) => typeof n === "number" && Number.isInteger(n) && n >= min;
  if (
    r?.page !== 0 ||
    r.unit !== "px" ||
    !box ||
    !whole(box.x, 0) ||
    !whole(box.y, 0) ||
    !whole(box.w, 1) ||
    !whole(box.h, 1)
  ) {
    throw new Error(`${where}: a region is not a page-0 pixel box with whole, non-negative coordinates`);
  }
  if (typeof r.field !== "string" || typeof r.from !== "string" || typeof r.to !== "string")
    throw new Error(`${where}: a region lacks field, from or to`);
}

const RULES: ManifestRules = {
  id: /^t\d{4}$/,
  idStyle: "t0001-style",
  forgeryKinds: PUBLIC_KINDS,
  familyPrefix: "tampering/",
  more: (entry, label, fail, where) => {
    if (entry.base !== undefined && (label !== "forged" || typeof entry.base !== "string"))
      fail("only a forgery names a base, by id");
    if (entry.regions !== undefined) {
      if (label !== "forged" || !Array.isArray(entry.regions) || entry.regions.length === 0)
        fail("regions is not a non-empty list on a forgery");
      for (const region of entry.regions as unknown[]) checkRegion(region, where);
    }
  },
};

/** The manifest, every entry checked, ids unique, every base an existing genuine entry. */
export function readTamperingSources(file: string): TamperingSource[] {
  const sources = readManifest<TamperingSource>(file, RULES);
  const byId = new Map(sources.map((s) => [s.id, s]));
  const pinned = new Set(sources.map((s) => `${s.repo}@${s.commit}:${s.path}`));
  if (pinned.size !== sources.length) throw new Error(`${file}: two entries pin the same file`);
  for (const source of sources) {
    if (source.base === undefined) continue;
    const base = byId.get(source.base);
    if (base?.label !== "genuine")
      throw new Error(`${file}: ${source.id}'s base ${source.base} is not a genuine entry of the set`);
  }
  return sources;
}
