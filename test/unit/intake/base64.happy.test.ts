import { describe, expect, test } from "bun:test";
import { decodeBase64Document } from "../../../src/intake/base64.ts";

const bytes = crypto.getRandomValues(new Uint8Array(3_001));
const plain = Buffer.from(bytes).toString("base64");

describe("decodeBase64Document", () => {
  test("decodes plain base64 to the original bytes", () => {
    expect(decodeBase64Document(plain)).toEqual(bytes);
  });

  test("decodes a data URL, whatever MIME type it claims", () => {
    expect(decodeBase64Document(`data:image/png;base64,${plain}`)).toEqual(bytes);
    expect(decodeBase64Document(`data:application/octet-stream;base64,${plain}`)).toEqual(bytes);
    expect(decodeBase64Document(`DATA:image/jpeg;name=scan.jpg;BASE64,${plain}`)).toEqual(bytes);
  });

  test("tolerates line breaks and surrounding whitespace, as MIME encoders write them", () => {
    const wrapped = `\n  ${plain.match(/.{1,76}/g)?.join("\r\n")}\n`;
    expect(decodeBase64Document(wrapped)).toEqual(bytes);
    expect(decodeBase64Document(`data:image/png;base64,${wrapped}`)).toEqual(bytes);
  });

  test("accepts base64 whose '=' padding was dropped", () => {
    const two = new Uint8Array([1, 2]);
    const one = new Uint8Array([1]);
    expect(decodeBase64Document(Buffer.from(two).toString("base64").replace(/=+$/, ""))).toEqual(two);
    expect(decodeBase64Document(Buffer.from(one).toString("base64").replace(/=+$/, ""))).toEqual(one);
  });

  test("accepts a document of exactly the limit", () => {
    const exact = new Uint8Array(4_500_000);
    expect(decodeBase64Document(Buffer.from(exact).toString("base64")).byteLength).toBe(4_500_000);
  });
});
