import { describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import type { CorpusLabel } from "../../../scripts/corpus/labels.ts";
import { documentPath } from "../../../scripts/eval/corpus-input.ts";

const withFile = (file: string) => ({ id: "d0001", file }) as CorpusLabel;

describe("a labels.jsonl line cannot make the evaluation read outside the corpus folder", () => {
  test("a plain file name resolves inside the folder", () => {
    expect(documentPath("/corpus", withFile("d0001.pdf"))).toBe(join(resolve("/corpus"), "d0001.pdf"));
  });

  test("a parent-directory path is refused", () => {
    expect(() => documentPath("/corpus", withFile("../etc/passwd"))).toThrow("outside the corpus folder");
  });

  test("an absolute path is refused", () => {
    expect(() => documentPath("/corpus", withFile("/etc/passwd"))).toThrow("outside the corpus folder");
  });

  test("the folder itself is refused", () => {
    expect(() => documentPath("/corpus", withFile("."))).toThrow("outside the corpus folder");
  });
});
