// Recaptured copies of genuine images, to measure the recapture cue against until a corpus
// holds real ones: each image shown on a screen (every pixel three sub-pixel stripes with a
// dark gap, as an LCD) or printed (a 45° halftone dot screen), then photographed (a slight
// turn, the lens's blur, a camera's resolution that does not match the screen's, sensor noise
// and a phone's JPEG). The same genuine images photographed without the screen or print in
// between are written too, so the cue is judged on both through the same capture. And each
// image as a black-and-white copy lying on a coloured desk, beside the image itself on the same
// desk, for the grey-copy cue (sidecar/cues/grey-document.ts).
// Run: bun scripts/eval/simulate-recapture.ts --corpus DIR --out OUT [--max N]
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { mulberry32 } from "../mulberry32.ts";

interface Raw {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * Each pixel as 3 x 3 screen cells: red, green and blue stripes, the bottom row the dark gap
 * between pixel rows.
 */
function onScreen({ data, width, height }: Raw): Raw {
  const w = width * 3;
  const h = height * 3;
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const gap = y % 3 === 2 ? 0.35 : 1;
    for (let x = 0; x < w; x++) {
      const src = (Math.floor(y / 3) * width + Math.floor(x / 3)) * 3;
      const channel = x % 3;
      out[(y * w + x) * 3 + channel] = Math.round(data[src + channel]! * gap);
    }
  }
  return { data: out, width: w, height: h };
}

/**
 * Luma and colour printed through a 45° dot screen of `period` pixels, twice the resolution of the
 * image.
 */
function onPaper({ data, width, height }: Raw, period: number): Raw {
  const w = width * 2;
  const h = height * 2;
  const out = new Uint8Array(w * h * 3);
  const c = Math.SQRT1_2;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const src = (Math.floor(y / 2) * width + Math.floor(x / 2)) * 3;
      const u = ((x * c + y * c) / period) % 1;
      const v = ((x * c - y * c + 1e6) / period) % 1;
      // Distance to the dot centre; a darker tone is a larger dot.
      // biome-ignore lint/suspicious/noApproximativeNumericConstant: the recorded recapture figures were simulated with this value
      const d = Math.hypot(u - 0.5, v - 0.5) / 0.7071;
      for (let ch = 0; ch < 3; ch++) {
        const ink = 1 - data[src + ch]! / 255;
        out[(y * w + x) * 3 + ch] = d < Math.sqrt(ink) ? 30 : 250;
      }
    }
  }
  return { data: out, width: w, height: h };
}

/** A copier's black-and-white copy: luma, its contrast raised as copiers raise it. */
function greyCopy({ data, width, height }: Raw): Raw {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i += 3) {
    const luma = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
    out[i] = out[i + 1] = out[i + 2] = Math.max(0, Math.min(255, (luma - 128) * 1.2 + 140));
  }
  return { data: out, width, height };
}

/** Desks and what lies on them: wood, a grey-blue laminate, a red folder, a green mat. */
const DESKS: [number, number, number][] = [
  [150, 105, 60],
  [112, 124, 140],
  [170, 40, 45],
  [60, 120, 80],
];

/**
 * `raw` lying on a desk of one of DESKS' colours, with a band of another across one side (a
 * folder, a sleeve, a page), in a frame half as large again each way.
 */
function onDesk({ data, width, height }: Raw, random: () => number): Raw {
  const w = Math.round(width * 1.5);
  const h = Math.round(height * 1.5);
  const desk = DESKS[Math.floor(random() * DESKS.length)]!;
  const band = DESKS[Math.floor(random() * DESKS.length)]!;
  const bandRows = Math.round(h * (0.1 + random() * 0.1));
  const left = Math.floor(random() * (w - width));
  const top = bandRows + Math.floor(random() * (h - height - bandRows));
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const inside = x >= left && x < left + width && y >= top && y < top + height;
      const o = (y * w + x) * 3;
      for (let ch = 0; ch < 3; ch++)
        out[o + ch] = inside ? data[((y - top) * width + (x - left)) * 3 + ch]! : (y < bandRows ? band : desk)[ch]!;
    }
  }
  return { data: out, width: w, height: h };
}

