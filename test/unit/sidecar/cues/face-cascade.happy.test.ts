// The face detector's cascade (sidecar/models/face-cascade.json) is what the committed script
// extracts from the jsfeat package the lockfile pins, byte for byte, and what the models
// manifest records.
import { describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import manifest from "../../../../sidecar/models/manifest.json" with { type: "json" };
import { FACE_CASCADE_SOURCE, faceCascadeJson } from "../../../../scripts/models/extract-face-cascade.ts";

const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

describe("the face cascade", () => {
  test("is the one scripts/models/extract-face-cascade.ts extracts from jsfeat, as the manifest records", async () => {
    const shipped = await readFile(join(import.meta.dir, "../../../../sidecar/models/face-cascade.json"), "utf8");
    const source = await readFile(FACE_CASCADE_SOURCE, "utf8");
    expect(faceCascadeJson(source)).toBe(shipped);
    const recorded = manifest.derived["face-cascade.json"];
    expect({ sha256: sha256(shipped), bytes: Buffer.byteLength(shipped) }).toEqual({
      sha256: recorded.sha256,
      bytes: recorded.bytes,
    });
    expect(recorded.from[0]).toContain(sha256(source));
  });
});
