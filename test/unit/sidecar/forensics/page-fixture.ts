// Statement pages and their forgeries, made by the tests themselves: the seeded statement
// rendered to RGB (test/helpers/pages.ts), saved as JPEG with sharp. Line boxes come from
// mupdf's structured text, standing in for what the OCR would return.
import sharp from "sharp";
import { Rng } from "../../../../scripts/corpus/rng.ts";
import type { OcrLine } from "../../../../sidecar/forensics/types.ts";
import { type PrintedLine, renderPrintedWithLines } from "../../../helpers/pages.ts";
import { AMOUNT_X, seededAmount, seededStatement } from "../../../helpers/statements.ts";

export interface Page {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/**
 * Renders the lines on an A4 page at `dpi`; also returns each printed line's box in pixels, as OCR
 * lines.
 */
export function render(lines: PrintedLine[], dpi: number): { page: Page; lines: OcrLine[] } {
  const { image, lines: ocrLines } = renderPrintedWithLines(lines, { dpi });
  return { page: { rgb: image.data, width: image.width, height: image.height }, lines: ocrLines };
}

export async function toJpeg(page: Page, quality: number): Promise<Uint8Array> {
  const raw = { width: page.width, height: page.height, channels: 3 as const };
  return new Uint8Array(await sharp(page.rgb, { raw }).jpeg({ quality }).toBuffer());
}

export async function decode(bytes: Uint8Array): Promise<Page> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

export async function resize(page: Page, width: number): Promise<Page> {
  const raw = { width: page.width, height: page.height, channels: 3 as const };
  const { data, info } = await sharp(page.rgb, { raw }).resize({ width }).raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** Copies a w x h rectangle from (sx, sy) in `from` to (tx, ty) in `to`. */
function paste(from: Page, to: Page, sx: number, sy: number, tx: number, ty: number, w: number, h: number): void {
  for (let y = 0; y < h; y++) {
    const src = ((sy + y) * from.width + sx) * 3;
    to.rgb.set(from.rgb.subarray(src, src + w * 3), ((ty + y) * to.width + tx) * 3);
  }
}

export interface Forgery {
  jpeg: Uint8Array;
  page: Page;
  lines: OcrLine[];
}

const DPI = 150;

/**
 * Makes a rendered page look scanned, in place: greyish paper (~242) and ink (~25) instead of
 * pure white and black, with mild sensor noise. Needed wherever double quantisation is
 * measured: on pure white paper every decoded text block is clipped at 255, which moves its
 * coefficients off the first compression's lattice.
 */
function scanLike(page: Page, seed: number): Page {
  const rng = new Rng(seed * 31337 + 5);
  for (let i = 0; i < page.rgb.length; i += 3) {
    const noise = Math.round((rng.float() + rng.float() + rng.float() - 1.5) * 4);
    page.rgb.fill(Math.max(0, Math.min(255, Math.round(25 + page.rgb[i]! * 0.85) + noise)), i, i + 3);
  }
  return page;
}

/**
 * Prints a security background under a rendered page, in place and without sensor noise: faint
 * wavy lines (a guilloche's) five pixels apart over the paper, in bands that leave every other
 * band of the page plain, as an identity card's design does around its fields.
 */
function guillocheLike(page: Page): Page {
  for (let y = 0; y < page.height; y++) {
    if (Math.floor(y / 48) % 2 === 1) continue;
    for (let x = 0; x < page.width; x++) {
      const wave = (y + 3 * Math.sin(x / 11)) % 5;
      if (wave < 0 || wave >= 1) continue;
      const i = (y * page.width + x) * 3;
      if (page.rgb[i]! > 200) page.rgb.fill(page.rgb[i]! - 10, i, i + 3);
    }
  }
  return page;
}

/**
 * A genuine statement saved once as JPEG at `quality`, then re-saved at each of `resaves`;
 * its paper clean, scan-like or under a security print's fine lines.
 */
export async function genuine(
  seed: number,
  quality = 85,
  resaves: number[] = [],
  paper: "clean" | "scanned" | "guilloche" = "clean",
): Promise<Forgery> {
  const { page, lines } = render(seededStatement(seed), DPI);
  if (paper === "scanned") scanLike(page, seed);
  if (paper === "guilloche") guillocheLike(page);
  let jpeg = await toJpeg(page, quality);
  for (const q of resaves) jpeg = await toJpeg(await decode(jpeg), q);
  return { jpeg, page: await decode(jpeg), lines };
}

/**
 * White-out and retype: the amount on one row is replaced by a box of white with other
 * digits, made separately and JPEG-compressed at `snippetQuality` (or left uncompressed when
 * null), pasted into the genuine page decoded from JPEG `baseQuality`, and the whole page
 * saved again at `finalQuality`; page and snippet scan-like when `scanned`.
 */
export async function retyped(
  seed: number,
  snippetQuality: number | null,
  finalQuality: number,
  baseQuality = 85,
  scanned = false,
): Promise<Forgery & { target: number }> {
  const rng = new Rng(seed * 7919 + 1);
  const printed = seededStatement(seed);
  const { page, lines } = render(printed, DPI);
  if (scanned) scanLike(page, seed);
  const base = await decode(await toJpeg(page, baseQuality));
  const amounts = printed.map((p, i) => ({ p, i })).filter(({ p }) => p.x === AMOUNT_X);
  const { p: victim } = rng.pick(amounts);
  const replacement = { ...victim, text: seededAmount(rng) };
  const snippetPage = render([replacement], DPI);
  if (scanned) scanLike(snippetPage.page, seed + 1000);
  const target = lines.findIndex((l) => l.text.trim() === victim.text);
  if (target < 0) throw new Error("victim line not found in the rendered text");
  const newBox = snippetPage.lines[0]!.box;
  const oldBox = lines[target]!.box;
  const margin = 4;
  const x0 = Math.min(oldBox[0], newBox[0]) - margin;
  const y0 = Math.min(oldBox[1], newBox[1]) - margin;
  const x1 = Math.max(oldBox[0] + oldBox[2], newBox[0] + newBox[2]) + margin;
  const y1 = Math.max(oldBox[1] + oldBox[3], newBox[1] + newBox[3]) + margin;
  const snippet = await cropJpeg(snippetPage.page, x0, y0, x1 - x0, y1 - y0, snippetQuality);
  paste(snippet, base, 0, 0, x0, y0, snippet.width, snippet.height);
  const jpeg = await toJpeg(base, finalQuality);
  const forgedLines = lines.map((l, i) => (i === target ? { ...l, text: replacement.text, box: newBox } : l));
  return { jpeg, page: await decode(jpeg), lines: forgedLines, target };
}

async function cropJpeg(page: Page, x: number, y: number, w: number, h: number, quality: number | null): Promise<Page> {
  const raw = { width: page.width, height: page.height, channels: 3 as const };
  const crop = sharp(page.rgb, { raw }).extract({ left: x, top: y, width: w, height: h });
  if (quality === null) {
    const { data, info } = await crop.raw().toBuffer({ resolveWithObject: true });
    return {
      rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
    };
  }
  return decode(new Uint8Array(await crop.jpeg({ quality }).toBuffer()));
}

/**
 * Copy-move: a 60x30 patch around one amount's digits copied over another row's amount
 * (`into: "text"`) or into the blank right margin beside another row (`into: "margin"`), on a
 * scan-like page (`scanned`, the default) or on the clean render.
 */
export async function copyMoved(
  seed: number,
  into: "text" | "margin",
  { scanned = true }: { scanned?: boolean } = {},
): Promise<Forgery & { source: [number, number]; target: [number, number] }> {
  const rng = new Rng(seed * 104729 + 3);
  const { page, lines } = render(seededStatement(seed), DPI);
  if (scanned) scanLike(page, seed);
  const base = await decode(await toJpeg(page, 85));
  const amountLines = lines.filter((l) => l.box[0] > 700 && l.box[0] < 900);
  const from = rng.pick(amountLines);
  let to = rng.pick(amountLines);
  while (to === from) to = rng.pick(amountLines);
  const source: [number, number] = [from.box[0] + rng.int(0, 8), from.box[1] + Math.round(from.box[3] / 2) - 15];
  const targetX = into === "text" ? to.box[0] + rng.int(0, 8) : rng.int(1000, 1150);
  const target: [number, number] = [targetX, to.box[1] + Math.round(to.box[3] / 2) - 15];
  paste(decodeCopy(base), base, source[0], source[1], target[0], target[1], 60, 30);
  const jpeg = await toJpeg(base, 85);
  return { jpeg, page: await decode(jpeg), lines, source, target };
}

const decodeCopy = (page: Page): Page => ({ ...page, rgb: page.rgb.slice() });
