// The detector manifest is what the README, the OpenAPI document and the fusion read: these
// keep the README's tables and the committed model in step with it.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { detectorTable } from "../../../scripts/detector-table.ts";
import { FLAGS } from "../../../src/analysis/flags.ts";
import { BLIND_SPOT_DETECTORS } from "../../../src/analysis/fusion/features.ts";
import { FUSION_MODEL } from "../../../src/analysis/fusion/model.ts";
import { DETECTORS, detectorsOfFlag } from "../../../src/analysis/manifest.ts";

const README = readFileSync(join(import.meta.dir, "../../../README.md"), "utf8");

describe("the detector manifest", () => {
  test("is what the README's detector table shows (bun scripts/detector-table.ts --write)", () => {
    expect(README).toContain(detectorTable());
  });

  test("names, for every flag, the detectors the README's flag table names", () => {
    const flagTable = README.slice(README.indexOf("| flag | class | detector | raised when |")).split("\n");
    for (const flag of FLAGS) {
      const row = flagTable.find((line) => line.startsWith(`| \`${flag}\` |`));
      const named = [...(row?.split(" | ")[2] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      expect({ flag, detectors: named.sort() }).toEqual({ flag, detectors: detectorsOfFlag(flag).sort() });
    }
  });

  test("has a switched-on detector for every flag, and one entry per name", () => {
    expect(FLAGS.filter((flag) => detectorsOfFlag(flag).length === 0)).toEqual([]);
    expect(new Set(DETECTORS.map((d) => d.name)).size).toBe(DETECTORS.length);
  });

  test("orders the blind-spot features as the committed model was trained", () => {
    expect(FUSION_MODEL.features.filter((f) => f.startsWith("blind:"))).toEqual(
      BLIND_SPOT_DETECTORS.map((d) => `blind:${d}`),
    );
  });

  test("keeps the localiser listed but not switched on", () => {
    expect(DETECTORS.find((d) => d.name === "localiser")?.switchedOn).toBe(false);
    expect(detectorsOfFlag("region_tampering")).not.toContain("localiser");
  });
});
