// Locating a portrait on hostile page shapes: the search is bounded by the working grid, not
// by the page's pixel dimensions.
import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { locatePortrait } from "../../../../src/analysis/content/portrait.ts";

const noise = (width: number, height: number) =>
  sharp(Buffer.from(Array.from({ length: width * height }, (_, i) => (i * 7919) % 251)), {
    raw: { width, height, channels: 1 },
  })
    .png()
    .toBuffer();

describe("locating a portrait on a hostile page", () => {
  test("a page 40 pixels wide and 40,000 tall is searched on a bounded grid, and is too narrow for a portrait", async () => {
    const page = { page: 1, width: 40, height: 40_000, lines: [] };
    expect(await locatePortrait({ encoded: await noise(40, 40_000) }, page)).toBeNull();
  });

  test("a page of noise without text is one photograph-like area, found within the page", async () => {
    const box = await locatePortrait(
      { encoded: await noise(400, 300) },
      { page: 1, width: 400, height: 300, lines: [] },
    );
    expect(box).not.toBeNull();
    expect(box![0] + box![2]).toBeLessThanOrEqual(400);
    expect(box![1] + box![3]).toBeLessThanOrEqual(300);
  });

  test("a page of 3 by 3 pixels has no portrait", async () => {
    expect(
      await locatePortrait({ encoded: await noise(3, 3) }, { page: 1, width: 3, height: 3, lines: [] }),
    ).toBeNull();
  });

  test("text boxes far outside the page are clipped, not written out of bounds", async () => {
    const page = {
      page: 1,
      width: 400,
      height: 300,
      lines: [
        {
          text: "x",
          box: [-5000, -5000, 99_999, 99_999] as [number, number, number, number],
          confidence: 1,
          source: "ocr" as const,
        },
      ],
    };
    expect(await locatePortrait({ encoded: await noise(400, 300) }, page)).toBeNull();
  });
});
