// The portrait of an identity document, located from its layout and hashed so that the
// same photo on another document matches whatever its framing, and another person's does not.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { computeFingerprint, PORTRAIT_SAME, portraitDistance } from "../../../../src/analysis/content/fingerprint.ts";
import { locatePortrait } from "../../../../src/analysis/content/portrait.ts";
import type { TextPage } from "../../../../src/analysis/content/text.ts";
import type { Box } from "../../../../src/analysis/report.ts";
import {
  PASSPORT,
  PASSPORT_PAGE,
  passportImage,
  passportLines,
  PHOTOS_DIR,
  PORTRAIT_ZONE,
  type Passport,
} from "../../../helpers/documents.ts";
import { renderPrintedWithLines } from "../../../helpers/pages.ts";

const OTHER: Passport = {
  ...PASSPORT,
  surname: "KOWALSKA",
  givenNames: "ANNA MARIA",
  number: "EK4412907",
  birth: "910203",
  sex: "F",
};

/** The page's text as a perfect OCR reads it, in the image's pixels. */
function textPage(p: Passport, dpi: number): TextPage {
  const { image, lines } = renderPrintedWithLines(passportLines(p), { ...PASSPORT_PAGE, dpi });
  return {
    page: 1,
    width: image.width,
    height: image.height,
    lines: lines.map((l) => ({ text: l.text, box: l.box, confidence: 0.99, source: "ocr" as const })),
  };
}

async function located(p: Passport, photo: string | undefined, dpi: number, format: "png" | "jpeg" = "png") {
  const bytes = await passportImage(format, p, photo ? { portrait: join(PHOTOS_DIR, photo) } : {}, dpi);
  const box = await locatePortrait({ encoded: bytes }, textPage(p, dpi));
  return { bytes, box };
}

const overlap = (a: Box, b: Box): number => {
  const w = Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]));
  const h = Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
  return (w * h) / (a[2] * a[3] + b[2] * b[3] - w * h);
};

const fingerprintOf = async ({ bytes, box }: { bytes: Uint8Array; box: Box | null }) =>
  computeFingerprint({ bytes, image: { encoded: bytes }, ...(box ? { portrait: box } : {}) });

describe("the portrait of an identity document", () => {
  test("is found where the photo is: the largest photograph-like area no text line crosses", async () => {
    const dpi = 200;
    const { box } = await located(PASSPORT, "man_1.jpg", dpi);
    const px = (pt: number) => Math.round((pt * dpi) / 72);
    const zone: Box = [px(PORTRAIT_ZONE.x), px(PORTRAIT_ZONE.y), px(PORTRAIT_ZONE.width), px(PORTRAIT_ZONE.height)];
    expect(box).not.toBeNull();
    expect(overlap(box!, zone)).toBeGreaterThan(0.6);
  });

  test("is not found on a page without one: blank card is no photograph", async () => {
    expect((await located(PASSPORT, undefined, 200)).box).toBeNull();
  });

  test("matches the same photo on another identity's document, scanned at another resolution and saved as JPEG", async () => {
    const first = await fingerprintOf(await located(PASSPORT, "man_1.jpg", 200));
    const again = await fingerprintOf(await located(OTHER, "man_1.jpg", 260, "jpeg"));
    expect(portraitDistance(again, first.portrait)).toBeLessThanOrEqual(PORTRAIT_SAME);
  });

  test("does not match another person's photo", async () => {
    const first = await fingerprintOf(await located(PASSPORT, "man_1.jpg", 200));
    for (const photo of ["man_2.jpg", "woman_1.jpg", "woman_2.jpg"]) {
      const other = await fingerprintOf(await located(OTHER, photo, 200));
      expect(portraitDistance(other, first.portrait)).toBeGreaterThan(PORTRAIT_SAME);
    }
  });

  test("keeps a 64-bit hash, not the picture; its framings are compared and never kept", async () => {
    const fp = await fingerprintOf(await located(PASSPORT, "woman_1.jpg", 200));
    expect(fp.portrait).toMatch(/^[0-9a-f]{16}$/);
    expect(fp.portraitVariants!.length).toBeGreaterThan(1);
  });
});
