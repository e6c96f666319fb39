import { describe, expect, test } from "bun:test";
import { readOperations } from "../../../src/analysis/pdf/content-tokens.ts";

const ops = (text: string, limits?: Parameters<typeof readOperations>[1]) =>
  readOperations(new Uint8Array(Buffer.from(text, "latin1")), limits);

describe("reading hostile content streams", () => {
  test("reads strings, arrays and names the way they are written", () => {
    const [tf, tj, arr] = ops("/F1 9 Tf (a\\) (b)) Tj [<4A4b> -20 (c)] TJ");
    expect(tf).toEqual({ op: "Tf", operands: [{ type: "name", name: "F1" }, 9] });
    expect(tj!.operands).toEqual([{ type: "string", hex: false, raw: "a\\) (b)" }]);
    expect(arr!.operands).toEqual([
      {
        type: "array",
        items: [{ type: "string", hex: true, raw: "4A4b" }, -20, { type: "string", hex: false, raw: "c" }],
      },
    ]);
  });

  test("an unterminated string, hex string or array ends the stream without throwing", () => {
    expect(() => ops("BT (never closed Tj")).not.toThrow();
    expect(() => ops("BT <4142 Tj")).not.toThrow();
    expect(ops("BT [ [ [ (x) TJ").map((o) => o.op)).toEqual(["BT", "TJ"]);
  });

  test("the bytes of an inline image are skipped, even when they spell operators", () => {
    const read = ops("BI /W 2 /H 1 /BPC 8 /CS /G ID \x00(Tj) <41> Tj\xff EI Q");
    expect(read.map((o) => o.op)).toEqual(["BI", "ID", "Q"]);
  });

  test("operations, operands and array items are bounded", () => {
    const many = "1 0 0 1 0 0 cm ".repeat(1_000);
    expect(ops(many, { maxOperations: 10, maxOperands: 16, maxArrayItems: 5 })).toHaveLength(10);
    const [wide] = ops(`${"1 ".repeat(10_000)}Tj`, { maxOperations: 10, maxOperands: 16, maxArrayItems: 5 });
    expect(wide!.operands).toHaveLength(16);
    const [array] = ops(`[${"1 ".repeat(10_000)}] TJ`, { maxOperations: 10, maxOperands: 16, maxArrayItems: 5 });
    expect(array!.operands).toEqual([{ type: "array", items: [1, 1, 1, 1, 1] }]);
  });

  test("arrays nested past any real use stop the reading instead of recursing", () => {
    expect(ops(`BT ${"[".repeat(100_000)}`)).toEqual([{ op: "BT", operands: [] }]);
  });
});
