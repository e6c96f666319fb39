import { describe, expect, test } from "bun:test";
import { containsWithinOneEdit } from "../../../src/analysis/content/near-match.ts";

describe("a phrase within one edit", () => {
  test("found as printed, with a letter misread, lost or added, anywhere in the text", () => {
    expect(containsWithinOneEdit("XXHEURESPLEINESYY", "HEURESPLEINES")).toBe(true);
    expect(containsWithinOneEdit("CONSONUMATONHEUTESPLEINES", "HEURESPLEINES")).toBe(true);
    expect(containsWithinOneEdit("HEURESPLEIES", "HEURESPLEINES")).toBe(true);
    expect(containsWithinOneEdit("HEURESSPLEINES", "HEURESPLEINES")).toBe(true);
  });

  test("two edits, or a text too short, are not the phrase", () => {
    expect(containsWithinOneEdit("HERESCREUSET", "HEURESCREUSES")).toBe(false);
    expect(containsWithinOneEdit("HEURES", "HEURESPLEINES")).toBe(false);
    expect(containsWithinOneEdit("", "AB")).toBe(false);
  });
});
