// The portrait checks and recapture cues through a real sidecar process over gRPC: a scanned
// identity card (a genuine render of the corpus generator) and the same card printed and
// photographed (scripts/eval/simulate-recapture.ts), both committed under
// test/fixtures/pixel-cues/. The traces cross the wire with their facts and thresholds, and the
// API's detectors judge them: the scan raises nothing, the print recapture is recaptured. The
// ghost search on a corpus passport that prints its portrait twice
// (test/fixtures/manipulations/m0003.jpg, whose edit is a date), and on the same passport with
// another holder's portrait pasted over its own (m0001's, the same template at the same size).
// And the scanned card as a black-and-white copy photographed on a coloured desk, beside the
// card itself on the same desk.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { join } from "node:path";
import { detectPortraitTampering } from "../../../src/analysis/pixel/portrait.ts";
import { detectRecapture } from "../../../src/analysis/pixel/recapture.ts";
import { createLogger } from "../../../src/log.ts";
import { type SidecarClient, createSidecarClient } from "../../../src/sidecar-client/client.ts";
import { type SidecarProcess, startSidecarProcess } from "../../helpers/sidecar-process.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "pixel-cues");
const PASSPORTS = join(import.meta.dir, "..", "..", "fixtures", "manipulations");
/** The portrait's place on the passport template the corpus renders at 1476 x 1039. */
const PHOTO = { left: 23, top: 203, width: 434, height: 558 };
let sidecar: SidecarProcess;
let client: SidecarClient;

beforeAll(async () => {
  sidecar = await startSidecarProcess();
  client = createSidecarClient({ targets: [sidecar.address], log: createLogger("error") });
}, 30_000);

afterAll(async () => {
  client?.close();
  await sidecar?.stop();
});

const analyse = async (file: string) => analyseBytes(await readFile(join(FIXTURES, file)));
const analyseBytes = async (bytes: Uint8Array) =>
  client.analyzeDocument({ format: "jpeg", bytes: new Uint8Array(bytes) });

