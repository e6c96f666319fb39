// The clone search runs for seconds on a large photo, on the thread where the sidecar also
// answers gRPC: between slices it must hand the event loop back (src/limits/time-slices.ts),
// or the API's keepalive pings go unanswered and every call on the connection is dropped.
// Pausing changes when the search runs, never what it finds.
import { afterAll, describe, expect, test } from "bun:test";
import { copyMoveInput, findCopyMoves } from "../../../../sidecar/forensics/copy-move.ts";
import { createForensicsGraph } from "../../../../sidecar/forensics/graph.ts";
import { prepare } from "../../../../sidecar/forensics/prepare.ts";
import type { Box } from "../../../../sidecar/forensics/types.ts";
import { timeSlices } from "../../../../src/limits/time-slices.ts";
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
});
