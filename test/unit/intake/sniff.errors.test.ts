import { describe, expect, test } from "bun:test";
import { sniffFormat } from "../../../src/intake/sniff.ts";
import { makeGif, makeWebp } from "./fixtures.ts";

const ascii = (text: string) => new TextEncoder().encode(text);

describe("sniffFormat refuses", () => {
  test("GIF and WebP, which the service does not analyse", async () => {
    expect(sniffFormat(await makeGif())).toBeNull();
    expect(sniffFormat(await makeWebp())).toBeNull();
  });

  test("empty input, random bytes and prefixes of a magic number", () => {
    expect(sniffFormat(new Uint8Array(0))).toBeNull();
    expect(sniffFormat(crypto.getRandomValues(new Uint8Array(4096)).fill(0x41, 0, 8))).toBeNull();
    expect(sniffFormat(new Uint8Array([0xff, 0xd8]))).toBeNull();
    expect(sniffFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(sniffFormat(ascii("%PDF"))).toBeNull();
  });
});
