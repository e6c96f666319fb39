import { describe, expect, test } from "bun:test";
import { cropQuad } from "../../../../sidecar/ocr/crop.ts";
import { dbBoxes } from "../../../../sidecar/ocr/db-postprocess.ts";
import { readingOrder } from "../../../../sidecar/ocr/detect.ts";
import {
  type Point,
  type Quad,
  minAreaRect,
  orderQuad,
  rectCorners,
  unclipRect,
} from "../../../../sidecar/ocr/geometry.ts";

const near = (a: number, b: number, tolerance = 1e-6) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tolerance);

/** A probability map with 1.0 inside a rotated rectangle and 0 elsewhere. */
function rotatedBar(
  width: number,
  height: number,
  cx: number,
  cy: number,
  length: number,
  thickness: number,
  angle: number,
) {
  const prob = new Float32Array(width * height);
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = (x - cx) * ux + (y - cy) * uy;
      const v = -(x - cx) * uy + (y - cy) * ux;
      if (Math.abs(u) <= length / 2 && Math.abs(v) <= thickness / 2) prob[y * width + x] = 1;
    }
  }
  return prob;
}

describe("box geometry", () => {
  test("the minimum-area rectangle of a rotated rectangle's corners is that rectangle", () => {
    const corners = rectCorners({ cx: 50, cy: 40, width: 60, height: 20, angle: 0.3 });
    const rect = minAreaRect([...corners, [50, 40], [60, 45]]);
    near(rect.width * rect.height, 1200, 1e-6);
    near(Math.max(rect.width, rect.height), 60);
    near(rect.cx, 50);
    near(rect.cy, 40);
  });

  test("unclip grows a rectangle by area x ratio / perimeter on every side", () => {
    const grown = unclipRect({ cx: 0, cy: 0, width: 100, height: 10, angle: 0 }, 1.5);
    const d = (100 * 10 * 1.5) / 220;
    near(grown.width, 100 + 2 * d);
    near(grown.height, 10 + 2 * d);
  });

  test("corners are ordered top-left, top-right, bottom-right, bottom-left", () => {
    const shuffled: Point[] = [
      [10, 20],
      [0, 0],
      [10, 0],
      [0, 20],
    ];
    expect(orderQuad(shuffled)).toEqual([
      [0, 0],
      [10, 0],
      [10, 20],
      [0, 20],
    ]);
  });

  test("boxes on one line are read left to right even when their tops differ a little", () => {
    const box = (x: number, y: number): Quad => [
      [x, y],
      [x + 50, y],
      [x + 50, y + 20],
      [x, y + 20],
    ];
    const ordered = readingOrder([box(200, 102), box(0, 100), box(100, 98), box(0, 200)]);
    expect(ordered.map((q) => q[0])).toEqual([
      [0, 100],
      [100, 98],
      [200, 102],
      [0, 200],
    ]);
  });
});

describe("DB post-processing", () => {
  test("turns a slanted text region into one rotated box grown by the unclip distance", () => {
    const angle = (12 * Math.PI) / 180;
    const boxes = dbBoxes(rotatedBar(320, 160, 160, 80, 200, 16, angle), 320, 160);
    expect(boxes).toHaveLength(1);
    const [tl, tr, , bl] = boxes[0]!.quad;
    near(Math.atan2(tr[1] - tl[1], tr[0] - tl[0]), angle, 0.03);
    const d = (200 * 16 * 1.5) / (2 * 216);
    near(Math.hypot(tr[0] - tl[0], tr[1] - tl[1]), 200 + 2 * d, 3);
    near(Math.hypot(bl[0] - tl[0], bl[1] - tl[1]), 16 + 2 * d, 3);
    expect(boxes[0]!.score).toBeGreaterThan(0.9);
  });

  test("drops regions thinner than 3 pixels and faint regions", () => {
    expect(dbBoxes(rotatedBar(100, 50, 50, 25, 60, 1, 0), 100, 50)).toEqual([]);
    const faint = rotatedBar(100, 50, 50, 25, 60, 10, 0).map((p) => p * 0.5);
    expect(dbBoxes(faint, 100, 50)).toEqual([]);
  });

  test("examines at most maxCandidates regions", () => {
    const width = 400;
    const prob = new Float32Array(width * 40);
    for (let i = 0; i < 50; i++) {
      for (let y = 10; y < 30; y++) for (let x = i * 8; x < i * 8 + 5; x++) prob[y * width + x] = 1;
    }
    expect(
      dbBoxes(prob, width, 40, { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5, maxCandidates: 7 }),
    ).toHaveLength(7);
  });
});

