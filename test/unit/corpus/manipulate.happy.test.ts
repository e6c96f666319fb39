// The manipulated families (scripts/corpus/manipulate): the committed fixtures' labels, the
// plan's balance, and, where Debian's Python has OpenCV, that the generator gives the same
// bytes twice. CI has no OpenCV: there the generator must refuse with its one-line hint.
import { describe, expect, test } from "bun:test";
import { cp, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import {
  type CorpusLabel,
  capturePath,
  familyOf,
  isGenuine,
  MANIPULATED_FORGERY_KINDS,
  MANIPULATED_GENUINE_KINDS,
  typesFor,
} from "../../../scripts/corpus/labels.ts";
import { planCorpus } from "../../../scripts/corpus/plan.ts";
import { Rng } from "../../../scripts/corpus/rng.ts";
import { writeBaseSample } from "../../../scripts/corpus/manipulate/base-sample.ts";
import { writeManipulated } from "../../../scripts/corpus/manipulate/corpus.ts";
import { raiseAmount } from "../../../scripts/corpus/manipulate/finance-bases.ts";
import { hasPixelTools, requirePixelTools } from "../../../scripts/corpus/manipulate/pixel-worker.ts";
import {
  MANIPULATIONS,
  PATHS,
  planManipulations,
  type PlannedManipulation,
} from "../../../scripts/corpus/manipulate/plan.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures/manipulations");
const KNOWN = new Set<string>([...MANIPULATED_FORGERY_KINDS, ...MANIPULATED_GENUINE_KINDS, "genuine_recompressed"]);

async function fixtureLabels(): Promise<CorpusLabel[]> {
  return (await readFile(join(FIXTURES, "labels.jsonl"), "utf8"))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CorpusLabel);
}

/** Every region of a label lies inside the file's pixels and has an area. */
async function expectRegionsInside(dir: string, label: CorpusLabel): Promise<void> {
  const { width, height } = await sharp(join(dir, label.file)).metadata();
  for (const r of label.forgery?.regions ?? []) {
    expect(r.unit).toBe("px");
    expect(r.page).toBe(0);
    expect(r.box.w).toBeGreaterThan(0);
    expect(r.box.h).toBeGreaterThan(0);
    expect(r.box.x).toBeGreaterThanOrEqual(0);
    expect(r.box.y).toBeGreaterThanOrEqual(0);
    expect(r.box.x + r.box.w).toBeLessThanOrEqual(width!);
    expect(r.box.y + r.box.h).toBeLessThanOrEqual(height!);
  }
}

describe("manipulated families: committed fixtures", () => {
  test("label every file with a known kind, a document type the kind applies to and the right verdict", async () => {
    const labels = await fixtureLabels();
    expect(labels.length).toBeGreaterThanOrEqual(6);
    for (const l of labels) {
      expect(KNOWN.has(l.kind)).toBe(true);
      expect(typesFor(l.kind)).toContain(l.documentType);
      expect(l.label).toBe(isGenuine(l.kind) ? "genuine" : "forged");
      expect(l.generator).toBe("opencv");
      expect(l.family).toBe(familyOf(l.generator, l.history));
      expect(l.format).toBe("jpeg");
      const bytes = await readFile(join(FIXTURES, l.file));
      expect([bytes[0], bytes[1], bytes[2]]).toEqual([0xff, 0xd8, 0xff]);
    }
    for (const kind of MANIPULATIONS) expect(labels.some((l) => l.kind === kind)).toBe(true);
    const total = await Promise.all(labels.map(async (l) => (await stat(join(FIXTURES, l.file))).size));
    expect(total.reduce((a, b) => a + b, 0)).toBeLessThan(3 * 1024 * 1024);
  });

  test("give each capture path its own family, with genuine and forged documents in each", async () => {
    const labels = await fixtureLabels();
    const familyOfPath = new Map<string, Set<string>>();
    for (const l of labels)
      familyOfPath.set(capturePath(l.history), (familyOfPath.get(capturePath(l.history)) ?? new Set()).add(l.family));
    expect([...familyOfPath.keys()].sort()).toEqual(["native", "print_photo", "screen_recapture"]);
    for (const families of familyOfPath.values()) expect(families.size).toBe(1);
    const families = [...familyOfPath.values()].map((s) => [...s][0]);
    expect(new Set(families).size).toBe(families.length);
    for (const family of families) {
      expect(labels.some((l) => l.family === family && l.label === "genuine")).toBe(true);
      expect(labels.some((l) => l.family === family && l.label === "forged")).toBe(true);
    }
  });

  test("put every forgery region inside the image, name its field and what changed", async () => {
    for (const l of await fixtureLabels()) {
      if (l.label === "genuine") {
        expect(l.forgery).toBeUndefined();
        continue;
      }
      expect(l.forgery?.regions.length).toBeGreaterThan(0);
      for (const r of l.forgery!.regions) {
        expect(r.field.length).toBeGreaterThan(0);
        expect(r.to).not.toBe(r.from);
      }
      await expectRegionsInside(FIXTURES, l);
    }
  });
});

