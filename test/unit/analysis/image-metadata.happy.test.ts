import { describe, expect, test } from "bun:test";
import { detectImageMetadata } from "../../../src/analysis/image/metadata.ts";
import { cameraExif, makeJpeg, resaveJpeg, xmpPacket } from "../../helpers/fixtures.ts";

const NOW = Date.UTC(2025, 0, 1);
const small = { width: 64, height: 48 };

describe("image metadata", () => {
  test("a camera JPEG with consistent EXIF raises nothing", async () => {
    const result = await detectImageMetadata(await makeJpeg({ ...small, exif: cameraExif() }), NOW);
    expect(result.evidence).toEqual([]);
    expect(result.coverage).toBe(1);
    expect(result.facts).toMatchObject({ cameraMake: "Canon", cameraModel: "Canon EOS 80D" });
    expect(result.measurements?.namesCamera).toBe(true);
  });

  test("the same photo re-saved by Photoshop is flagged editing_software with the tag as measured value", async () => {
    const camera = await makeJpeg({ ...small, exif: cameraExif() });
    const edited = await resaveJpeg(camera, 90, {
      exif: cameraExif({ IFD0: { Software: "Adobe Photoshop 25.0 (Windows)", DateTime: "2024:03:20 18:00:00" } }),
    });
    const result = await detectImageMetadata(edited, NOW);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({ flag: "editing_software", detector: "image-metadata" });
    expect(String(result.evidence[0]!.measured)).toStartWith("Adobe Photoshop");
  });

  test("an editor named only in the XMP history is found too", async () => {
    const xmp = xmpPacket({}, [{ action: "saved", softwareAgent: "GIMP 2.10", when: "2024-03-15T10:00:00Z" }]);
    const result = await detectImageMetadata(await makeJpeg({ ...small, exif: cameraExif(), xmp }), NOW);
    expect(result.evidence.map((e) => e.message)).toEqual(["XMP history names an image editor (GIMP)"]);
  });

  test("a photo modified before it was taken is metadata_inconsistent", async () => {
    const exif = cameraExif({ IFD0: { DateTime: "2023:01:02 10:00:00" } });
    const result = await detectImageMetadata(await makeJpeg({ ...small, exif }), NOW);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({ flag: "metadata_inconsistent" });
    expect(result.evidence[0]!.message).toStartWith("Modified before it was taken");
  });

  test("a picture digitized before it was taken is metadata_inconsistent; digitized a day later (a scanned print) is not", async () => {
    const before = cameraExif({ IFD2: { DateTimeDigitized: "2024:03:13 09:26:53" } });
    const result = await detectImageMetadata(await makeJpeg({ ...small, exif: before }), NOW);
    expect(result.evidence.map((e) => [e.flag, e.measured])).toEqual([["metadata_inconsistent", "1440 min"]]);
    expect(result.evidence[0]!.message).toStartWith("Digitized before it was taken");
    const after = cameraExif({ IFD2: { DateTimeDigitized: "2024:03:15 09:26:53" } });
    expect((await detectImageMetadata(await makeJpeg({ ...small, exif: after }), NOW)).evidence).toEqual([]);
  });

  test("an app that stamps its save in UTC beside the camera's local time is a time zone, not a contradiction", async () => {
    const exif = cameraExif({ IFD0: { DateTime: "2024:03:14 07:31:02" } });
    expect((await detectImageMetadata(await makeJpeg({ ...small, exif }), NOW)).evidence).toEqual([]);
  });

  test("an XMP date with a zone within the slack of a zone-less EXIF date is not a contradiction", async () => {
    const xmp = xmpPacket({ "xmp:CreateDate": "2024-03-14T10:26:53+01:00" });
    const result = await detectImageMetadata(await makeJpeg({ ...small, exif: cameraExif(), xmp }), NOW);
    expect(result.evidence).toEqual([]);
  });

  test("a camera named without its capture data (a crop, a messaging app) raises nothing", async () => {
    const result = await detectImageMetadata(
      await makeJpeg({ ...small, exif: { IFD0: { Make: "Apple", Model: "iPhone 14" } } }),
      NOW,
    );
    expect(result.evidence).toEqual([]);
    expect(result.facts).toMatchObject({ cameraMake: "Apple", cameraModel: "iPhone 14" });
  });

  test.each([
    "Adobe Photoshop Lightroom Classic 13.0",
    "Adobe Photoshop Camera Raw 16.0",
    "Adobe Photoshop Express",
    "Snapseed 2.0",
  ])("a photo cropped in %s is not editing_software", async (Software) => {
    const result = await detectImageMetadata(
      await makeJpeg({ ...small, exif: cameraExif({ IFD0: { Software } }) }),
      NOW,
    );
    expect(result.evidence).toEqual([]);
    expect(result.facts.software).toEqual([`EXIF Software: ${Software}`]);
  });

  test("a scanner that names itself without exposure data is what a genuine scan looks like", async () => {
    const scanners: [string, string][] = [
      ["Canon", "CanoScan LiDE 400"],
      ["FUJITSU", "fi-7160"],
      ["HP", "HP OfficeJet Pro 9010"],
      ["Brother", "MFC-L2710DW"],
      ["EPSON", "ES-50"],
      ["EPSON", "Perfection V39"],
    ];
    for (const [Make, Model] of scanners) {
      const result = await detectImageMetadata(await makeJpeg({ ...small, exif: { IFD0: { Make, Model } } }), NOW);
      expect(result.evidence).toEqual([]);
    }
  });

  test("an image without metadata (as messaging apps send) accuses nothing and says it saw little", async () => {
    const result = await detectImageMetadata(await makeJpeg(small), NOW);
    expect(result.evidence).toEqual([]);
    expect(result.coverage).toBeLessThan(0.5);
    expect(result.measurements?.namesCamera).toBe(false);
  });
});