/** A probability map with 1.0 in each axis-aligned [x0, y0, x1, y1] rectangle (inclusive). */
function blocks(width: number, height: number, rects: [number, number, number, number][]) {
  const prob = new Float32Array(width * height);
  for (const [x0, y0, x1, y1] of rects) {
    for (let y = y0; y <= y1; y++) prob.fill(1, y * width + x0, y * width + x1 + 1);
  }
  return prob;
}

const boxHeight = ({ quad }: { quad: Quad }) => quad[3][1] - quad[0][1];
const boxTop = ({ quad }: { quad: Quad }) => quad[0][1];

describe("stacked lines in the probability map", () => {
  // Three ordinary lines 8 rows high set the page's line height.
  const lines: [number, number, number, number][] = [
    [20, 10, 120, 17],
    [20, 30, 120, 37],
    [20, 50, 120, 57],
  ];

  test("two lines joined by a bridge are cut at the valley into two boxes, each one line high", () => {
    // Two lines 8 rows high, two nearly empty rows apart, joined by a one-pixel bridge.
    const prob = blocks(300, 200, [...lines, [150, 100, 250, 107], [150, 110, 250, 117], [150, 108, 150, 109]]);
    const boxes = dbBoxes(prob, 300, 200).filter((box) => box.quad[0][0] > 100);
    expect(boxes).toHaveLength(2);
    const single = dbBoxes(blocks(300, 200, lines), 300, 200)[0]!;
    for (const box of boxes) near(boxHeight(box), boxHeight(single), 0.5);
    // Each box sits on its own line's rows, as the single line's box sits on rows 10-17.
    near(boxTop(boxes[0]!) - 100, boxTop(single) - 10, 0.5);
    near(boxTop(boxes[1]!) - 110, boxTop(single) - 10, 0.5);
  });

  test("a line twice as high with no valley stays one box", () => {
    const prob = blocks(300, 200, [...lines, [150, 100, 250, 117]]);
    const boxes = dbBoxes(prob, 300, 200).filter((box) => box.quad[0][0] > 100);
    expect(boxes).toHaveLength(1);
    expect(boxHeight(boxes[0]!)).toBeGreaterThan(25);
  });

  test("a vertical line of text with a gap between two words stays one box", () => {
    // Upright words 40 rows long, 8 wide, joined across a two-row word gap by a thin stroke.
    const prob = blocks(300, 200, [...lines, [200, 80, 207, 119], [200, 122, 207, 161], [203, 120, 203, 121]]);
    expect(dbBoxes(prob, 300, 200).filter((box) => box.quad[0][0] > 100)).toHaveLength(1);
  });
});

describe("cropping a rotated box", () => {
  test("straightens a slanted dark bar into a horizontal strip of the recognition height", () => {
    const width = 300;
    const height = 200;
    const angle = (20 * Math.PI) / 180;
    const dark = rotatedBar(width, height, 150, 100, 200, 30, angle);
    const data = new Uint8Array(width * height * 3).fill(255);
    dark.forEach((p, i) => {
      if (p) data.fill(0, i * 3, i * 3 + 3);
    });
    const quad = orderQuad(rectCorners({ cx: 150, cy: 100, width: 200, height: 30, angle }));
    const crop = cropQuad({ data, width, height }, quad, 48, 3200);
    expect(crop.height).toBe(48);
    expect(crop.width).toBe(Math.round((48 * 200) / 30));
    // The middle of the strip is the bar; nearly every sampled pixel there is dark.
    let darkPixels = 0;
    let total = 0;
    for (let y = 8; y < 40; y++) {
      for (let x = 10; x < crop.width - 10; x++, total++) if (crop.data[(y * crop.width + x) * 3]! < 64) darkPixels++;
    }
    expect(darkPixels / total).toBeGreaterThan(0.97);
  });

  test("reads a tall box as a rotated line and caps very long lines at the maximum width", () => {
    const data = new Uint8Array(100 * 1000 * 3).fill(255);
    const tall: Quad = [
      [40, 0],
      [60, 0],
      [60, 1000],
      [40, 1000],
    ];
    const crop = cropQuad({ data, width: 100, height: 1000 }, tall, 48, 1200);
    expect([crop.width, crop.height]).toEqual([1200, 48]);
  });
});
