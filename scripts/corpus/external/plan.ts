// Which documents the external families hold: for each family, its genuine histories and
// the forgeries a fraudster with that tool would make, over statements, payslips, bills and
// (for the capture families) identity documents, with a 70/30 split within each recipe.
import type { CorpusDocumentType, Kind } from "../labels.ts";
import { Rng } from "../rng.ts";

type ExternalGenerator = "libreoffice" | "chromium" | "ghostscript" | "imagemagick";

/**
 * How a document is made, beyond its kind (two methods share pdf_amount_rewrite: the amount
 * changed in the HTML/ODT source before rendering, or in the finished PDF).
 *  - genuine: the tool's output as it is (re-distilled, scanned or photographed for those families)
 *  - source-edit: one amount raised in the source, every total left as it was
 *  - pdf-edit: one amount redacted and retyped in the finished PDF with mupdf
 *  - overlay: a white box and new text appended as an incremental update
 *  - editor-name: the holder's name retyped and the file saved with an editor's metadata
 *  - messaging: a phone photo passed through a messaging app
 */
export type Method = "genuine" | "source-edit" | "pdf-edit" | "overlay" | "editor-name" | "messaging";

interface Recipe {
  kind: Kind;
  method: Method;
}

export interface ExternalFamily {
  generator: ExternalGenerator;
  capture: "native" | "scan" | "photo";
  recipes: Recipe[];
}

const PDF_FORGERIES: Recipe[] = [
  { kind: "pdf_amount_rewrite", method: "source-edit" },
  { kind: "pdf_amount_rewrite", method: "pdf-edit" },
  { kind: "pdf_incremental_edit", method: "overlay" },
  { kind: "pdf_editor_metadata", method: "editor-name" },
];

export const EXTERNAL_FAMILIES: ExternalFamily[] = [
  {
    generator: "libreoffice",
    capture: "native",
    recipes: [{ kind: "genuine_office", method: "genuine" }, ...PDF_FORGERIES],
  },
  {
    generator: "chromium",
    capture: "native",
    recipes: [{ kind: "genuine_clean", method: "genuine" }, ...PDF_FORGERIES],
  },
  {
    generator: "ghostscript",
    capture: "native",
    recipes: [
      { kind: "genuine_resaved", method: "genuine" },
      // A forged source printed to PDF, and an edited PDF laundered by printing it again.
      { kind: "pdf_amount_rewrite", method: "source-edit" },
      { kind: "pdf_amount_rewrite", method: "pdf-edit" },
    ],
  },
  {
    generator: "imagemagick",
    capture: "scan",
    recipes: [
      { kind: "genuine_scan", method: "genuine" },
      { kind: "pdf_forged_photographed", method: "source-edit" },
    ],
  },
  {
    generator: "imagemagick",
    capture: "photo",
    recipes: [
      { kind: "genuine_photo", method: "genuine" },
      { kind: "genuine_messaging", method: "messaging" },
      { kind: "pdf_forged_photographed", method: "source-edit" },
    ],
  },
];

export type ExternalSize = "small" | "full";

const COPIES: Record<ExternalSize, { genuine: number; forged: number }> = {
  small: { genuine: 3, forged: 1 },
  full: { genuine: 12, forged: 6 },
};

export interface PlannedExternal {
  id: string;
  family: ExternalFamily;
  recipe: Recipe;
  documentType: CorpusDocumentType;
  /**
   * Index among documents of the same family and recipe: alternates sources, styles and locales.
   */
  variant: number;
  split: "train" | "test";
}

const FINANCE: CorpusDocumentType[] = ["financial", "utility_bill"];
// Scans and photos of identity documents too: the identity generator's PNGs, captured here.
const CAPTURED: CorpusDocumentType[] = ["financial", "passport", "utility_bill", "id", "drivers_license"];

const isForgery = (recipe: Recipe) => recipe.method !== "genuine" && recipe.method !== "messaging";

export function planExternal(seed: number, size: ExternalSize): PlannedExternal[] {
  const docs: Omit<PlannedExternal, "split">[] = [];
  for (const family of EXTERNAL_FAMILIES) {
    for (const recipe of family.recipes) {
      const copies = isForgery(recipe) ? COPIES[size].forged : COPIES[size].genuine;
      const types = family.capture !== "native" && !isForgery(recipe) ? CAPTURED : FINANCE;
      for (let variant = 0; variant < copies; variant++) {
        docs.push({
          id: `x${String(docs.length + 1).padStart(4, "0")}`,
          family,
          recipe,
          documentType: types[variant % types.length]!,
          variant,
        });
      }
    }
  }
  const train = new Set<string>();
  const recipeKey = (d: Omit<PlannedExternal, "split">) =>
    `${d.family.generator}/${d.family.capture}/${d.recipe.kind}/${d.recipe.method}`;
  for (const key of new Set(docs.map(recipeKey))) {
    const ids = Rng.derive(seed, `external-split:${key}`).shuffle(
      docs.filter((d) => recipeKey(d) === key).map((d) => d.id),
    );
    ids.slice(0, Math.round(ids.length * 0.7)).forEach((id) => {
      train.add(id);
    });
  }
  return docs.map((d) => ({ ...d, split: train.has(d.id) ? "train" : "test" }));
}
