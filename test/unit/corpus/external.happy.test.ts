// The parts of the external families that need none of the external tools (CI has none):
// locale printing, the plan, the clock pinning, finding and retyping a value in a PDF, and
// the committed fixture set's consistency.
import { describe, expect, test } from "bun:test";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { payslip } from "../../../scripts/corpus/finance/model.ts";
import { randomPerson } from "../../../scripts/corpus/identity/person.ts";
import { type CorpusLabel, familyOf, isGenuine } from "../../../scripts/corpus/labels.ts";
import { openPdf, savePdf } from "../../../scripts/corpus/pdf/edit.ts";
import { Rng } from "../../../scripts/corpus/rng.ts";
import { localAmount, localize } from "../../../scripts/corpus/external/locale.ts";
import { findText, retype } from "../../../scripts/corpus/external/pdf-forge.ts";
import { pinClock } from "../../../scripts/corpus/external/pdf-tools.ts";
import { EXTERNAL_FAMILIES, planExternal } from "../../../scripts/corpus/external/plan.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures/families");

describe("external families: locales", () => {
  test("print amounts the German, French and English way", () => {
    expect(localAmount("-12,345.06", "de")).toBe("-12.345,06");
    expect(localAmount("1,234,567.89", "fr")).toBe("1 234 567,89");
    expect(localAmount("1,234.56", "en")).toBe("1,234.56");
    expect(localAmount("FR76 1234", "de")).toBe("FR76 1234");
  });

  test("translate a payslip's labels and write its dates with dots in German", () => {
    const today = new Date(Date.UTC(2025, 2, 1));
    const rng = Rng.derive(1, "locale");
    const doc = localize(payslip(rng, randomPerson(rng, today), today), "de");
    expect(doc.columns.map((c) => c.header)).toEqual(["Lohnart", "Bezüge", "Abzüge"]);
    expect(doc.summary.map(([name]) => name)).toEqual(["Bruttobezug", "Summe Abzüge", "Auszahlungsbetrag"]);
    expect(doc.meta.find(([name]) => name === "Auszahlung am")?.[1].text).toMatch(/^\d\d\.\d\d\.\d{4}$/);
    for (const [, cell] of doc.summary) expect(cell.text).toMatch(/^-?\d{1,3}(\.\d{3})*,\d\d$/);
  });
});

describe("external families: plan", () => {
  test("numbers x0001… and holds every family's recipes, genuine and forged", () => {
    const small = planExternal(42, "small");
    expect(small.map((d) => d.id)).toEqual(small.map((_, i) => `x${String(i + 1).padStart(4, "0")}`));
    expect(planExternal(42, "full").length).toBe(144);
    for (const family of EXTERNAL_FAMILIES) {
      const docs = small.filter((d) => d.family === family);
      expect(docs.some((d) => isGenuine(d.recipe.kind))).toBe(true);
      expect(docs.some((d) => !isGenuine(d.recipe.kind))).toBe(true);
    }
  });

  test("is the same for the same seed and splits about 70/30", () => {
    const a = planExternal(7, "full");
    expect(planExternal(7, "full").map((d) => d.split)).toEqual(a.map((d) => d.split));
    const train = a.filter((d) => d.split === "train").length / a.length;
    expect(train).toBeGreaterThan(0.6);
    expect(train).toBeLessThan(0.8);
  });
});

describe("external families: PDFs", () => {
  test("pinClock writes the corpus clock over the tool's and makes the file identifier a content hash", () => {
    const made = (id: string) =>
      new Uint8Array(
        Buffer.from(
          `%PDF-1.4\n1 0 obj <</CreationDate (D:20261126133307Z')>> endobj\ntrailer <</ID[<${id}><${id}>]>>\n%%EOF\n`,
          "latin1",
        ),
      );
    const when = new Date(Date.UTC(2025, 1, 3, 4, 5, 6));
    const original = made("00112233445566778899AABBCCDDEEFF");
    const a = pinClock(original, when);
    const b = pinClock(made("FFEEDDCCBBAA99887766554433221100"), when);
    expect(Buffer.from(a).toString("latin1")).toContain("D:20250203040506Z'");
    // Same length: no offset of the cross-reference table moves.
    expect(a.length).toBe(original.length);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  test("findText finds a value only whole, and retype replaces its glyphs", async () => {
    const pdfLib = await PDFDocument.create();
    const page = pdfLib.addPage([300, 200]);
    const font = await pdfLib.embedFont(StandardFonts.Helvetica);
    page.drawText("Saldo 13.870,30", { x: 20, y: 150, size: 10, font });
    page.drawText("Haben 3.870,30", { x: 20, y: 120, size: 10, font });
    const doc = openPdf(await pdfLib.save());
    const hits = findText(doc.loadPage(0), "3.870,30");
    expect(hits.length).toBe(1);
    // The second line: origin top-left, 200 - 120 - ascent.
    expect(hits[0]!.box.y).toBeGreaterThan(60);
    await retype(doc, hits[0]!, "5.870,30", true);
    const text = openPdf(savePdf(doc, "rewrite")).loadPage(0).toStructuredText("preserve-whitespace").asText();
    expect(text).toContain("5.870,30");
    expect(text).toContain("13.870,30");
    expect(text).not.toMatch(/(^|[^\d.])3\.870,30/m);
  });
});

describe("external families: committed fixtures", () => {
  test("label every file, name its family, and stay small", async () => {
    const labels = (await readFile(join(FIXTURES, "labels.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as CorpusLabel);
    let bytes = 0;
    for (const label of labels) {
      bytes += (await stat(join(FIXTURES, label.file))).size;
      expect(label.family).toBe(familyOf(label.generator, label.history));
    }
    expect(bytes).toBeLessThan(1.5 * 1024 * 1024);
    expect(new Set(labels.map((l) => l.family)).size).toBeGreaterThanOrEqual(4);
    expect(labels.some((l) => l.label === "genuine") && labels.some((l) => l.label === "forged")).toBe(true);
  });
});
