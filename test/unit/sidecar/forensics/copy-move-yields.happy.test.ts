// The clone search runs for seconds on a large photo, on the thread where the sidecar also
// answers gRPC: between slices it must hand the event loop back (src/limits/time-slices.ts),
// or the API's keepalive pings go unanswered and every call on the connection is dropped.
// Pausing changes when the search runs, never what it finds.
import { afterAll, describe, expect, test } from "bun:test";
import {
  type CopyMoveInput,
  MAX_COMPARED_BLOCKS,
  copyMoveInput,
  findCopyMoves,
} from "../../../../sidecar/forensics/copy-move.ts";
import { CM_BLOCK, CM_FREQS, CM_STEP } from "../../../../sidecar/forensics/graph-spec.ts";
import { createForensicsGraph } from "../../../../sidecar/forensics/graph.ts";
import { prepare } from "../../../../sidecar/forensics/prepare.ts";
import type { Box } from "../../../../sidecar/forensics/types.ts";
import { type TimeSlices, timeSlices } from "../../../../src/limits/time-slices.ts";
import { copyMoved } from "./page-fixture.ts";

const graph = await createForensicsGraph({ device: "cpu" });
afterAll(() => graph.close());

async function searchInput() {
  const forgery = await copyMoved(1, "margin");
  const { rgb, width, height } = forgery.page;
  const prepared = prepare(rgb, width, height, 85);
  const maps = await graph.run(prepared.rgb, prepared.width, prepared.height, prepared.elaSteps);
  return copyMoveInput(
    maps,
    prepared,
    forgery.lines.map((line) => line.box as Box),
  );
}

describe("the clone search shares the event loop", () => {
  test("with every slice used up it pauses, so callbacks waiting on the loop run before it ends, and it finds the same clones", async () => {
    const input = await searchInput();
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    // A slice of 0 ms is always used up: the search pauses at its first check.
    const paused = findCopyMoves(input, timeSlices(0));
    expect(ran).toBe(false);
    const result = await paused;
    expect(ran).toBe(true);
    const unpaused = await findCopyMoves(input, timeSlices(Number.POSITIVE_INFINITY));
    expect(result).toEqual(unpaused);
    expect(result.copyMoves.length).toBeGreaterThan(0);
  }, 30_000);

  test("hands the loop back during the sort of a million blocks too", async () => {
    // A 2167 x 1360 photo of a card gave 1.26 million blocks to compare; their sort held the loop
    // for 1.1 to 1.4 s in one stretch. Here 950,000 blocks (the graph may give up to
    // MAX_COMPARED_BLOCKS) with seeded features, all in text lines but one, so that the search
    // runs and only the sort and the votes have much work.
    const [cmCols, cmRows] = [1000, 950];
    const count = cmCols * cmRows;
    expect(count).toBeLessThanOrEqual(MAX_COMPARED_BLOCKS);
    const features = new Float32Array(CM_FREQS * CM_FREQS * count);
    let seed = 7;
    for (let i = 0; i < features.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      features[i] = (seed / 2147483648 - 0.5) * 2000;
    }
    const width = (cmCols - 1) * CM_STEP + CM_BLOCK;
    const height = (cmRows - 1) * CM_STEP + CM_BLOCK;
    const textMask = new Uint8Array(count).fill(1);
    textMask[0] = 0;
    const input: CopyMoveInput = {
      blocks: Int32Array.from({ length: count }, (_, i) => i),
      features,
      cmCols,
      cmRows,
      rgb: new Uint8Array(width * height * 3),
      width,
      textMask,
    };
    // The longest stretch without a pause, from the start to the end of the search.
    const slices = timeSlices();
    let last = performance.now();
    let longest = 0;
    const timed: TimeSlices = {
      due: () => slices.due(),
      pause: async () => {
        longest = Math.max(longest, performance.now() - last);
        await slices.pause();
        last = performance.now();
      },
    };
    const result = await findCopyMoves(input, timed);
    longest = Math.max(longest, performance.now() - last);
    expect(result).toMatchObject({ judged: true, texturedBlocks: count });
    // Slices are 20 ms; a check comes every 65,536 blocks of a pass (some 5 ms here).
    expect(longest).toBeLessThan(250);
  }, 60_000);
});
