// The journeys after the editor: printed and photographed, or photographed off a screen. The
// random choices are drawn here (every one from the document's seeded generator) and handed
// to the pixel worker; the page's corners in the photo are chosen here too, so the forgery
// boxes go through the very homography the pixels went through.
import sharp from "sharp";
import { exifDate, type CapturedImage } from "../image/capture.ts";
import { homography, mapBox, type Point } from "../image/warp.ts";
import type { Rng } from "../rng.ts";
import type { PixelWorker } from "./pixel-worker.ts";

const PHONES = [
  { Make: "Apple", Model: "iPhone 12", Software: "17.5.1" },
  { Make: "Apple", Model: "iPhone 14 Pro", Software: "18.0.1" },
  { Make: "samsung", Model: "SM-A546B", Software: "A546BXXS8BXF1" },
  { Make: "Google", Model: "Pixel 8", Software: "AP2A.240805.005" },
  { Make: "motorola", Model: "moto g84 5G", Software: "U1TCS34.34-26-4" },
] as const;

export interface Source {
  /** The image the capture starts from (PNG or JPEG). */
  path: string;
  width: number;
  height: number;
}

interface Frame {
  width: number;
  height: number;
  corners: Point[];
}

/**
 * Where the page lands in the photo: scaled to about `docW` pixels, each corner moved by up to
 * `tilt` of its width.
 */
function frame(rng: Rng, src: Source, docW: number, marginFrac: [number, number], tilt: number): Frame {
  const k = docW / src.width;
  const docH = src.height * k;
  const margin = Math.round(docW * rng.float(...marginFrac));
  const j = () => rng.float(-1, 1) * docW * tilt;
  return {
    width: Math.round(docW + 2 * margin),
    height: Math.round(docH + 2 * margin),
    corners: [
      [margin + j(), margin + j()],
      [margin + docW + j(), margin + j()],
      [margin + docW + j(), margin + docH + j()],
      [margin + j(), margin + docH + j()],
    ],
  };
}

async function phoneJpeg(
  rng: Rng,
  png: string,
  when: Date,
): Promise<{ bytes: Buffer; quality: number; camera: string; model: string }> {
  const phone = rng.pick(PHONES);
  const quality = rng.int(72, 92);
  const bytes = await sharp(png)
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
        ExposureTime: `1/${rng.pick([30, 60, 120])}`,
        ISOSpeedRatings: String(rng.pick([100, 200, 400, 800])),
      },
    })
    .jpeg({ quality })
    .toBuffer();
  return { bytes, quality, camera: `${phone.Make} ${phone.Model}`, model: phone.Model };
}

function captured(src: Source, f: Frame, jpeg: Awaited<ReturnType<typeof phoneJpeg>>, step: string): CapturedImage {
  const h = homography(
    [
      [0, 0],
      [src.width, 0],
      [src.width, src.height],
      [0, src.height],
    ],
    f.corners,
  );
  return {
    bytes: jpeg.bytes,
    format: "jpeg",
    width: f.width,
    height: f.height,
    map: (b) => mapBox(h, b),
    quality: jpeg.quality,
    camera: jpeg.camera,
    history: [`${step}:${jpeg.model}:jpeg@${jpeg.quality}`],
  };
}

const rgb = (rng: Rng, lo: number[], hi: number[]) => lo.map((l, i) => rng.int(l, hi[i]!));

/** Printed on an office printer, then photographed lying on a table. */
export async function printAndPhotograph(
  rng: Rng,
  worker: PixelWorker,
  src: Source,
  scratch: string,
  when: Date,
): Promise<CapturedImage> {
  const f = frame(rng, src, Math.min(src.width * 1.1, rng.int(1000, 1400)), [0.06, 0.14], rng.float(0.012, 0.035));
  const out = `${scratch}/print-photo.png`;
  await worker.call("print_photo", {
    image: src.path,
    out,
    seed: rng.int(1, 2 ** 31 - 1),
    period: rng.float(4.5, 7),
    paper: rgb(rng, [244, 242, 232], [252, 250, 246]),
    black: rng.float(0.07, 0.18),
    frame: [f.width, f.height],
    corners: f.corners,
    table: rgb(rng, [80, 65, 50], [175, 155, 135]),
    gradient: [rng.float(-0.2, 0.2), rng.float(-0.2, 0.2)],
    exposure: rng.float(0.86, 1.04),
    vignette: rng.float(0, 0.4),
    shadow: rng.chance(0.35) ? [rng.float(0, 2 * Math.PI), rng.float(0.15, 0.4), rng.float(0.12, 0.3)] : null,
    cast: [rng.float(0.96, 1.05), 1, rng.float(0.9, 1.03)],
    blur: rng.float(0.5, 1.2),
    noise: rng.float(2, 6),
  });
  return captured(src, f, await phoneJpeg(rng, out, when), "print-photo");
}

/** Opened on a monitor and photographed off it. */
export async function photographScreen(
  rng: Rng,
  worker: PixelWorker,
  src: Source,
  scratch: string,
  when: Date,
): Promise<CapturedImage> {
  const f = frame(rng, src, Math.min(src.width * 1.1, rng.int(950, 1350)), [0.1, 0.16], rng.float(0.008, 0.025));
  const out = `${scratch}/screen-recapture.png`;
  const darkViewer = rng.chance(0.5);
  await worker.call("screen_recapture", {
    image: src.path,
    out,
    seed: rng.int(1, 2 ** 31 - 1),
    screen_scale: rng.float(0.55, 0.85),
    margin: [rng.int(12, 40), rng.int(12, 40)],
    viewer: darkViewer ? rgb(rng, [30, 30, 34], [52, 52, 58]) : rgb(rng, [226, 226, 228], [240, 240, 242]),
    display_gamma: rng.float(0.9, 1.12),
    lens_blur: rng.float(0.8, 1.6),
    frame: [f.width, f.height],
    corners: f.corners,
    room: rgb(rng, [10, 10, 12], [40, 38, 42]),
    exposure: rng.float(0.9, 1.1),
    cast: [rng.float(0.88, 1.04), 1, rng.float(0.96, 1.14)],
    camera_gamma: rng.float(0.85, 1.1),
    glare: [
      rng.float(0.2, 0.8),
      rng.float(0.2, 0.8),
      rng.float(0.08, 0.25),
      rng.chance(0.7) ? rng.float(0.06, 0.3) : 0,
    ],
    blur: rng.float(0.4, 1.0),
    noise: rng.float(2, 5),
  });
  return captured(src, f, await phoneJpeg(rng, out, when), "screen-recapture");
}
