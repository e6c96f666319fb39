import { describe, expect, test } from "bun:test";
import { classifyDocumentType } from "../../../src/analysis/document-type.ts";
import type { DocumentText } from "../../../src/analysis/content/text.ts";
import type { Box } from "../../../src/analysis/report.ts";

/** One OCR'd page of lines at the given boxes. */
const page = (lines: readonly [string, Box][]): DocumentText => ({
  pages: [
    {
      page: 1,
      width: 1080,
      height: 1920,
      lines: lines.map(([text, box]) => ({ text, box, confidence: 0.95, source: "ocr" as const })),
    },
  ],
});

/** A magazine's column of sentences, one line every 40 pixels from `top`, at `left`. */
const column = (left: number, top: number, count: number): [string, Box][] =>
  Array.from({ length: count }, (_, i): [string, Box] => [
    "the concert starts at eight and tickets are sold at the door",
    [left, top + i * 40, 420, 30],
  ]);

const card: [string, Box][] = [
  ["EESTI VABARIIK ISIKUTUNNISTUS", [340, 880, 480, 40]],
  ["REPUBLIC OF ESTONIA IDENTITY CARD", [350, 925, 380, 36]],
  ["LASS", [400, 980, 90, 34]],
  ["AARNE", [400, 1040, 90, 30]],
  ["20.10.1977", [500, 1160, 130, 34]],
];

describe("document type: where the sentences stand", () => {
  test("a card photographed on a magazine is a card: the magazine's sentences lie outside it", () => {
    const photo = page([...column(0, 20, 18), ...card, ...column(0, 1300, 14)]);
    expect(classifyDocumentType({ document: photo })).toEqual({
      documentType: "id",
      basis: "text: identity card title (ISIKUTUNNISTUS), identity card title (IDENTITYCARD)",
    });
    // The same rows without their places: every sentence counts, and the card is not named.
    const text = [...column(0, 20, 18), ...card, ...column(0, 1300, 14)].map(([t]) => t).join("\n");
    expect(classifyDocumentType({ text }).documentType).toBe("unknown");
  });

  test("a passport office's letter quoting a surname sets its sentences among the cues", () => {
    const letter = page([
      ["HM Passport Office", [100, 100, 300, 30]],
      ["We have received your application for a new passport and will write", [100, 200, 800, 30]],
      ["to you again if we need any more information from you about it.", [100, 240, 800, 30]],
      ["Surname: SMITH", [100, 300, 200, 30]],
      ["Date of birth: 12 March 1985", [100, 340, 300, 30]],
      ["You can track your application online at any time from our website.", [100, 400, 800, 30]],
    ]);
    expect(classifyDocumentType({ document: letter }).documentType).toBe("unknown");
  });

  test("a lone title on a page of sentences names nothing, wherever the sentences stand", () => {
    const flyer = page([["PASSPORT", [100, 100, 200, 40]], ...column(100, 600, 10)]);
    expect(classifyDocumentType({ document: flyer }).documentType).toBe("unknown");
  });
});
