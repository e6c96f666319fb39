// Pixel edits a forger makes on a document image, and the editor's re-save that follows.
import sharp from "sharp";
import { type Box, escapeXml, renderSvg } from "../render/svg.ts";
import type { Rng } from "../rng.ts";
import { upperMedian } from "../../../src/numeric.ts";
import { type CapturedImage, exifDate } from "./capture.ts";

export interface Pixels {
  data: Uint8Array;
  width: number;
  height: number;
}

export async function decode(bytes: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

function clip(p: Pixels, b: Box): Box {
  const x = Math.max(0, Math.min(p.width - 1, Math.round(b.x)));
  const y = Math.max(0, Math.min(p.height - 1, Math.round(b.y)));
  return {
    x,
    y,
    w: Math.max(1, Math.min(p.width - x, Math.round(b.w))),
    h: Math.max(1, Math.min(p.height - y, Math.round(b.h))),
  };
}

/**
 * Paper colour around a box: the upper median of a thin ring just outside it, 0 for a ring
 * off the image. Not the mean of the two middle values: a paper colour must be a value that
 * occurs, and the corpus's bytes (pinned by seed) depend on this choice.
 */
function backgroundAround(p: Pixels, b: Box): [number, number, number] {
  const ch: number[][] = [[], [], []];
  const take = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= p.width || y >= p.height) return;
    const o = (y * p.width + x) * 3;
    for (let c = 0; c < 3; c++) ch[c]!.push(p.data[o + c]!);
  };
  for (let x = b.x - 3; x < b.x + b.w + 3; x++) {
    take(x, b.y - 3);
    take(x, b.y + b.h + 2);
  }
  for (let y = b.y; y < b.y + b.h; y++) {
    take(b.x - 3, y);
    take(b.x + b.w + 2, y);
  }
  const paper = (values: number[]) => (values.length === 0 ? 0 : upperMedian(values));
  return [paper(ch[0]!), paper(ch[1]!), paper(ch[2]!)];
}

/**
 * Ink colour inside a box: the mean of its darkest tenth, or of its lightest where that lies
 * farther from the paper. A card that prints light text on a dark ground (the TD2 card's
 * green) has its darkest tenth in the ground's pattern, and a retype in that colour is one no
 * forger would type and no reader can read.
 */
function inkIn(p: Pixels, b: Box, paper: [number, number, number]): [number, number, number] {
  const px: Array<[number, number, number, number]> = [];
  for (let y = b.y; y < b.y + b.h; y++)
    for (let x = b.x; x < b.x + b.w; x++) {
      const o = (y * p.width + x) * 3;
      const r = p.data[o]!;
      const g = p.data[o + 1]!;
      const bl = p.data[o + 2]!;
      px.push([r + g + bl, r, g, bl]);
    }
  px.sort((a, b) => a[0] - b[0]);
  const tenth = Math.max(1, Math.floor(px.length / 10));
  const mean = (part: typeof px): [number, number, number] => {
    const channel = (i: 1 | 2 | 3) => Math.round(part.reduce((a, v) => a + v[i], 0) / part.length);
    return [channel(1), channel(2), channel(3)];
  };
  const dark = mean(px.slice(0, tenth));
  const light = mean(px.slice(-tenth));
  const distance = (c: [number, number, number]) => Math.hypot(c[0] - paper[0], c[1] - paper[1], c[2] - paper[2]);
  return distance(light) > distance(dark) ? light : dark;
}

function hex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

export interface Patch {
  input: Buffer;
  left: number;
  top: number;
}

/** White-out and retype: paper colour over `box`, then `text` in `fontFamily` fitted to it. */
export function retypePatches(p: Pixels, box: Box, text: string, fontFamily: string): Patch[] {
  const b = clip(p, box);
  const paper = backgroundAround(p, b);
  const ink = inkIn(p, b, paper);
  const size = b.h * 0.8;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${b.w}" height="${b.h}" viewBox="0 0 ${b.w} ${b.h}"><rect width="${b.w}" height="${b.h}" fill="${hex(paper)}"/><text x="0" y="${(b.h * 0.82).toFixed(1)}" font-family="${fontFamily}" font-size="${size.toFixed(1)}" fill="${hex(ink)}" textLength="${b.w - 1}" lengthAdjust="spacingAndGlyphs">${escapeXml(text)}</text></svg>`;
  const png = renderSvg(svg, b.w).png;
  return [{ input: png, left: b.x, top: b.y }];
}

/** A region of the image itself, copied elsewhere (copy-move). */
export async function regionPng(p: Pixels, b: Box): Promise<Buffer> {
  const c = clip(p, b);
  return sharp(p.data, { raw: { width: p.width, height: p.height, channels: 3 } })
    .extract({ left: c.x, top: c.y, width: c.w, height: c.h })
    .png()
    .toBuffer();
}

export async function fitPatch(png: Buffer, b: Box): Promise<Patch> {
  return { input: await sharp(png).resize(b.w, b.h, { fit: "fill" }).png().toBuffer(), left: b.x, top: b.y };
}

export interface EditorSave {
  /** EXIF Software written by the editor, when it writes one. */
  software?: string;
  keepCameraExif: boolean;
  when: Date;
}

export const EDITORS = [
  "Adobe Photoshop 25.0 (Windows)",
  "Adobe Photoshop 24.7 (Macintosh)",
  "GIMP 2.10.36",
  "Pixelmator Pro 3.5",
  "Canva",
];

/** Applies the patches and saves the way an image editor does (a second JPEG compression). */
export async function saveEdited(
  rng: Rng,
  original: CapturedImage,
  p: Pixels,
  patches: Patch[],
  save: EditorSave,
): Promise<CapturedImage> {
  let img = sharp(p.data, { raw: { width: p.width, height: p.height, channels: 3 } }).composite(patches);
  const exif: Record<string, Record<string, string>> = {};
  if (save.keepCameraExif) {
    const m = await sharp(original.bytes).metadata();
    if (m.exif && original.camera) {
      const [make, ...model] = original.camera.split(" ");
      exif.IFD0 = { Make: make ?? "", Model: model.join(" ") };
    }
  }
  if (save.software) exif.IFD0 = { ...(exif.IFD0 ?? {}), Software: save.software, DateTime: exifDate(save.when) };
  if (Object.keys(exif).length) img = img.withExif(exif);
  const quality = rng.int(80, 98);
  const bytes = await img.jpeg({ quality }).toBuffer();
  return {
    ...original,
    bytes,
    format: "jpeg",
    quality,
    history: [...original.history, `edit:${save.software ?? "unnamed editor"}:jpeg@${quality}`],
  };
}
