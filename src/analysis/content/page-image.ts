// The first page as an image, for the fingerprints (the image itself, or the rendered PDF
// page), and the difference hash they take of it and of its portrait.
import sharp, { type Sharp } from "sharp";

export type PageImage =
  | { encoded: Uint8Array }
  | { raw: Uint8Array; width: number; height: number; channels: 1 | 2 | 3 | 4 };

/** Pixels sharp may decode here: above the largest page the service accepts. */
const MAX_INPUT_PIXELS = 100_000_000;

/** The page image for sharp, within the pixel limit. */
export function decodePageImage(image: PageImage): Sharp {
  return "encoded" in image
    ? sharp(image.encoded, { limitInputPixels: MAX_INPUT_PIXELS })
    : sharp(image.raw, {
        raw: { width: image.width, height: image.height, channels: image.channels },
        limitInputPixels: MAX_INPUT_PIXELS,
      });
}

/**
 * 64 bits over a 9 x 8 grid of grey values, 16 hex digits: whether each is brighter than its right
 * neighbour.
 */
export function differenceHash(grey: (x: number, y: number) => number): string {
  let hash = 0n;
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) hash = (hash << 1n) | (grey(x, y) > grey(x + 1, y) ? 1n : 0n);
  return hash.toString(16).padStart(16, "0");
}

/**
 * Width and height of the image once turned upright by its EXIF orientation, as boxes on it are
 * given.
 */
export async function uprightSize(image: Sharp): Promise<{ width: number; height: number }> {
  const { width = 0, height = 0, orientation = 1 } = await image.metadata();
  return orientation >= 5 ? { width: height, height: width } : { width, height };
}
