import { expect, test } from "bun:test";
import { fuse } from "../../../src/analysis/fusion.ts";
import type { DetectorResult } from "../../../src/analysis/report.ts";

const pixelOnly: DetectorResult[] = [
  {
    detector: "pixel-residuals",
    coverage: 1,
    facts: {},
    evidence: [
      {
        flag: "region_tampering",
        detector: "pixel-residuals",
        strength: 0.6,
        message: "a line stands out",
        page: 1,
        box: [10, 10, 50, 12],
        measured: 3.5,
        threshold: 3.2,
      },
    ],
  },
];

test("a pixel trace alone is kept as evidence but not listed as a flag, and cannot give a high score", () => {
  const fusion = fuse(pixelOnly);
  expect(fusion.flags).not.toContain("region_tampering");
  expect(fusion.evidence.map((e) => e.flag)).toContain("region_tampering");
  expect(fusion.forgeryScore).toBeLessThan(0.5);
});

test("metadata an editor left is listed whatever else is found", () => {
  const fusion = fuse([
    ...pixelOnly,
    {
      detector: "image-metadata",
      coverage: 1,
      facts: {},
      evidence: [
        { flag: "editing_software", detector: "image-metadata", strength: 0.9, message: "Adobe Photoshop 25.0" },
      ],
    },
  ]);
  expect(fusion.flags).toContain("editing_software");
  // A provenance concern: it adds to evidence of alteration, and the pixel traces here are
  // not that evidence, so the editor's name alone keeps the document under the line.
  expect(fusion.forgeryScore).toBeLessThan(0.5);
});
