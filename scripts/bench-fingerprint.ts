// Cost of the reused-portrait fingerprint on an identity document: ms per page to locate the
// portrait and to hash it with its framings, beside the fingerprint without it (page hash and
// text hashes), measured side by side in one run. Pages are the tests' passport data page
// with a photo, as a 250 dpi scan and upscaled to a 4000-px phone photo, saved as JPEG q90.
// Run: bun scripts/bench-fingerprint.ts [--runs N]
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { computeFingerprint } from "../src/analysis/content/fingerprint.ts";
import { locatePortrait } from "../src/analysis/content/portrait.ts";
import type { TextPage } from "../src/analysis/content/text.ts";
import { PASSPORT, PASSPORT_PAGE, passportImage, passportLines, PHOTOS_DIR } from "../test/helpers/documents.ts";
import { renderPrintedWithLines } from "../test/helpers/pages.ts";
import { median } from "../src/numeric.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "9" } } });
const runs = Number(values.runs);
const DPI = 250;

const time = async (run: () => Promise<unknown>): Promise<number> => {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
};

const scan = await passportImage("png", PASSPORT, { portrait: join(PHOTOS_DIR, "man_1.jpg") }, DPI);
const { image, lines } = renderPrintedWithLines(passportLines(PASSPORT), { ...PASSPORT_PAGE, dpi: DPI });
const text = {
  pages: [
    {
      page: 1,
      width: image.width,
      height: image.height,
      lines: lines.map((l) => ({ text: l.text, box: l.box, confidence: 0.99, source: "ocr" as const })),
    },
  ],
};

for (const width of [image.width, 4000]) {
  const bytes = new Uint8Array(await sharp(scan).resize({ width }).jpeg({ quality: 90 }).toBuffer());
  const page: TextPage = text.pages[0]!;
  const input = { bytes, image: { encoded: bytes }, text: { pages: [page] } };
  const portrait = await locatePortrait(input.image, page);
  if (!portrait) throw new Error("bench-fingerprint: no portrait located on the bench page");
  const without = await time(() => computeFingerprint(input));
  const locate = await time(() => locatePortrait(input.image, page));
  const withPortrait = await time(() => computeFingerprint({ ...input, portrait }));
  const added = locate + withPortrait - without;
  console.log(
    `${width} px: fingerprint ${without.toFixed(1)} ms; locate portrait ${locate.toFixed(1)} ms; fingerprint with portrait ${withPortrait.toFixed(1)} ms` +
      ` → the portrait adds ${added.toFixed(1)} ms, ${(added / without).toFixed(2)}x the fingerprint without it`,
  );
}