describe("manipulated families: plan and values", () => {
  // The genuine_clean documents the full corpus holds, as the plan sees them.
  const bases = planCorpus(42, "full")
    .filter((d) => d.kind === "genuine_clean")
    .map(
      (d) =>
        ({
          id: d.id,
          documentType: d.documentType,
          split: d.split,
          history: [],
          source: "",
          file: "",
        }) as unknown as CorpusLabel,
    );

  test("the full plan makes each forgery at least 15 times per kind and per path, and as many genuine documents per path", () => {
    const plan = planManipulations(42, "full", bases);
    expect(plan.length).toBeGreaterThanOrEqual(150);
    expect(plan.length).toBeLessThanOrEqual(250);
    for (const kind of MANIPULATIONS) expect(plan.filter((d) => d.kind === kind).length).toBeGreaterThanOrEqual(15);
    for (const path of PATHS) {
      const ofPath = plan.filter((d) => d.path === path);
      const forged = ofPath.filter((d) => !isGenuine(d.kind));
      expect(forged.length).toBeGreaterThanOrEqual(15);
      expect(ofPath.length - forged.length).toBe(forged.length);
      // Genuine documents mirror the forgeries' document types within the path.
      const count = (docs: PlannedManipulation[]) => docs.map((d) => d.documentType).sort();
      expect(count(ofPath.filter((d) => isGenuine(d.kind)))).toEqual(count(forged));
    }
    expect(plan.map((d) => d.id)).toEqual(plan.map((_, i) => `m${String(i + 1).padStart(4, "0")}`));
    for (const d of plan) expect(d.split).toBe(d.base.split);
  });

  test("the small plan holds every kind through every path", () => {
    const plan = planManipulations(42, "small", bases);
    expect(plan.length).toBeGreaterThanOrEqual(20);
    expect(plan.length).toBeLessThanOrEqual(30);
    for (const path of PATHS)
      for (const kind of MANIPULATIONS) expect(plan.some((d) => d.kind === kind && d.path === path)).toBe(true);
  });

  test("a raised amount changes one whole-number digit and keeps the cents and the currency", () => {
    const rng = Rng.derive(1, "raise");
    for (const text of ["3 264,86 CHF", "59,68 CHF", "37.77", "1.234,56 €", "(1,204.00)"]) {
      const to = raiseAmount(rng, text);
      expect(to).not.toBe(text);
      expect(to.length).toBe(text.length);
      const cents = /[.,]\d{2}\D*$/;
      expect(to.match(cents)?.[0]).toBe(text.match(cents)![0]);
      expect([...to].filter((c, i) => c !== text[i]).length).toBe(1);
    }
  });
});

describe("manipulated families: generator", () => {
  test("gives the same bytes and labels twice from the same seed, or refuses with one line naming install-tools.sh without OpenCV", async () => {
    if (!hasPixelTools()) {
      // CI: no Debian OpenCV. The generator must say how to get it, not fail halfway.
      expect(() => requirePixelTools()).toThrow(/scripts\/corpus\/manipulate\/install-tools\.sh/);
      await expect(writeManipulated({ seed: 42, size: "small", out: FIXTURES })).rejects.toThrow(/install-tools\.sh/);
      return;
    }
    const work = await mkdtemp(join(tmpdir(), "docverify-manipulate-test-"));
    try {
      const a = join(work, "a");
      const b = join(work, "b");
      await writeBaseSample(42, a, { passport: 2, financial: 1 });
      await cp(a, b, { recursive: true });
      const pick = (plan: PlannedManipulation[]) =>
        [
          plan.find((d) => d.kind === "image_paste_field" && d.path === "screen_recapture"),
          plan.find((d) => d.kind === "image_inpaint_retype" && d.documentType === "financial"),
          plan.find((d) => d.kind === "image_portrait_swap" && d.path === "print_photo"),
          plan.find((d) => d.kind === "genuine_recompressed"),
        ].filter((d): d is PlannedManipulation => d !== undefined);
      const first = await writeManipulated({ seed: 42, size: "small", out: a, select: pick });
      const second = await writeManipulated({ seed: 42, size: "small", out: b, select: pick });
      expect(first.length).toBe(4);
      expect(second).toEqual(first);
      for (const l of first) {
        expect(Buffer.compare(await readFile(join(a, l.file)), await readFile(join(b, l.file)))).toBe(0);
        await expectRegionsInside(a, l);
      }
      // The base documents and their lines are kept; the manipulated lines follow them.
      const lines = (await readFile(join(a, "labels.jsonl"), "utf8")).trim().split("\n");
      expect(lines.length).toBe(3 + 4);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 240_000);
});
