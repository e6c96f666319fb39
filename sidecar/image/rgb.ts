// Decoded pixels as the sidecar passes them between stages: 8-bit RGB, row-major, no padding.
import sharp from "sharp";

export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export function assertRgb(image: RgbImage): void {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`image size ${width}x${height} is not a positive whole size`);
  }
  if (data.length !== width * height * 3) {
    throw new RangeError(`image data holds ${data.length} bytes, ${width}x${height} RGB needs ${width * height * 3}`);
  }
}

/**
 * Resamples to exactly width x height (aspect may change by a few pixels, as PP-OCR's own resize
 * does).
 */
export async function resizeRgb(image: RgbImage, width: number, height: number): Promise<RgbImage> {
  if (image.width === width && image.height === height) return image;
  const data = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
    // The caller has already bounded and decoded these pixels; sharp's own limit would only refuse
    // them.
    limitInputPixels: false,
  })
    .resize(width, height, { fit: "fill" })
    .raw()
    .toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height };
}
