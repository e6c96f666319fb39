// Scans and phone photos made with ImageMagick instead of the in-house sharp pipeline
// (image/capture.ts): a perspective distortion with the corners placed by the seeded
// generator (a flatbed's slight skew, or a hand-held phone's keystone), blur, sensor noise
// seeded with -seed, tone changes and JPEG at various qualities. The corner mapping is kept
// so forgery boxes follow the page into the image.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import type { CapturedImage } from "../image/capture.ts";
import type { Box } from "../render/svg.ts";
import { homography, mapBox, type Point } from "../image/warp.ts";
import type { Rng } from "../rng.ts";
import { runTool, withScratch } from "./tools.ts";

const corners = (w: number, h: number): Point[] => [
  [0, 0],
  [w, 0],
  [w, h],
  [0, h],
];

/**
 * The page's corners turned by `degrees` about the centre, shrunk by `scale`, then each moved by up
 * to `jitter` pixels.
 */
function placed(rng: Rng, w: number, h: number, degrees: number, scale: number, jitter: number): Point[] {
  const a = (degrees * Math.PI) / 180;
  const [cx, cy] = [w / 2, h / 2];
  return corners(w, h).map(([x, y]) => {
    const [dx, dy] = [(x - cx) * scale, (y - cy) * scale];
    return [
      cx + dx * Math.cos(a) - dy * Math.sin(a) + rng.float(-jitter, jitter),
      cy + dx * Math.sin(a) + dy * Math.cos(a) + rng.float(-jitter, jitter),
    ];
  });
}

async function convert(args: string[], input: Buffer, inputName: string, output: string, when: Date): Promise<Buffer> {
  return withScratch(async (dir) => {
    await writeFile(join(dir, inputName), input);
    await runTool("convert", args, { epoch: when, cwd: dir });
    return readFile(join(dir, output));
  });
}

const perspective = (from: Point[], to: Point[]) =>
  from.map((p, i) => `${p[0]},${p[1]} ${to[i]![0].toFixed(1)},${to[i]![1].toFixed(1)}`).join("  ");

/**
 * A flatbed scan: slight skew, soft focus, faint noise; JPEG, or a grey PNG as office scanners
 * save.
 */
export async function imagemagickScan(rng: Rng, png: Buffer, when: Date): Promise<CapturedImage> {
  const { width: w = 0, height: h = 0 } = await sharp(png).metadata();
  const from = corners(w, h);
  const to = placed(rng, w, h, rng.float(-1.2, 1.2), rng.float(0.95, 0.99), w * 0.004);
  const blur = rng.float(0.3, 0.8).toFixed(2);
  const noise = rng.float(0.2, 0.6).toFixed(2);
  const grey = rng.chance(0.3);
  const quality = rng.int(75, 92);
  const out = grey ? "scan.png" : "scan.jpg";
  const tone = grey ? ["-colorspace", "Gray"] : ["-level", "2%,97%"];
  const bytes = await convert(
    [
      "page.png",
      "-seed",
      String(rng.int(1, 1 << 30)),
      "-background",
      "#f2f1ec",
      "-virtual-pixel",
      "background",
      "-distort",
      "Perspective",
      perspective(from, to),
      "-blur",
      `0x${blur}`,
      "-attenuate",
      noise,
      "+noise",
      "Gaussian",
      ...tone,
      "-units",
      "PixelsPerInch",
      "-density",
      "150",
      ...(grey ? [] : ["-quality", String(quality)]),
      out,
    ],
    png,
    "page.png",
    out,
    when,
  );
  const step = `scan:imagemagick distort+blur ${blur}+noise ${noise}${grey ? " grey png" : ` q${quality}`}`;
  const map = homography(from, to);
  return {
    bytes,
    format: grey ? "png" : "jpeg",
    width: w,
    height: h,
    map: (b) => mapBox(map, b),
    quality: grey ? undefined : quality,
    history: [step],
  };
}

/** A phone photo: keystone, warm light, motion-soft focus, stronger noise, camera JPEG. */
export async function imagemagickPhoto(rng: Rng, png: Buffer, when: Date): Promise<CapturedImage> {
  const { width: w = 0, height: h = 0 } = await sharp(png).metadata();
  const from = corners(w, h);
  const to = placed(rng, w, h, rng.float(-4, 4), rng.float(0.82, 0.92), w * 0.035);
  const blur = rng.float(0.6, 1.3).toFixed(2);
  const noise = rng.float(0.6, 1.2).toFixed(2);
  const quality = rng.int(68, 90);
  const brightness = rng.int(88, 104);
  const bytes = await convert(
    [
      "page.png",
      "-seed",
      String(rng.int(1, 1 << 30)),
      "-background",
      rng.pick(["#6f5f4d", "#8c8a86", "#3d4450"]),
      "-virtual-pixel",
      "background",
      "-distort",
      "Perspective",
      perspective(from, to),
      "-fill",
      "#ffe9c8",
      "-colorize",
      `${rng.int(3, 10)}%`,
      "-modulate",
      `${brightness},95`,
      "-blur",
      `0x${blur}`,
      "-attenuate",
      noise,
      "+noise",
      "Gaussian",
      "-quality",
      String(quality),
      "photo.jpg",
    ],
    png,
    "page.png",
    "photo.jpg",
    when,
  );
  const map = homography(from, to);
  return {
    bytes,
    format: "jpeg",
    width: w,
    height: h,
    map: (b) => mapBox(map, b),
    quality,
    history: [`photo:imagemagick perspective+blur ${blur}+noise ${noise} q${quality}`],
  };
}

/** What a messaging app does to a photo: downscaled to 1280 px, metadata stripped, JPEG again. */
export async function imagemagickMessaging(rng: Rng, img: CapturedImage, when: Date): Promise<CapturedImage> {
  const quality = rng.int(55, 72);
  const k = Math.min(1, 1280 / Math.max(img.width, img.height));
  const bytes = await convert(
    ["in.jpg", "-resize", "1280x1280>", "-strip", "-quality", String(quality), "out.jpg"],
    img.bytes,
    "in.jpg",
    "out.jpg",
    when,
  );
  const scale = (b: Box): Box => ({
    x: Math.floor(b.x * k),
    y: Math.floor(b.y * k),
    w: Math.ceil(b.w * k),
    h: Math.ceil(b.h * k),
  });
  return {
    ...img,
    bytes,
    width: Math.round(img.width * k),
    height: Math.round(img.height * k),
    map: (b) => scale(img.map(b)),
    quality,
    history: [...img.history, `messaging:imagemagick resize 1280+strip q${quality}`],
  };
}
