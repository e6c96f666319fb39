// The project's one JPEG structure reader (src/jpeg/markers.ts): the header reader, intake's
// bound on scans and metadata and the sidecar's coefficient decoder all walk a JPEG's markers
// through walkJpegSegments(), so they agree on where each segment is.
import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { readLumaCoefficients } from "../../../sidecar/forensics/jpeg-coefficients.ts";
import { countJpegStructure } from "../../../src/intake/jpeg-structure.ts";
import { parseJpegStructure, walkJpegSegments } from "../../../src/jpeg/markers.ts";

const W = 40;
const H = 24;
const rgb = new Uint8Array(W * H * 3).map((_, i) => 40 + ((i * 37) % 170));
const encode = async (progressive: boolean) =>
  new Uint8Array(
    await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
      .jpeg({ quality: 85, progressive })
      .withExif({ IFD0: { Copyright: "docverify" } })
      .toBuffer(),
  );

describe("walking a JPEG's markers", () => {
  test("goes past every scan, where the header reader stops at the first", async () => {
    const jpeg = await encode(true);
    const markers = [...walkJpegSegments(jpeg)].map((segment) => segment.marker);
    const scans = markers.filter((marker) => marker === 0xda).length;
    expect(scans).toBeGreaterThan(1);
    expect(countJpegStructure(jpeg).scans).toBe(scans);
    const header = parseJpegStructure(jpeg);
    expect(header.reachedScan).toBe(true);
    expect(header.dqtSegments).toBe(markers.slice(0, markers.indexOf(0xda)).filter((m) => m === 0xdb).length);
  });

  test("gives each segment's length and body, as intake counts metadata", async () => {
    const jpeg = await encode(false);
    const app = [...walkJpegSegments(jpeg)].filter((s) => s.marker >= 0xe0 && s.marker <= 0xef);
    expect(app.map((s) => s.body.length + 2)).toEqual(app.map((s) => s.length));
    expect(countJpegStructure(jpeg).metadataBytes).toBe(app.reduce((sum, s) => sum + s.length, 0));
  });

  test("a restart marker between header segments stands alone for every reader", async () => {
    const jpeg = await encode(false);
    const dqt = jpeg.findIndex((b, i) => b === 0xff && jpeg[i + 1] === 0xdb);
    const withRestart = new Uint8Array([...jpeg.subarray(0, dqt), 0xff, 0xd3, ...jpeg.subarray(dqt)]);
    expect(parseJpegStructure(withRestart)).toEqual(parseJpegStructure(jpeg));
    expect(countJpegStructure(withRestart)).toEqual(countJpegStructure(jpeg));
    expect(readLumaCoefficients(withRestart, W, H)).toEqual(readLumaCoefficients(jpeg, W, H)!);
  });

  test("bytes that break the marker syntax are refused strictly and stepped over leniently", async () => {
    const jpeg = await encode(false);
    const dqt = jpeg.findIndex((b, i) => b === 0xff && jpeg[i + 1] === 0xdb);
    const withGarbage = new Uint8Array([...jpeg.subarray(0, dqt), 0x12, 0x34, ...jpeg.subarray(dqt)]);
    expect(() => [...walkJpegSegments(withGarbage)]).toThrow("expected a marker");
    expect([...walkJpegSegments(withGarbage, { lenient: true })].map((s) => s.marker)).toEqual(
      [...walkJpegSegments(jpeg)].map((s) => s.marker),
    );
    expect(readLumaCoefficients(withGarbage, W, H)).toBeNull();
  });
});
