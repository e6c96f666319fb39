// The ghost image check on real pixels: a passport page of the seed-7 corpus's pp_td3_a
// template re-saved by an editor (genuine.jpg), the same page with its portrait swapped for
// another face and its ghost left (swapped-portrait.jpg; both in test/fixtures/ghost/, made
// by scripts/corpus/manipulate/), and an ID card that prints no ghost. One photograph printed
// twice is one face; a swap leaves two.
import { describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { GHOST_THRESHOLDS } from "../../../../sidecar/cues/index.ts";
import { measureGhost } from "../../../../sidecar/cues/portrait-ghost.ts";
import { prepare } from "../../../../sidecar/forensics/prepare.ts";
import { decodeImage } from "../../../../sidecar/server/decode-image.ts";
import { DEFAULT_LIMITS } from "../../../../sidecar/server/limits.ts";

const FIXTURES = join(import.meta.dir, "../../../fixtures");

async function ghostOf(file: string) {
  const page = await decodeImage(new Uint8Array(await readFile(join(FIXTURES, file))), "jpeg", DEFAULT_LIMITS);
  const prepared = prepare(page.image.data, page.image.width, page.image.height, 90);
  return measureGhost(prepared.rgb, prepared.width, prepared.height);
}

describe("ghost image", () => {
  test("on a genuine page, finds the portrait's face and its ghost beside it, and they agree", async () => {
    const g = await ghostOf("ghost/genuine.jpg");
    expect(g.face).not.toBeNull();
    expect(g.ghost).not.toBeNull();
    // The ghost is smaller than the portrait and to its right, as the template prints it.
    expect(g.ghost![2]).toBeLessThan(g.face![2]);
    expect(g.ghost![0]).toBeGreaterThan(g.face![0] + g.face![2]);
    expect(g.similarity!).toBeGreaterThanOrEqual(GHOST_THRESHOLDS.similarity + 0.15);
  });

  test("on the same page with its portrait swapped, finds the same ghost and the faces disagree", async () => {
    const [genuine, swapped] = [await ghostOf("ghost/genuine.jpg"), await ghostOf("ghost/swapped-portrait.jpg")];
    expect(swapped.ghost).not.toBeNull();
    // The same ghost, give or take the detector's placement.
    expect(Math.abs(swapped.ghost![0] - genuine.ghost![0])).toBeLessThan(genuine.ghost![2] * 0.2);
    expect(Math.abs(swapped.ghost![1] - genuine.ghost![1])).toBeLessThan(genuine.ghost![3] * 0.2);
    expect(swapped.similarity!).toBeLessThan(GHOST_THRESHOLDS.similarity);
  });

  test("on a card that prints no ghost, compares nothing", async () => {
    const g = await ghostOf("pixel-cues/id-card-scan.jpg");
    expect(g.ghost).toBeNull();
    expect(g.similarity).toBeNull();
  });
});
