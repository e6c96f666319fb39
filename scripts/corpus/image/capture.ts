// How a genuine document reaches a bank as an image: scanned, or photographed with a phone
// (perspective, uneven light, blur, sensor noise, JPEG, camera EXIF), sometimes passed
// through a messaging app (downscaled, recompressed, metadata stripped) or re-saved once.
import sharp from "sharp";
import type { Box } from "../render/svg.ts";
import type { Rng } from "../rng.ts";
import { homography, mapBox, type Point, warpInto } from "./warp.ts";

type ImageFormat = "jpeg" | "png";

export interface CapturedImage {
  bytes: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
  /** Maps a box of the source rendering to this image's pixels. */
  map: (b: Box) => Box;
  quality?: number;
  camera?: string;
  history: string[];
}

const PHONES = [
  { Make: "Apple", Model: "iPhone 13", Software: "17.4.1" },
  { Make: "Apple", Model: "iPhone 15 Pro", Software: "18.1" },
  { Make: "samsung", Model: "SM-G991B", Software: "G991BXXS9FXA1" },
  { Make: "Google", Model: "Pixel 7", Software: "HQ1A.240105.002" },
  { Make: "Xiaomi", Model: "Redmi Note 12", Software: "V14.0.3.0" },
] as const;

const SCANNERS = [
  { Make: "Canon", Model: "CanoScan LiDE 400" },
  { Make: "EPSON", Model: "ES-50" },
  { Make: "Brother", Model: "MFC-L2710DW" },
] as const;

export function exifDate(d: Date): string {
  return d.toISOString().slice(0, 19).replace(/-/g, ":").replace("T", " ");
}

/** Deterministic pixel noise, seeded from the document's generator. */
function noiseSource(rng: Rng): () => number {
  let s = rng.int(1, 0x7fffffff);
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 0xffffffff) * 2 - 1;
  };
}

async function rawRgb(png: Buffer): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(png)
    .flatten({ background: "#ffffff" })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

function scaleBox(k: number): (b: Box) => Box {
  return (b) => ({ x: Math.floor(b.x * k), y: Math.floor(b.y * k), w: Math.ceil(b.w * k), h: Math.ceil(b.h * k) });
}

/** A flatbed scan: upright, slightly resampled, mild noise and contrast change. */
export async function scan(rng: Rng, png: Buffer, when: Date): Promise<CapturedImage> {
  const { width } = await sharp(png).metadata();
  const targetW = Math.round((width ?? 1000) * rng.float(0.72, 1));
  const k = targetW / (width ?? targetW);
  const resized = await sharp(png)
    .flatten({ background: "#ffffff" })
    .resize({ width: targetW })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const data = new Uint8Array(resized.data.buffer, resized.data.byteOffset, resized.data.length);
  const noise = noiseSource(rng);
  const gain = rng.float(0.95, 1.05);
  const lift = rng.float(-6, 10);
  const amp = rng.float(1, 3.5);
  for (let i = 0; i < data.length; i++) data[i] = clamp(data[i]! * gain + lift + noise() * amp);
  const scanner = rng.pick(SCANNERS);
  const img = sharp(data, { raw: { width: resized.info.width, height: resized.info.height, channels: 3 } }).withExif({
    IFD0: { Make: scanner.Make, Model: scanner.Model, DateTime: exifDate(when) },
  });
  const asPng = rng.chance(0.3);
  const quality = asPng ? undefined : rng.int(85, 95);
  const bytes = asPng ? await img.png({ compressionLevel: 6 }).toBuffer() : await img.jpeg({ quality }).toBuffer();
  return {
    bytes,
    format: asPng ? "png" : "jpeg",
    width: resized.info.width,
    height: resized.info.height,
    map: scaleBox(k),
    quality,
    camera: `${scanner.Make} ${scanner.Model}`,
    history: [asPng ? "scan:png" : `scan:jpeg@${quality}`],
  };
}

function clamp(v: number): number {
  return v < 0 ? 0 : Math.min(v, 255);
}

