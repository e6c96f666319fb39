// The import-cycle check CI runs (`npm run cycles`): its scanner must see every kind of
// import, type-only ones included, or a cycle would pass unnoticed.
import { describe, expect, test } from "bun:test";
import { cycles, specifiers } from "../../scripts/check-cycles.ts";

describe("the import-cycle check", () => {
  test("reads static, type-only, re-exported, bare and dynamic imports, not comments", () => {
    const source = [
      'import { a } from "./a.ts";',
      'import type { B } from "./b";',
      "import {",
      "  c,",
      "  type C,",
      '} from "./c.ts";',
      'export type { D } from "./d.ts";',
      'export * from "./e.ts";',
      'import "./f.ts";',
      'const g = await import("./g.ts");',
      '// import { h } from "./h.ts";',
      '/* import { i } from "./i.ts"; */',
      'const text = "not an import";',
    ].join("\n");
    expect(specifiers(source)).toEqual(["./a.ts", "./b", "./c.ts", "./d.ts", "./e.ts", "./f.ts", "./g.ts"]);
  });

  test("reports each cycle once, whatever its length, and nothing else", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
      ["e", ["e"]],
      ["f", ["d"]],
    ]);
    expect(cycles(graph).sort()).toEqual([["a", "b", "c"], ["e"]]);
  });
});
