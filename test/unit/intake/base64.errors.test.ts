import { describe, expect, test } from "bun:test";
import { isAppError } from "../../../src/errors.ts";
import { decodeBase64Document } from "../../../src/intake/base64.ts";

function codeOf(run: () => unknown): string {
  try {
    run();
    return "accepted";
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
}

describe("decodeBase64Document refuses", () => {
  test("characters outside the base64 alphabet with VALIDATION_ERROR", () => {
    expect(codeOf(() => decodeBase64Document("aGVsbG8*"))).toBe("VALIDATION_ERROR");
    expect(codeOf(() => decodeBase64Document("not base64 at all!"))).toBe("VALIDATION_ERROR");
    expect(codeOf(() => decodeBase64Document("aGVsbG8=aGVs"))).toBe("VALIDATION_ERROR");
  });

  test("a length no base64 can have, and misplaced padding, with VALIDATION_ERROR", () => {
    expect(codeOf(() => decodeBase64Document("aGVsb"))).toBe("VALIDATION_ERROR");
    expect(codeOf(() => decodeBase64Document("aGVsbG8=="))).toBe("VALIDATION_ERROR");
  });

  test("empty input and an empty data URL with VALIDATION_ERROR", () => {
    expect(codeOf(() => decodeBase64Document(""))).toBe("VALIDATION_ERROR");
    expect(codeOf(() => decodeBase64Document(" \n "))).toBe("VALIDATION_ERROR");
    expect(codeOf(() => decodeBase64Document("data:image/png;base64,"))).toBe("VALIDATION_ERROR");
  });

  test("a data URL that is not base64-encoded with VALIDATION_ERROR", () => {
    expect(codeOf(() => decodeBase64Document("data:image/png,%89PNG"))).toBe("VALIDATION_ERROR");
  });

  test("one decoded byte over the limit with FILE_TOO_LARGE", () => {
    const over = Buffer.alloc(4_500_001).toString("base64");
    expect(codeOf(() => decodeBase64Document(over))).toBe("FILE_TOO_LARGE");
    expect(codeOf(() => decodeBase64Document(Buffer.alloc(101).toString("base64"), 100))).toBe("FILE_TOO_LARGE");
    expect(codeOf(() => decodeBase64Document(Buffer.alloc(100).toString("base64"), 100))).toBe("accepted");
  });

  test("an oversized string from its length alone, before trying to decode it", () => {
    // Invalid base64 of oversized length: the size answer proves decoding was never attempted.
    expect(codeOf(() => decodeBase64Document("*".repeat(6_000_004)))).toBe("FILE_TOO_LARGE");
  });
});
