// The localiser's added time per page, measured side by side with the existing pixel
// forensics in one run on the same pages: the seeded statement the forensics benchmark uses
// (scripts/bench-forensics.ts), saved as JPEG q85, at two widths, and an identity-card-sized
// page. Both sessions use the same threads, as in the sidecar, and run one after the other,
// as readPage runs them (sidecar/server/analyze-document.ts).
// Run: bun scripts/bench-localiser.ts [--device cpu|cuda|auto] [--runs N] [--threads N]
import { parseArgs } from "node:util";
import sharp from "sharp";
import { analyzePixels, createForensicsGraph } from "../sidecar/forensics/index.ts";
import { createLocaliserSession, localiseTampering } from "../sidecar/localiser/index.ts";
import type { Device } from "../sidecar/ocr/providers.ts";
import { renderPrintedWithLines } from "../test/helpers/pages.ts";
import { seededStatement } from "../test/helpers/statements.ts";
import { median } from "../src/numeric.ts";

const { values } = parseArgs({
  options: {
    device: { type: "string", default: "cpu" },
    runs: { type: "string", default: "7" },
    threads: { type: "string", default: "2" },
  },
});
const device = values.device as Device;
const runs = Number(values.runs);
const threads = { intraOpThreads: Number(values.threads) };
const graph = await createForensicsGraph({ device, ...threads });
const localiser = await createLocaliserSession({ device, ...threads });
const A4_WIDTH_PT = 595;
// An ID-1 card (85.6 x 54 mm) at 300 dpi: the size of the corpus's identity images.
const CARD = { width: 1011, height: 638 };

console.log(
  `execution providers: ${localiser.executionProviders.join(", ")}, ${threads.intraOpThreads} intra-op threads`,
);
const pages = [
  { name: "statement", width: 1000, crop: null },
  { name: "statement", width: 2000, crop: null },
  { name: "card-sized part of a statement", width: 2000, crop: CARD },
];
for (const { name, width, crop } of pages) {
  const { image, lines } = renderPrintedWithLines(seededStatement(1), { dpi: (width / A4_WIDTH_PT) * 72 });
  let raw = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  if (crop) raw = raw.extract({ left: 0, top: 0, ...crop });
  const jpeg = await raw.jpeg({ quality: 85 }).toBuffer();
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const input = {
    rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
    jpeg: new Uint8Array(jpeg),
  };
  const pageLines = crop
    ? lines.filter((l) => l.box[0] + l.box[2] <= crop.width && l.box[1] + l.box[3] <= crop.height)
    : lines;
  await analyzePixels(input, pageLines, { graph });
  await localiseTampering(input, { session: localiser });
  const forensicsMs: number[] = [];
  const localiserMs: number[] = [];
  const modelMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    let started = performance.now();
    await analyzePixels(input, pageLines, { graph });
    forensicsMs.push(performance.now() - started);
    started = performance.now();
    await localiseTampering(input, { session: localiser, onRun: (ms) => modelMs.push(ms) });
    localiserMs.push(performance.now() - started);
  }
  console.log(
    `${name} ${input.width}x${input.height}: pixel forensics ${median(forensicsMs).toFixed(0)} ms/page, ` +
      `localiser +${median(localiserMs).toFixed(0)} ms/page (model ${median(modelMs).toFixed(0)} ms), median of ${runs}`,
  );
}
await Promise.all([graph.close(), localiser.close()]);
