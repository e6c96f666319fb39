// The grey-copy cue: a document without colour in a scene with colour is a black-and-white copy
// photographed; a colour card in the same scene, a grey frame all over (a grey scan) and a card
// that fills the frame are not, and too few lines to place the document say nothing.
import { describe, expect, test } from "bun:test";
import { greyDocumentScore, greyDocumentTrace } from "../../../../sidecar/cues/index.ts";
import { measureGreyDocument } from "../../../../sidecar/cues/grey-document.ts";
import { GREY_DOCUMENT_THRESHOLDS } from "../../../../sidecar/cues/thresholds.ts";
import type { Box } from "../../../../sidecar/forensics/types.ts";
import { mulberry32 } from "../../../../scripts/mulberry32.ts";

const W = 640;
const H = 480;
type Rgb = [number, number, number];

/**
 * A frame: `scene` everywhere, and a card of 320 x 200 at (160, 140) whose colour at (x, y) is
 * `card(x, y)`, with dark text rows; camera noise over all of it.
 */
function frame(scene: (x: number, y: number) => Rgb, card: (x: number, y: number) => Rgb): Uint8Array {
  const random = mulberry32(7);
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inCard = x >= 160 && x < 480 && y >= 140 && y < 340;
      const text = inCard && x >= 260 && x < 460 && (y - 150) % 30 < 8 && x % 6 < 3;
      const c: Rgb = text ? [30, 30, 34] : inCard ? card(x, y) : scene(x, y);
      for (let k = 0; k < 3; k++) rgb[(y * W + x) * 3 + k] = Math.max(0, Math.min(255, c[k]! + (random() - 0.5) * 12));
    }
  }
  return rgb;
}

/** The text rows, as OCR boxes. */
const LINES: Box[] = Array.from({ length: 6 }, (_, i) => [260, 150 + i * 30, 200, 8]);
const desk = (x: number, y: number): Rgb => (y < 80 ? [176, 32, 42] : [150, 105, 60 + (x % 40)]);
const greyCopy = (): Rgb => [205, 205, 203];
/** Tinted guilloche bands and a colour portrait, as identity cards print them. */
const colourCard = (x: number, y: number): Rgb =>
  x < 250 ? [196, 150, 120] : (Math.floor(y / 12) + Math.floor(x / 40)) % 2 ? [200, 225, 205] : [225, 205, 230];

describe("a black-and-white copy photographed", () => {
  test("a grey card on a coloured desk: under the spread threshold, in a coloured scene", () => {
    const m = measureGreyDocument(frame(desk, greyCopy), W, H, LINES);
    expect(m.judged).toBe(true);
    expect(m.documentSpread).toBeLessThan(GREY_DOCUMENT_THRESHOLDS.documentSpread);
    expect(m.sceneSpread).toBeGreaterThan(GREY_DOCUMENT_THRESHOLDS.sceneSpread);
    expect(greyDocumentScore(m)).toBeGreaterThanOrEqual(1);
    expect(greyDocumentTrace(m)).toMatchObject({
      reliability: 1,
      measures: { greyDocument: { documentSpreadThreshold: 5 } },
    });
  });

  test("the colour card on the same desk spreads far over the threshold", () => {
    const m = measureGreyDocument(frame(desk, colourCard), W, H, LINES);
    expect(m.judged).toBe(true);
    expect(m.documentSpread).toBeGreaterThan(2 * GREY_DOCUMENT_THRESHOLDS.documentSpread);
    expect(greyDocumentScore(m)).toBeLessThan(1);
  });

  test("a lamp's mild cast over the whole grey card is no colour", () => {
    const warm = (): Rgb => [208, 205, 199];
    const m = measureGreyDocument(frame(desk, warm), W, H, LINES);
    expect(m.documentSpread).toBeLessThan(GREY_DOCUMENT_THRESHOLDS.documentSpread);
  });
});

describe("what the cue does not judge", () => {
  test("a grey frame all over (a grey scan or a grey photo): no coloured scene, no score", () => {
    const m = measureGreyDocument(
      frame(() => [120, 120, 120], greyCopy),
      W,
      H,
      LINES,
    );
    expect(m.judged).toBe(true);
    expect(m.sceneSpread).toBeLessThan(GREY_DOCUMENT_THRESHOLDS.sceneSpread);
    expect(greyDocumentScore(m)).toBe(0);
  });

  test("text across the whole frame leaves no scene; two lines place no document", () => {
    const wide: Box[] = [
      [0, 0, W, 10],
      [0, 235, W, 10],
      [0, H - 10, W, 10],
    ];
    expect(measureGreyDocument(frame(desk, greyCopy), W, H, wide).judged).toBe(false);
    expect(measureGreyDocument(frame(desk, greyCopy), W, H, LINES.slice(0, 2))).toMatchObject({ judged: false });
    const notJudged = greyDocumentTrace(measureGreyDocument(frame(desk, greyCopy), W, H, []));
    expect(notJudged).toMatchObject({ reliability: 0, globalScore: 0 });
  });
});
