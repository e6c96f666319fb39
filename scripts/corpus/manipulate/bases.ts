// The genuine documents of a corpus folder that the manipulations start from, with the layout
// a forger would see on them: where each field and the portrait lie, and what they say.
// Identity cards are rendered images whose labels keep no field boxes, so each one is drawn
// again from the corpus seed exactly as make-identity.ts drew it, and the redrawing must give
// the very bytes of the file: a folder made with another seed stops the run instead of
// producing boxes that miss the fields.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { hasLabels, readLabels as readCorpusLabels } from "../../eval/corpus-input.ts";
import type { TemplateId } from "../assets.ts";
import { corpusToday } from "../clock.ts";
import { mrzForTemplate, pickPhoto, renderIdentityTemplate, type RenderedDocument } from "../identity/card.ts";
import { randomLicence, renderDriversLicence } from "../identity/drivers-license.ts";
import { randomIdentityDocument, randomPerson } from "../identity/person.ts";
import type { CorpusLabel } from "../labels.ts";
import type { Box } from "../render/svg.ts";
import { Rng } from "../rng.ts";

export type IdentityTemplate = TemplateId | "drivers_license";

export interface IdentityBase {
  label: CorpusLabel;
  template: IdentityTemplate;
  rendered: RenderedDocument;
}

/** Fields a forger changes on each template: dates, numbers and names. */
export const TARGET_FIELDS: Record<IdentityTemplate, readonly string[]> = {
  pp_td3_a: ["birth_date_field", "expires_field", "document_number_field", "family_name_field"],
  id_card_td2_a: ["birth_date_field", "document_number_field", "family_name_field_1"],
  id_card_td1_a: ["date_issued_field", "address_field_1", "height_field"],
  drivers_license: ["birth_field", "expiry_date_field", "licence_number_field", "surname_field"],
};

/** The portrait a swap replaces: the td1 card's back shows only its ghost image. */
export const PORTRAIT: Record<IdentityTemplate, string> = {
  pp_td3_a: "photo_image",
  id_card_td2_a: "photo_image",
  id_card_td1_a: "ghost_image",
  drivers_license: "photo_image",
};

function templateOf(source: string): IdentityTemplate | undefined {
  if (source === "docverify/eu_driving_licence") return "drivers_license";
  const t = source.replace(/^docxpand\//, "");
  return t === "pp_td3_a" || t === "id_card_td2_a" || t === "id_card_td1_a" ? t : undefined;
}

/** Draws an identity document of `template`: the draws make-identity.ts makes, in its order. */
export async function drawIdentity(rng: Rng, today: Date, template: IdentityTemplate): Promise<RenderedDocument> {
  const person = randomPerson(rng, today);
  const data = randomIdentityDocument(rng, today);
  const photo = pickPhoto(rng, person.sex);
  if (template === "drivers_license") return renderDriversLicence(person, data, randomLicence(rng), photo);
  return renderIdentityTemplate(template, person, data, photo, mrzForTemplate(template, person, data));
}

/** Redraws a genuine_clean identity document of the in-house corpus from its seed and id. */
function redraw(seed: number, label: CorpusLabel, template: IdentityTemplate): Promise<RenderedDocument> {
  return drawIdentity(Rng.derive(seed, label.id), corpusToday(seed), template);
}

export function readLabels(dir: string): CorpusLabel[] {
  if (!hasLabels(dir))
    throw new Error(
      `${join(dir, "labels.jsonl")} not found: make the corpus first (bun scripts/corpus/generate.ts --seed N --size full --out DIR)`,
    );
  return readCorpusLabels(dir);
}

/** The in-house corpus's clean identity renderings (ids d…), redrawn and checked byte for byte. */
export async function identityBases(seed: number, dir: string, labels: CorpusLabel[]): Promise<IdentityBase[]> {
  const asOf = corpusToday(seed).toISOString().slice(0, 10);
  const clean = labels.filter(
    (l) => l.id.startsWith("d") && l.kind === "genuine_clean" && l.format === "png" && templateOf(l.source),
  );
  if (clean.length === 0) throw new Error(`${dir} holds no genuine_clean identity image to start from`);
  const bases: IdentityBase[] = [];
  for (const label of clean) {
    if (label.asOf !== asOf)
      throw new Error(
        `${dir} was made with another seed than ${seed} (its clock says ${label.asOf}): make it with --seed ${seed}`,
      );
    const template = templateOf(label.source) as IdentityTemplate;
    const rendered = await redraw(seed, label, template);
    const bytes = await readFile(join(dir, label.file));
    if (!rendered.png.equals(bytes))
      throw new Error(`${label.file} is not what seed ${seed} draws: make ${dir} with --seed ${seed}`);
    bases.push({ label, template, rendered });
  }
  return bases;
}

export function fieldBox(base: Pick<IdentityBase, "rendered">, field: string): Box {
  const box = base.rendered.boxes[field];
  if (!box) throw new Error(`${base.rendered.template} has no box for ${field}`);
  return box;
}