/**
 * What each medium puts between the document and the camera, and what its photo is labelled:
 * the order of the draws from `random` is the media's own, so one medium's images stay the same
 * whatever others are added.
 */
const MEDIA = {
  screen: { show: (raw: Raw) => onScreen(raw), kind: "recaptured_screen", genuine: false },
  print: {
    show: (raw: Raw, random: () => number) => onPaper(raw, 4 + random() * 2),
    kind: "recaptured_print",
    genuine: false,
  },
  none: { show: (raw: Raw) => raw, kind: "genuine_photo", genuine: true },
  grey_copy: {
    show: (raw: Raw, random: () => number) => onDesk(greyCopy(raw), random),
    kind: "recaptured_grey_copy",
    genuine: false,
  },
  desk: { show: (raw: Raw, random: () => number) => onDesk(raw, random), kind: "genuine_desk_photo", genuine: true },
} as const;
type RecaptureMedium = keyof typeof MEDIA;

/** Photographs `raw`: a turn, blur, a resize to `scale` of the original's size, noise, JPEG. */
async function photograph(raw: Raw, targetWidth: number, random: () => number): Promise<Buffer> {
  const angle = (random() - 0.5) * 4;
  const turned = await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 3 } })
    .rotate(angle, { background: "#808080" })
    .blur(0.6 + random() * 0.6)
    .resize({ width: targetWidth })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const noisy = new Uint8Array(turned.data.length);
  for (let i = 0; i < noisy.length; i++)
    noisy[i] = Math.max(0, Math.min(255, turned.data[i]! + (random() + random() + random() - 1.5) * 6));
  return sharp(noisy, { raw: { width: turned.info.width, height: turned.info.height, channels: 3 } })
    .jpeg({ quality: 80 + Math.floor(random() * 12) })
    .toBuffer();
}

async function recapture(image: Uint8Array, medium: RecaptureMedium, seed: number): Promise<Buffer> {
  const random = mulberry32(seed);
  const { data, info } = await sharp(image)
    .flatten({ background: "#ffffff" })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw: Raw = {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
  const shown = MEDIA[medium].show(raw, random);
  // The camera sees the page at about its own resolution, never a whole multiple of the screen's.
  return photograph(shown, Math.round(shown.width * (0.95 + random() * 0.3)), random);
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { corpus: { type: "string" }, out: { type: "string" }, max: { type: "string", default: "30" } },
  });
  if (!values.corpus || !values.out) throw new Error("usage: --corpus DIR --out OUT [--max N]");
  const labels = (await readFile(join(values.corpus, "labels.jsonl"), "utf8"))
    .split("\n")
    .filter(Boolean)
    .map(
      (l) =>
        JSON.parse(l) as {
          id: string;
          file: string;
          label: string;
          kind: string;
          documentType: string;
          format: string;
        },
    )
    .filter(
      (l) => l.label === "genuine" && l.format !== "pdf" && (l.kind === "genuine_clean" || l.kind === "genuine_scan"),
    )
    .slice(0, Number(values.max));
  await mkdir(values.out, { recursive: true });
  const out: string[] = [];
  for (const [n, label] of labels.entries()) {
    const bytes = new Uint8Array(await readFile(join(values.corpus, label.file)));
    for (const medium of Object.keys(MEDIA) as RecaptureMedium[]) {
      const id = `${medium[0]}${label.id}`;
      await writeFile(join(values.out, `${id}.jpg`), await recapture(bytes, medium, n * 3 + medium.length));
      const { kind, genuine } = MEDIA[medium];
      out.push(
        JSON.stringify({
          id,
          file: `${id}.jpg`,
          label: genuine ? "genuine" : "forged",
          kind,
          family: `simulated/${medium}`,
          documentType: label.documentType,
          format: "jpeg",
        }),
      );
    }
  }
  await writeFile(join(values.out, "labels.jsonl"), `${out.join("\n")}\n`);
  console.log(`${out.length} images in ${values.out}`);
}
