// The sidecar reduces a page exactly as the trainer did (scripts/models/localiser/working_size.py):
// whole-factor block means rounded half up, then black padding to multiples of 32.
import { describe, expect, test } from "bun:test";
import { MAX_SIDE, reductionFactor, workingImage } from "../../../../sidecar/localiser/working-image.ts";

describe("the localiser's working image", () => {
  test("keeps a page within the working size as it is, padded with black", () => {
    const rgb = new Uint8Array(40 * 30 * 3).map((_, i) => (i * 7) % 251);
    const image = workingImage(rgb, 40, 30);
    expect(image).toMatchObject({ factor: 1, width: 40, height: 30, paddedWidth: 64, paddedHeight: 32 });
    expect(image.rgb.subarray(0, 40 * 3)).toEqual(rgb.subarray(0, 40 * 3));
    expect(image.rgb.subarray(29 * 64 * 3, 29 * 64 * 3 + 40 * 3)).toEqual(rgb.subarray(29 * 40 * 3, 30 * 40 * 3));
    expect(image.rgb.subarray(40 * 3, 64 * 3).every((v) => v === 0)).toBe(true);
  });

  test("reduces a larger page by the smallest whole factor, averaging blocks and rounding half up", () => {
    expect(reductionFactor(MAX_SIDE, 10)).toBe(1);
    expect(reductionFactor(MAX_SIDE + 1, 10)).toBe(2);
    expect(reductionFactor(10, 3 * MAX_SIDE + 1)).toBe(4);
    const width = 2 * MAX_SIDE + 3;
    const height = 5;
    const rgb = new Uint8Array(width * height * 3);
    // Block (0,0) of 3x3 in the red channel: 0..8 → mean 4; green all 1 except one 2 → 10/9 rounds
    // to 1; blue 4 of 9 at 1 → 0.44 rounds to 0, 5 of 9 → 0.56 rounds to 1.
    for (let y = 0; y < 3; y++) {
      for (let x = 0; x < 3; x++) {
        const i = (y * width + x) * 3;
        rgb[i] = y * 3 + x;
        rgb[i + 1] = x === 0 && y === 0 ? 2 : 1;
        rgb[i + 2] = y * 3 + x < 4 ? 1 : 0;
        const j = (y * width + x + 3) * 3;
        rgb[j + 2] = y * 3 + x < 5 ? 1 : 0;
      }
    }
    const image = workingImage(rgb, width, height);
    expect(image).toMatchObject({ factor: 3, width: Math.floor(width / 3), height: 1, paddedHeight: 32 });
    expect([...image.rgb.subarray(0, 6)]).toEqual([4, 1, 0, 0, 0, 1]);
  });
});
