// Genuine identity documents: a DocXPand template filled with a random person, a valid
// MRZ and a portrait, rendered to pixels, with the pixel box of every filled field.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { PHOTOS, PHOTOS_DIR, type TemplateId } from "../assets.ts";
import { formatDate } from "../clock.ts";
import type { Rng } from "../rng.ts";
import { type Box, renderSvg } from "../render/svg.ts";
import { composeMrz, type MrzFormat } from "./mrz.ts";
import type { IdentityDocumentData, Person } from "./person.ts";
import { elementBox, loadTemplate, setImage, setText } from "./template-fill.ts";

export interface RenderedDocument {
  png: Buffer;
  width: number;
  height: number;
  /** Field name → pixel box in `png`. */
  boxes: Record<string, Box>;
  /** Field name → printed value. */
  values: Record<string, string>;
  mrz?: { format: MrzFormat; lines: string[] };
  template: string;
  photo?: string;
  /** The filled SVG that was rendered, for measuring glyphs later. */
  svg: string;
}

interface TemplateSpec {
  width: number;
  mrzFormat: MrzFormat;
  documentCode: string;
  photoIds: string[];
  fields: (p: Person, d: IdentityDocumentData) => Record<string, string>;
  mrzIds: string[];
}

function splitTwo(words: string[], max: number): [string, string] {
  const first: string[] = [];
  const rest: string[] = [];
  for (const w of words) (first.join(" ").length + w.length < max && rest.length === 0 ? first : rest).push(w);
  return [first.join(" "), rest.join(" ")];
}

const SPECS: Record<TemplateId, TemplateSpec> = {
  pp_td3_a: {
    width: 1476,
    mrzFormat: "TD3",
    documentCode: "P",
    photoIds: ["photo_image", "ghost_image"],
    mrzIds: ["mrz_field_1", "mrz_field_2"],
    fields: (p, d) => ({
      type_field: "P",
      country_code_field: d.issuingState.replace(/</g, ""),
      document_number_field: d.documentNumber,
      document_number_bis_field: d.documentNumber,
      family_name_field: p.surname.toUpperCase(),
      given_name_field: p.givenNames.join(", "),
      nationality_field: d.nationality.replace(/</g, ""),
      gender_field: p.sex,
      height_field: `${(p.heightCm / 100).toFixed(2)} m`,
      eyes_color_field: p.eyes,
      birth_date_field: formatDate(p.birthDate),
      birth_place_field: p.birthPlace.toUpperCase(),
      address_field_1: p.address[0],
      address_field_2: p.address[1],
      address_field_3: p.address[2],
      date_issued_field: formatDate(d.issueDate),
      authority_field: d.authority,
      expires_field: formatDate(d.expiryDate),
    }),
  },
  id_card_td2_a: {
    width: 1240,
    mrzFormat: "TD2",
    documentCode: "I",
    photoIds: ["photo_image"],
    mrzIds: ["mrz_field_1", "mrz_field_2"],
    fields: (p, d) => {
      const [g1, g2] = splitTwo(p.givenNames, 18);
      return {
        document_number_field: d.documentNumber,
        family_name_field_1: p.surname.toUpperCase(),
        family_name_field_2: "",
        given_name_field_1: g1,
        given_name_field_2: g2,
        initials_field: `${p.givenNames[0]?.[0] ?? ""}${p.surname[0] ?? ""}`,
        gender_field: p.sex,
        birth_date_field: formatDate(p.birthDate),
        birth_place_field: p.birthPlace,
        height_field: `${(p.heightCm / 100).toFixed(2)} m`,
        signature_field: p.surname,
      };
    },
  },
  id_card_td1_a: {
    width: 1011,
    mrzFormat: "TD1",
    documentCode: "I",
    photoIds: ["ghost_image"],
    mrzIds: ["mrz_field_1", "mrz_field_2", "mrz_field_3"],
    fields: (p, d) => ({
      height_field: `${p.heightCm} cm`,
      date_issued_field: formatDate(d.issueDate),
      authority_field: d.authority,
      address_field_1: p.address[0],
      address_field_2: p.address[1],
      address_field_3: p.address[2],
    }),
  },
};

export function mrzForTemplate(t: TemplateId, p: Person, d: IdentityDocumentData): string[] {
  const spec = SPECS[t];
  return composeMrz(spec.mrzFormat, p, {
    documentCode: spec.documentCode,
    issuingState: d.issuingState,
    documentNumber: d.documentNumber,
    nationality: d.nationality,
    birthDate: p.birthDate,
    sex: p.sex,
    expiryDate: d.expiryDate,
    optional: "",
  });
}

export async function photoDataUri(photo: string, gray = false): Promise<string> {
  const bytes = readFileSync(join(PHOTOS_DIR, photo));
  const img = gray ? await sharp(bytes).grayscale().jpeg({ quality: 85 }).toBuffer() : bytes;
  return `data:image/jpeg;base64,${img.toString("base64")}`;
}

export function pickPhoto(rng: Rng, sex: Person["sex"]): string {
  return rng.pick(PHOTOS.filter((f) => f.startsWith(sex === "M" ? "man" : "woman")));
}

/** Renders template `t` for one person, with the MRZ lines given (genuine or altered). */
export async function renderIdentityTemplate(
  t: TemplateId,
  p: Person,
  d: IdentityDocumentData,
  photo: string,
  mrzLines: string[],
): Promise<RenderedDocument> {
  const spec = SPECS[t];
  let svg = loadTemplate(t);
  const values = spec.fields(p, d);
  for (const [id, v] of Object.entries(values)) svg = setText(svg, id, v);
  spec.mrzIds.forEach((id, i) => {
    svg = setText(svg, id, mrzLines[i] ?? "");
  });
  for (const id of spec.photoIds) svg = setImage(svg, id, await photoDataUri(photo, id === "ghost_image"));
  const rendered = renderSvg(svg, spec.width);
  const boxes: Record<string, Box> = {};
  for (const id of [...Object.keys(values), ...spec.mrzIds, ...spec.photoIds]) {
    if (values[id] === "") continue;
    const box = elementBox(svg, id, rendered.width);
    if (box) boxes[id] = box;
  }
  return {
    png: rendered.png,
    width: rendered.width,
    height: rendered.height,
    boxes,
    values: { ...values, ...Object.fromEntries(spec.mrzIds.map((id, i) => [id, mrzLines[i] ?? ""])) },
    mrz: { format: spec.mrzFormat, lines: mrzLines },
    template: `docxpand/${t}`,
    photo,
    svg,
  };
}
