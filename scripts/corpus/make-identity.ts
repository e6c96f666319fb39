// Passports, ID cards and driver's licences, genuine and forged, as images.
import { join } from "node:path";
import { parse as parseMrz } from "mrz";
import sharp from "sharp";
import { PHOTOS, PHOTOS_DIR, type TemplateId } from "./assets.ts";
import { addYears } from "./clock.ts";
import { mrzForTemplate, pickPhoto, renderIdentityTemplate, type RenderedDocument } from "./identity/card.ts";
import { glyphCells } from "./identity/template-fill.ts";
import { randomLicence, renderDriversLicence } from "./identity/drivers-license.ts";
import { MRZ_FIELDS, mrzDate } from "./identity/mrz.ts";
import { type IdentityDocumentData, type Person, randomIdentityDocument, randomPerson } from "./identity/person.ts";
import { type CapturedImage, messagingResave, photograph, recompress, scan } from "./image/capture.ts";
import { decode, EDITORS, fitPatch, type Patch, regionPng, retypePatches, saveEdited } from "./image/forge.ts";
import { FORGERY_KINDS, type ForgeryRegion, GENUINE_KINDS, type Kind, type MadeDocument } from "./labels.ts";
import type { PlannedDocument } from "./plan.ts";
import type { Box } from "./render/svg.ts";
import type { Rng } from "./rng.ts";

interface Identity {
  template: TemplateId | "drivers_license";
  person: Person;
  data: IdentityDocumentData;
  photo: string;
  mrz?: string[];
}

function chooseTemplate(doc: PlannedDocument): Identity["template"] {
  if (doc.documentType === "passport") return "pp_td3_a";
  // Alternate per kind as well as per copy, so that even one copy of each kind shows both cards.
  const k = [...GENUINE_KINDS, ...FORGERY_KINDS].indexOf(doc.kind as never);
  if (doc.documentType === "id") return (doc.variant + k) % 2 === 0 ? "id_card_td2_a" : "id_card_td1_a";
  return "drivers_license";
}

function newIdentity(rng: Rng, today: Date, template: Identity["template"]): Identity {
  const person = randomPerson(rng, today);
  const data = randomIdentityDocument(rng, today);
  const photo = pickPhoto(rng, person.sex);
  return {
    template,
    person,
    data,
    photo,
    mrz: template === "drivers_license" ? undefined : mrzForTemplate(template, person, data),
  };
}

async function render(rng: Rng, id: Identity, mrz = id.mrz): Promise<RenderedDocument> {
  if (id.template === "drivers_license") return renderDriversLicence(id.person, id.data, randomLicence(rng), id.photo);
  return renderIdentityTemplate(id.template, id.person, id.data, id.photo, mrz ?? []);
}

// The face each template prints its fields in, and a plausible wrong one for retyping.
const FIELD_FONT: Record<Identity["template"], { same: string; other: string }> = {
  pp_td3_a: { same: "Open Sans", other: "Space Grotesk Light" },
  id_card_td2_a: { same: "Bellefair", other: "Gill Sans" },
  id_card_td1_a: { same: "Space Grotesk Light", other: "Open Sans" },
  drivers_license: { same: "Space Grotesk Light", other: "Open Sans" },
};

/** Fields worth forging on each template (dates and numbers first: that is what fraud changes). */
const TARGET_FIELDS: Record<Identity["template"], string[]> = {
  pp_td3_a: ["birth_date_field", "expires_field", "document_number_field", "family_name_field"],
  id_card_td2_a: ["birth_date_field", "document_number_field", "family_name_field_1"],
  id_card_td1_a: ["date_issued_field", "address_field_1", "height_field"],
  drivers_license: ["birth_field", "expiry_date_field", "licence_number_field", "surname_field"],
};

const PORTRAIT: Record<Identity["template"], string> = {
  pp_td3_a: "photo_image",
  id_card_td2_a: "photo_image",
  id_card_td1_a: "ghost_image",
  drivers_license: "photo_image",
};

/** A plausible fraudulent change of a printed value: a year moved, a digit, or a name. */
function alterValue(rng: Rng, value: string, otherSurname: string): string {
  const year = value.match(/(?:19|20)\d\d/);
  if (year && year.index !== undefined) {
    const shifted = Number(year[0]) + (rng.chance(0.5) ? -1 : 1) * rng.int(1, 6);
    return value.slice(0, year.index) + String(shifted) + value.slice(year.index + 4);
  }
  // Never the leading digit: a changed first digit is a change of magnitude nobody makes.
  const digits = [...value].map((c, i) => (c >= "0" && c <= "9" ? i : -1)).filter((i) => i > 0);
  if (digits.length === 0) return value === value.toUpperCase() ? otherSurname.toUpperCase() : otherSurname;
  for (;;) {
    const i = rng.pick(digits);
    const d = String(rng.int(0, 9));
    if (d !== value[i]) return value.slice(0, i) + d + value.slice(i + 1);
  }
}

