// The first page as an image, for the fingerprints: the image itself, or the rendered PDF page.
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
    : sharp(image.raw, { raw: { width: image.width, height: image.height, channels: image.channels }, limitInputPixels: MAX_INPUT_PIXELS });
}

/** Width and height of the image once turned upright by its EXIF orientation, as boxes on it are given. */
export async function uprightSize(image: Sharp): Promise<{ width: number; height: number }> {
  const { width = 0, height = 0, orientation = 1 } = await image.metadata();
  return orientation >= 5 ? { width: height, height: width } : { width, height };
}
