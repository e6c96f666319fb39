import { createLocalAnalyzer } from "../../helpers/local-analyzer.ts";
import { describe, expect, test } from "bun:test";
import { JpegStructureError, parseJpegStructure } from "../../../src/jpeg/markers.ts";
import { makeJpeg } from "../../helpers/fixtures.ts";

const segment = (marker: number, body: number[]) => [
  0xff,
  marker,
  (body.length + 2) >> 8,
  (body.length + 2) & 0xff,
  ...body,
];

describe("the JPEG header parser on hostile bytes", () => {
  test("a segment whose length runs past the end is refused", () => {
    const bytes = Uint8Array.from([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff, 0x00, 0x00]);
    expect(() => parseJpegStructure(bytes)).toThrow(JpegStructureError);
  });

  test("a DQT table cut short is refused", () => {
    const bytes = Uint8Array.from([0xff, 0xd8, ...segment(0xdb, [0x00, 1, 2, 3])]);
    expect(() => parseJpegStructure(bytes)).toThrow("truncated DQT table");
  });

  test("a zero quantization step is refused rather than divided by", () => {
    const bytes = Uint8Array.from([0xff, 0xd8, ...segment(0xdb, [0x00, ...new Array(64).fill(0)])]);
    expect(() => parseJpegStructure(bytes)).toThrow("zero quantization step");
  });

  test("an endless run of empty segments stops at a bound", () => {
    const many = Array.from({ length: 600 }, () => segment(0xfe, [])).flat();
    expect(() => parseJpegStructure(Uint8Array.from([0xff, 0xd8, ...many]))).toThrow("too many header segments");
  });

  test("bytes that are not a JPEG are refused", () => {
    expect(() => parseJpegStructure(new TextEncoder().encode("%PDF-1.7"))).toThrow("missing SOI marker");
  });

  test("a JPEG whose header the table parser refuses is still analysed, that detector at coverage 0", async () => {
    const jpeg = await makeJpeg({ width: 64, height: 64 });
    // A zero step in a table: libjpeg decodes it, the table parser refuses it.
    const dqt = jpeg.findIndex((b, i) => b === 0xff && jpeg[i + 1] === 0xdb);
    const broken = jpeg.slice();
    broken[dqt + 5 + 20] = 0;
    const report = await createLocalAnalyzer().analyze({ bytes: broken, format: "jpeg" });
    const tables = report.detectors.find((d) => d.detector === "jpeg-quantization")!;
    expect(tables.coverage).toBe(0);
    expect(tables.facts).toEqual({ failed: "JpegStructureError" });
  });
});