async function capture(
  rng: Rng,
  png: Buffer,
  today: Date,
  style: "scan" | "photo" | "flat-photo",
): Promise<CapturedImage> {
  if (style === "scan") return scan(rng, png, today);
  return photograph(rng, png, today, style === "flat-photo" ? 0.3 : 1);
}

function region(field: string, box: Box, from: string, to: string): ForgeryRegion {
  return { page: 0, unit: "px", box, field, from, to };
}

function editorSave(rng: Rng, today: Date, alwaysNamed = false) {
  const named = alwaysNamed || rng.chance(0.5);
  return { software: named ? rng.pick(EDITORS) : undefined, keepCameraExif: rng.chance(0.5), when: today };
}

export async function makeIdentityDocument(doc: PlannedDocument, rng: Rng, today: Date): Promise<MadeDocument> {
  const id = newIdentity(rng, today, chooseTemplate(doc));
  const source = id.template === "drivers_license" ? "docverify/eu_driving_licence" : `docxpand/${id.template}`;
  const base = { generator: "resvg" as const, source };
  const kind: Kind = doc.kind;

  if (kind === "mrz_altered_bad_checksum" || kind === "mrz_altered_recomputed") {
    return alterMrz(rng, today, id, kind, base);
  }

  const rendered = await render(rng, id);
  const mrz = rendered.mrz;
  if (kind === "genuine_clean") return { ...base, bytes: rendered.png, format: "png", history: ["render:png"], mrz };

  const style =
    kind === "genuine_scan"
      ? "scan"
      : kind === "genuine_photo" || kind === "genuine_messaging"
        ? "photo"
        : rng.chance(0.5)
          ? "scan"
          : "flat-photo";
  let img = await capture(rng, rendered.png, today, style);
  if (kind === "genuine_scan" || kind === "genuine_photo") return done(base, img, mrz);
  if (kind === "genuine_messaging") return done(base, await messagingResave(rng, img), mrz);
  if (kind === "genuine_recompressed") {
    if (img.format === "png") img = await photograph(rng, rendered.png, today, 0.5);
    return done(base, await recompress(rng, img), mrz);
  }

  const pixels = await decode(img.bytes);
  const fonts = FIELD_FONT[id.template];
  const fieldId = rng.pick(TARGET_FIELDS[id.template].filter((f) => rendered.boxes[f]));
  const fieldBox = img.map(rendered.boxes[fieldId] as Box);
  const oldValue = rendered.values[fieldId] ?? "";
  let patches: Patch[] = [];
  let regions: ForgeryRegion[] = [];
  let save = editorSave(rng, today);

  if (kind === "image_retype" || kind === "image_double_compression") {
    const newValue = alterValue(rng, oldValue, randomPerson(rng, today).surname);
    patches = retypePatches(pixels, fieldBox, newValue, kind === "image_retype" ? fonts.other : fonts.same);
    regions = [region(fieldId, fieldBox, oldValue, newValue)];
    if (kind === "image_double_compression") save = editorSave(rng, today, rng.chance(0.6));
  } else if (kind === "image_copy_move") {
    ({ patches, regions } = await copyMoveDigit(rng, pixels, rendered, img, fieldId));
  } else if (kind === "image_splice_portrait") {
    const portraitId = PORTRAIT[id.template];
    const box = img.map(rendered.boxes[portraitId] as Box);
    const donor = rng.pick(PHOTOS.filter((p) => p !== id.photo));
    const donorPng = await sharp(join(PHOTOS_DIR, donor))
      .modulate({ brightness: rng.float(0.92, 1.08) })
      .png()
      .toBuffer();
    const gray = portraitId === "ghost_image" ? await sharp(donorPng).grayscale().png().toBuffer() : donorPng;
    patches = [await fitPatch(gray, box)];
    regions = [region(portraitId, box, id.photo, donor)];
  } else if (kind === "image_splice_field") {
    const donorId = newIdentity(rng, today, id.template);
    const donorRendered = await render(rng, donorId);
    const donorImg = await scan(rng, donorRendered.png, today);
    const donorBox = donorImg.map(donorRendered.boxes[fieldId] as Box);
    const patchPng = await regionPng(await decode(donorImg.bytes), {
      ...donorBox,
      w: Math.max(donorBox.w, fieldBox.w),
    });
    const target = { ...fieldBox, w: Math.max(donorBox.w, fieldBox.w) };
    patches = [await fitPatch(patchPng, target)];
    regions = [region(fieldId, target, oldValue, donorRendered.values[fieldId] ?? "")];
  } else {
    throw new Error(`no identity maker for kind ${kind}`);
  }
  const forged = await saveEdited(rng, img, pixels, patches, save);
  return {
    ...base,
    bytes: forged.bytes,
    format: "jpeg",
    history: ["render:png", ...forged.history],
    mrz,
    forgery: { regions, software: save.software },
  };
}

