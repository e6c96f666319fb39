// A real sidecar process over real gRPC: documents streamed in, pages with OCR lines out.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mergeText } from "../../../src/analysis/document-text.ts";
import { createLogger } from "../../../src/log.ts";
import { type SidecarClient, createSidecarClient } from "../../../src/sidecar-client/client.ts";
import { SidecarTarget, channelCredentials } from "../../../src/sidecar-client/target.ts";
import { renderPdf } from "../../helpers/pages.ts";
import { PAGE_TEXT, readText, textImage, textPdf } from "./fixtures.ts";
import { type SidecarProcess, startSidecarProcess } from "../../helpers/sidecar-process.ts";

let sidecar: SidecarProcess;
let client: SidecarClient;
const log = createLogger("error");

beforeAll(async () => {
  sidecar = await startSidecarProcess();
  client = createSidecarClient({ targets: [sidecar.address], log });
}, 30_000);

afterAll(async () => {
  client?.close();
  await sidecar?.stop();
});

/** The page as mupdf renders it at 150 dpi: the size every image of it has. */
const { width: WIDTH, height: HEIGHT } = renderPdf(textPdf(), 150);

const expectPrintedLines = (lines: { text: string }[]) => expect(readText(lines)).toEqual(PAGE_TEXT);

describe("the sidecar over gRPC", () => {
  test("answers SERVING to the standard health check", async () => {
    const target = new SidecarTarget(sidecar.address, channelCredentials(undefined), undefined);
    expect(await target.check(2_000)).toBe(true);
    target.close();
    expect(await client.ready()).toEqual({ ok: true, detail: "1/1 sidecars serving" });
  });

  test("answers its health checks in time while it reads pages at the text detector's full size", async () => {
    // The API gives a health check 1 s (src/sidecar-client/client.ts). A detection run at 1600
    // pixels takes 0.6 to 1 s of 2 cores: on the sidecar's own thread it held every check for that
    // long; the models run on their own thread (sidecar/inference/model-thread.ts).
    const target = new SidecarTarget(sidecar.address, channelCredentials(undefined), undefined);
    const page = await textImage("jpeg", 200);
    let analysing = true;
    const analyses = Promise.all([1, 2].map(() => client.analyzeDocument({ format: "jpeg", bytes: page })));
    void analyses.finally(() => (analysing = false)).catch(() => {});
    const answers: boolean[] = [];
    while (analysing) {
      answers.push(await target.check(1_000));
      await Bun.sleep(50);
    }
    target.close();
    for (const result of await analyses) expectPrintedLines(result.pages[0]!.lines);
    expect(answers.length).toBeGreaterThanOrEqual(3);
    expect(answers.every(Boolean)).toBe(true);
  }, 30_000);

  test("reads a PDF page rendered at 150 dpi and says so", async () => {
    const result = await client.analyzeDocument({ format: "pdf", bytes: textPdf() });
    expect(result.pageCount).toBe(1);
    expect(result.executionProviders).toEqual(["cpu"]);
    const [page] = result.pages;
    expect(page).toMatchObject({ index: 0, dpi: 150, sourceWidth: 595, sourceHeight: 842 });
    expect(page).toMatchObject({ width: WIDTH, height: HEIGHT });
    expect(page!.facts).toMatchObject({ format: "pdf" });
    expectPrintedLines(page!.lines);
    const first = page!.lines[0]!;
    expect(first.confidence).toBeGreaterThan(0.9);
    // Each character's reading crosses the wire with its runners-up.
    expect(first.characters).toHaveLength([...first.text].length);
    expect(first.characters.every((c) => c.probability > 0 && c.probability <= 1 && c.alternatives.length > 0)).toBe(
      true,
    );
    expect(first.polygon).toHaveLength(4);
    // Printed at x = 60 pt, baseline 80 pt from the top.
    expect(Math.abs(first.box[0] - (60 * 150) / 72)).toBeLessThan(10);
    expect(first.box[1]).toBeLessThan((80 * 150) / 72);
    expect(first.box[1] + first.box[3]).toBeGreaterThan((80 * 150) / 72);
  });

  test("reads the same page as a PNG and as a JPEG, with their image facts", async () => {
    for (const format of ["png", "jpeg"] as const) {
      const result = await client.analyzeDocument({ format, bytes: await textImage(format, 150) });
      const [page] = result.pages;
      expect(page).toMatchObject({ index: 0, width: WIDTH, height: HEIGHT, dpi: 150, scale: 1 });
      expect(page!.facts).toMatchObject({
        format,
        storedWidth: WIDTH,
        storedHeight: HEIGHT,
        hasAlpha: false,
        depth: "uchar",
      });
      if (format === "jpeg") expect(page!.facts!.chromaSubsampling).toBe("4:2:0");
      expectPrintedLines(page!.lines);
    }
  }, 15_000);

  test("analyses at most 10 pages of a longer PDF and reports how many it has", async () => {
    const result = await client.analyzeDocument({
      format: "pdf",
      bytes: textPdf({ lines: ["Page of a long report"], pages: 12, heightPt: 200 }),
    });
    expect(result.pageCount).toBe(12);
    expect(result.pages.map((page) => page.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const page of result.pages) expect(readText(page.lines)).toEqual(["Pageofalongreport"]);
  }, 30_000);

  test("turns an image upright by its EXIF orientation before reading it", async () => {
    const sharp = (await import("sharp")).default;
    const upright = await textImage("jpeg", 150);
    // Stored turned a quarter to the left, tagged "rotate 90° clockwise to display" (orientation
    // 6).
    const stored = await sharp(upright).rotate(-90).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const [page] = (await client.analyzeDocument({ format: "jpeg", bytes: new Uint8Array(stored) })).pages;
    expect(page).toMatchObject({ width: WIDTH, height: HEIGHT });
    expect(page!.facts).toMatchObject({ orientation: 6, storedWidth: HEIGHT, storedHeight: WIDTH });
    expectPrintedLines(page!.lines);
  });

  test("gives each line of a page photographed turned the slope it was detected at", async () => {
    const sharp = (await import("sharp")).default;
    // Turned 5 degrees clockwise: each line falls tan(5°) = 0.087 px per px to the right.
    const turned = await sharp(await textImage("png", 150))
      .rotate(5, { background: "#ffffff" })
      .png()
      .toBuffer();
    const result = await client.analyzeDocument({ format: "png", bytes: new Uint8Array(turned) });
    const { text } = mergeText({ pages: [] }, result);
    const long = text.pages[0]!.lines.filter((line) => line.text.length >= 10);
    expect(long.length).toBeGreaterThanOrEqual(3);
    for (const line of long) expect(Math.abs(line.slope! - Math.tan((5 * Math.PI) / 180))).toBeLessThan(0.02);
  }, 15_000);

  test("returns the pixel forensics of each page: traces with their reliability, per-line scores and a heatmap", async () => {
    const [page] = (await client.analyzeDocument({ format: "jpeg", bytes: await textImage("jpeg") })).pages;
    expect(page!.traces.map((trace) => trace.name)).toEqual(expect.arrayContaining(["ela", "noise"]));
    for (const trace of page!.traces) {
      expect(trace.reliability).toBeGreaterThanOrEqual(0);
      expect(trace.reliability).toBeLessThanOrEqual(1);
    }
    expect(page!.lineScores.length).toBe(page!.lines.length);
    for (const { lineIndex } of page!.lineScores) expect(page!.lines[lineIndex]).toBeDefined();
    expect(page!.heatmap!.width * page!.heatmap!.height).toBeGreaterThan(0);
  });
});