describe("portrait checks and recapture cues through the sidecar", () => {
  test("a scanned card: its portrait found and like the rest of the card, no recapture", async () => {
    const { pages } = await analyse("id-card-scan.jpg");
    const page = pages[0]!;
    const portrait = page.traces.find((t) => t.name === "portrait")!;
    expect(portrait.reliability).toBe(1);
    // The photo sits left of the fields, about 230 x 290 pixels from (37, 122).
    const [x, y, w, h] = [
      portrait.facts.boxX,
      portrait.facts.boxY,
      portrait.facts.boxWidth,
      portrait.facts.boxHeight,
    ] as number[];
    expect(x! + w! / 2).toBeGreaterThan(100);
    expect(x! + w! / 2).toBeLessThan(220);
    expect(y! + h! / 2).toBeGreaterThan(220);
    expect(y! + h! / 2).toBeLessThan(340);
    expect(portrait.globalScore).toBeLessThan(1);
    expect(typeof portrait.facts.sharpSeamThreshold).toBe("number");
    const recapture = page.traces.find((t) => t.name === "recapture")!;
    expect(recapture.reliability).toBe(1);
    expect(recapture.globalScore).toBeLessThan(1);
    expect(detectPortraitTampering(pages).evidence).toEqual([]);
    expect(detectRecapture(pages).evidence).toEqual([]);
    expect(detectRecapture(pages).coverage).toBe(1);
  }, 60_000);

  test("the card printed and photographed: recaptured, its fine traces counted half", async () => {
    const { pages } = await analyse("id-card-print-recaptured.jpg");
    const page = pages[0]!;
    const recapture = page.traces.find((t) => t.name === "recapture")!;
    expect(recapture.globalScore).toBeGreaterThanOrEqual(1);
    expect(page.traces.find((t) => t.name === "ela")!.facts.recaptured).toBe("yes");
    const result = detectRecapture(pages);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({
      flag: "recaptured",
      detector: "recapture",
      page: 1,
      box: [0, 0, page.width, page.height],
    });
    expect(result.evidence[0]!.measured).toBeGreaterThanOrEqual(result.evidence[0]!.threshold as number);
  }, 60_000);

  test("the card as a black-and-white copy photographed on a desk: recaptured; the card itself not", async () => {
    const card = await readFile(join(FIXTURES, "id-card-scan.jpg"));
    const { width, height } = await sharp(card).metadata();
    // A wooden desk with a red folder on it, the card (or its grey copy) lying in the middle,
    // the phone's JPEG over all of it.
    const desk = (document: Buffer) =>
      sharp({ create: { width: width! * 2, height: height! * 2, channels: 3, background: { r: 150, g: 105, b: 60 } } })
        .composite([
          {
            input: {
              create: { width: width! * 2, height: Math.round(height! / 3), channels: 3, background: "#b0202a" },
            },
            left: 0,
            top: 0,
          },
          { input: document, left: Math.round(width! / 2), top: Math.round(height! / 2) },
        ])
        .jpeg({ quality: 70 })
        .toBuffer();
    const greyCopy = await sharp(card).greyscale().toColourspace("srgb").linear(1.15, -10).toBuffer();
    const copied = await analyseBytes(new Uint8Array(await desk(greyCopy)));
    const grey = copied.pages[0]!.traces.find((t) => t.name === "grey_document")!;
    expect(grey.reliability).toBe(1);
    expect(grey.globalScore).toBeGreaterThanOrEqual(1);
    const result = detectRecapture(copied.pages, "id");
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({ flag: "recaptured", detector: "recapture", threshold: 5 });
    expect(result.evidence[0]!.message).toContain("black-and-white copy");
    expect(result.evidence[0]!.measured).toBeLessThanOrEqual(5);
    // A statement is black on white: the same page is not judged so.
    expect(detectRecapture(copied.pages, "financial").evidence).toEqual([]);

    const original = await analyseBytes(new Uint8Array(await desk(card)));
    const colour = original.pages[0]!.traces.find((t) => t.name === "grey_document")!;
    expect(colour.reliability).toBe(1);
    expect(colour.measures.greyDocument!.documentSpread).toBeGreaterThan(10);
    expect(colour.globalScore).toBeLessThan(1);
    expect(detectRecapture(original.pages, "id").evidence).toEqual([]);
  }, 90_000);

  test("a passport's portrait is found again in its ghost image, and not once it is swapped", async () => {
    const genuine = await readFile(join(PASSPORTS, "m0003.jpg"));
    const ghostOf = async (bytes: Uint8Array) => {
      const { pages } = await analyseBytes(bytes);
      const facts = pages[0]!.traces.find((t) => t.name === "portrait")!.facts;
      const page = (detectPortraitTampering(pages).facts.pages as Record<string, unknown>[])[0]!;
      return { facts, reported: page.ghost as Record<string, unknown>, pages };
    };
    const found = await ghostOf(genuine);
    expect(found.facts.ghost).toBe("portrait repeated");
    // The ghost is printed right of the fields, about 250 x 400 pixels from (660, 180).
    expect(found.facts.ghostX as number).toBeGreaterThan(600);
    expect(found.facts.ghostX as number).toBeLessThan(720);
    expect(found.facts.ghostCorrelation as number).toBeGreaterThanOrEqual(0.75);
    expect(found.reported).toMatchObject({ verdict: "portrait repeated" });
    expect(found.reported.box).toEqual([
      found.facts.ghostX,
      found.facts.ghostY,
      found.facts.ghostWidth,
      found.facts.ghostHeight,
    ]);

    const otherFace = await sharp(join(PASSPORTS, "m0001.jpg")).extract(PHOTO).toBuffer();
    const swapped = await sharp(genuine)
      .composite([{ input: otherFace, left: PHOTO.left, top: PHOTO.top }])
      .jpeg({ quality: 92 })
      .toBuffer();
    const missing = await ghostOf(new Uint8Array(swapped));
    expect(missing.facts.ghost).toBe("no repeat of the portrait");
    // Nothing is raised for it: most templates print no ghost.
    expect(detectPortraitTampering(missing.pages).evidence).toEqual([]);
  }, 90_000);
});
