import { describe, expect, test } from "bun:test";
import { estimateIjgQuality, ijgTable } from "../../../src/jpeg/ijg-quality.ts";
import { parseJpegStructure } from "../../../src/jpeg/markers.ts";
import { detectJpegTables, summarizeTables } from "../../../src/analysis/image/jpeg-tables.ts";
import { makeJpeg, rewriteJpegQuantTables, tableWithSum } from "../../helpers/fixtures.ts";

describe("JPEG quantization tables", () => {
  test("the quality a libjpeg encoder used is read back within ±3 for q=50..95", async () => {
    for (let q = 50; q <= 95; q += 5) {
      const jpeg = await makeJpeg({ width: 64, height: 64, quality: q, seed: q });
      const summary = summarizeTables(parseJpegStructure(jpeg));
      expect(Math.abs(summary.quality! - q)).toBeLessThanOrEqual(3);
      expect(summary.ijgExact).toBe(true);
    }
  });

  test("an IJG table is recognised exactly and its quality is the one that scaled it", () => {
    expect(estimateIjgQuality(ijgTable(83))).toEqual({ quality: 83, exact: true, meanAbsDiff: 0 });
    expect(estimateIjgQuality(ijgTable(40, true), true).quality).toBe(40);
  });

  test("a libjpeg file is described without accusing it", async () => {
    const jpeg = await makeJpeg({ width: 64, height: 64, quality: 85 });
    const result = detectJpegTables(parseJpegStructure(jpeg));
    expect(result.evidence).toEqual([]);
    expect(result.facts).toMatchObject({ quality: 85, ijgTables: true, sampling: "2x2,1x1,1x1", tables: 2 });
  });

  test("tables of Photoshop's quality 12 setting are attributed to Photoshop", async () => {
    const jpeg = rewriteJpegQuantTables(await makeJpeg({ width: 64, height: 64 }), {
      0: tableWithSum(95),
      1: tableWithSum(166),
    });
    const result = detectJpegTables(parseJpegStructure(jpeg));
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({
      flag: "editing_software",
      detector: "jpeg-quantization",
      measured: "luma sum 95, chroma sum 166",
    });
    expect(result.evidence[0]!.message).toContain("Adobe Photoshop (quality 12)");
  });
});
