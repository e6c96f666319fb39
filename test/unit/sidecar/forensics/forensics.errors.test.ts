import { describe, expect, test } from "bun:test";
import { analyzePixels } from "../../../../sidecar/forensics/index.ts";
import { readJpegTables } from "../../../../sidecar/forensics/jpeg-tables.ts";

describe("pixel forensics given bad input", () => {
  test("refuses pixel data whose length does not match the stated size", async () => {
    await expect(analyzePixels({ rgb: new Uint8Array(10), width: 100, height: 100 }, [])).rejects.toThrow(RangeError);
  });

  test("refuses a page beyond the pixel limit before any work", async () => {
    await expect(
      analyzePixels({ rgb: new Uint8Array(300 * 300 * 3), width: 300, height: 300 }, [], { maxPixels: 50_000 }),
    ).rejects.toThrow(/pixel limit/);
  });

  test("answers a page too small to judge with every trace at zero reliability", async () => {
    const result = await analyzePixels({ rgb: new Uint8Array(20 * 20 * 3), width: 20, height: 20 }, []);
    expect(result.traces.map((t) => t.reliability)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(result.copyMoves).toEqual([]);
  });

  test("reads no JPEG tables from truncated or foreign bytes", () => {
    expect(readJpegTables(new Uint8Array([0xff, 0xd8, 0xff, 0xdb, 0x00, 0x43, 0x00]))).toBeNull();
    expect(readJpegTables(new TextEncoder().encode("%PDF-1.7"))).toBeNull();
    expect(readJpegTables(new Uint8Array(0))).toBeNull();
  });
});