function done(
  base: { generator: "resvg"; source: string },
  img: CapturedImage,
  mrz: RenderedDocument["mrz"],
): MadeDocument {
  return { ...base, bytes: img.bytes, format: img.format, history: ["render:png", ...img.history], mrz };
}

/** Copies one digit glyph of a field over another digit of the same field. */
async function copyMoveDigit(
  rng: Rng,
  pixels: Awaited<ReturnType<typeof decode>>,
  rendered: RenderedDocument,
  img: CapturedImage,
  fieldId: string,
): Promise<{ patches: Patch[]; regions: ForgeryRegion[] }> {
  const value = rendered.values[fieldId] ?? "";
  const cells = glyphCells(rendered.svg, fieldId, value, rendered.width);
  const positions = [...value].map((c, i) => (c >= "0" && c <= "9" ? i : -1)).filter((i) => i >= 0);
  // In a date only the day's units and the year's last two digits change plausibly.
  const date = value.search(/\d\d\.\d\d\.\d{4}/);
  const targets = date >= 0 ? [date + 1, date + 8, date + 9] : positions.filter((i) => i > 0);
  const pairs: Array<[number, number]> = [];
  for (const a of positions) for (const b of targets) if (value[a] !== value[b]) pairs.push([a, b]);
  const cell = (i: number): Box => cells[i] as Box;
  if (pairs.length === 0) {
    // A field without two different digits: move a whole glyph cell from the field's start.
    const to = cell(value.length - 1);
    const from = cell(0);
    const dst = img.map(to);
    return {
      patches: [await fitPatch(await regionPng(pixels, img.map(from)), dst)],
      regions: [region(fieldId, dst, value, value.slice(0, -1) + value[0])],
    };
  }
  const [src, dstIdx] = rng.pick(pairs);
  const dst = img.map(cell(dstIdx));
  const patch = await fitPatch(await regionPng(pixels, img.map(cell(src))), dst);
  const to = value.slice(0, dstIdx) + value[src] + value.slice(dstIdx + 1);
  return { patches: [patch], regions: [region(fieldId, dst, value, to)] };
}

/**
 * The birth date in the MRZ is moved a few years back and the MRZ line retyped in OCR-B:
 * with the old check digits (which then fail) or with recomputed ones (which pass, while
 * the visual zone still shows the true date).
 */
async function alterMrz(
  rng: Rng,
  today: Date,
  id: Identity,
  kind: "mrz_altered_bad_checksum" | "mrz_altered_recomputed",
  base: { generator: "resvg"; source: string },
): Promise<MadeDocument> {
  if (id.template === "drivers_license" || !id.mrz) throw new Error("driver's licences carry no MRZ");
  const format = MRZ_FIELDS[id.template === "pp_td3_a" ? "TD3" : id.template === "id_card_td2_a" ? "TD2" : "TD1"];
  const [line, start, end] = format.birthDate;
  let forgedLines: string[] = [];
  let newBirth = id.person.birthDate;
  for (let years = rng.int(2, 9); ; years++) {
    newBirth = addYears(id.person.birthDate, -years);
    if (kind === "mrz_altered_recomputed") {
      forgedLines = mrzForTemplate(id.template, { ...id.person, birthDate: newBirth }, id.data);
      break;
    }
    const l = id.mrz[line] as string;
    forgedLines = [...id.mrz];
    forgedLines[line] = l.slice(0, start) + mrzDate(newBirth) + l.slice(end);
    if (!parseMrz(forgedLines).valid) break;
  }
  const rendered = await render(rng, id);
  const img = await capture(rng, rendered.png, today, rng.chance(0.6) ? "scan" : "flat-photo");
  const pixels = await decode(img.bytes);
  const lineId = `mrz_field_${line + 1}`;
  const box = img.map(rendered.boxes[lineId] as Box);
  const patches = retypePatches(pixels, box, forgedLines[line] as string, "OcrB");
  const save = editorSave(rng, today);
  const forged = await saveEdited(rng, img, pixels, patches, save);
  return {
    ...base,
    bytes: forged.bytes,
    format: "jpeg",
    history: ["render:png", ...forged.history],
    mrz: { format: rendered.mrz?.format ?? "TD3", lines: forgedLines },
    forgery: {
      regions: [region("mrz.birthDate", box, id.mrz[line] as string, forgedLines[line] as string)],
      software: save.software,
    },
  };
}