/** A phone photo of the document lying on a table. `tilt` scales the perspective (0 = flat). */
export async function photograph(rng: Rng, png: Buffer, when: Date, tilt = 1): Promise<CapturedImage> {
  const src = await rawRgb(png);
  const docW = Math.min(src.width, rng.int(1050, 1400));
  const k = docW / src.width;
  const docH = src.height * k;
  const margin = Math.round(docW * rng.float(0.06, 0.14));
  const W = Math.round(docW + 2 * margin);
  const H = Math.round(docH + 2 * margin);
  const j = () => rng.float(-1, 1) * docW * 0.035 * tilt;
  const from: Point[] = [
    [0, 0],
    [src.width, 0],
    [src.width, src.height],
    [0, src.height],
  ];
  const to: Point[] = [
    [margin + j(), margin + j()],
    [margin + docW + j(), margin + j()],
    [margin + docW + j(), margin + docH + j()],
    [margin + j(), margin + docH + j()],
  ];
  const table = [rng.int(90, 170), rng.int(75, 150), rng.int(60, 130)];
  const dst = new Uint8Array(W * H * 3);
  for (let i = 0; i < dst.length; i += 3) {
    dst[i] = table[0]!;
    dst[i + 1] = table[1]!;
    dst[i + 2] = table[2]!;
  }
  warpInto(src.data, src.width, src.height, dst, W, H, from, to);
  // Uneven light: a linear gradient across the frame, a warm or cool cast, sensor noise.
  const noise = noiseSource(rng);
  const gx = rng.float(-0.18, 0.18);
  const gy = rng.float(-0.18, 0.18);
  const base = rng.float(0.85, 1.05);
  const cast = [rng.float(0.96, 1.04), 1, rng.float(0.94, 1.04)];
  const amp = rng.float(2, 6);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const light = base + gx * (x / W - 0.5) + gy * (y / H - 0.5);
      const o = (y * W + x) * 3;
      for (let c = 0; c < 3; c++) dst[o + c] = clamp(dst[o + c]! * light * cast[c]! + noise() * amp);
    }
  }
  const phone = rng.pick(PHONES);
  const quality = rng.int(72, 92);
  const sigma = rng.float(0.4, 1.1);
  const bytes = await sharp(dst, { raw: { width: W, height: H, channels: 3 } })
    .blur(sigma)
    .withExif({
      IFD0: {
        Make: phone.Make,
        Model: phone.Model,
        Software: phone.Software,
        DateTime: exifDate(when),
        Orientation: "1",
      },
      IFD2: {
        DateTimeOriginal: exifDate(when),
        ExposureTime: `1/${rng.pick([30, 60, 120, 250])}`,
        ISOSpeedRatings: String(rng.pick([50, 100, 200, 400])),
      },
    })
    .jpeg({ quality })
    .toBuffer();
  const h = homography(from, to);
  return {
    bytes,
    format: "jpeg",
    width: W,
    height: H,
    map: (b) => mapBox(h, b),
    quality,
    camera: `${phone.Make} ${phone.Model}`,
    history: [`photo:${phone.Model}:jpeg@${quality}`],
  };
}

/** What a messaging app does on sending: downscale, recompress, drop all metadata. */
export async function messagingResave(rng: Rng, img: CapturedImage): Promise<CapturedImage> {
  const maxSide = rng.pick([1280, 1600]);
  const k = Math.min(1, maxSide / Math.max(img.width, img.height));
  const width = Math.round(img.width * k);
  const quality = rng.int(60, 75);
  const bytes = await sharp(img.bytes).resize({ width }).jpeg({ quality }).toBuffer();
  const meta = await sharp(bytes).metadata();
  const scale = scaleBox(width / img.width);
  return {
    bytes,
    format: "jpeg",
    width: meta.width ?? width,
    height: meta.height ?? Math.round(img.height * k),
    map: (b) => scale(img.map(b)),
    quality,
    history: [...img.history, `messaging:jpeg@${quality}`],
  };
}

/** Opened and saved again without edits (a photo app, an e-mail client): camera EXIF kept. */
export async function recompress(rng: Rng, img: CapturedImage): Promise<CapturedImage> {
  const quality = rng.int(70, 95);
  const bytes = await sharp(img.bytes).keepExif().jpeg({ quality }).toBuffer();
  return { ...img, bytes, format: "jpeg", quality, history: [...img.history, `resave:jpeg@${quality}`] };
}
