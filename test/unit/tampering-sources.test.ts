import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tamperingLabelOf } from "../../scripts/tampering/rebuild.ts";
import { PUBLIC_KINDS, readTamperingSources, type TamperingSource } from "../../scripts/tampering/sources.ts";

const MANIFEST = join(import.meta.dir, "../../scripts/tampering/sources.json");

describe("public-tampering manifest", () => {
  const sources = readTamperingSources(MANIFEST);

  test("every entry is pinned to one file by commit and sha256, under a unique id", () => {
    expect(new Set(sources.map((s) => s.id)).size).toBe(sources.length);
    for (const s of sources) {
      expect(s.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  test("every forgery names what was done to it, and every base is a genuine entry of its own source", () => {
    const byId = new Map(sources.map((s) => [s.id, s]));
    for (const s of sources.filter((s) => s.label === "forged")) {
      expect(PUBLIC_KINDS as readonly string[]).toContain(s.kind);
      if (s.base === undefined) continue;
      const base = byId.get(s.base);
      expect(base?.label).toBe("genuine");
      expect(base?.family).toBe(s.family);
    }
    for (const s of sources.filter((s) => s.label === "genuine")) expect(s.kind).toBe("genuine_real");
  });

  test("the set holds both classes, and the edited forgeries come with their originals or their mask", () => {
    expect(sources.some((s) => s.label === "genuine")).toBe(true);
    expect(sources.some((s) => s.label === "forged")).toBe(true);
    // A recapture changes no region; a copy-move's source lies in the same image, so its
    // published mask (both areas) is its ground truth; every other edit needs its original.
    const edits = sources.filter((s) => s.label === "forged" && s.kind !== "public_recapture");
    expect(edits.length).toBeGreaterThan(0);
    for (const s of edits) {
      if (s.kind === "public_copy_move") expect(s.regions?.length ?? 0).toBeGreaterThan(0);
      else expect(s.base).toBeDefined();
    }
  });

  test("a forgery's label keeps its public kind, base and regions; a genuine one takes its capture's kind", () => {
    const forged = sources.find((s) => s.label === "forged" && s.regions)!;
    const label = tamperingLabelOf(forged, "2026-01-01")!;
    expect(label.kind as string).toBe(forged.kind);
    expect(label.base).toBe(forged.base);
    expect(label.forgery?.regions).toEqual(forged.regions!);
    expect(label.file).toBe(`${forged.id}.${forged.format === "jpeg" ? "jpg" : forged.format}`);
    const genuine = sources.find((s) => s.label === "genuine" && s.capture === "native")!;
    expect(tamperingLabelOf(genuine, "2026-01-01")!.kind).toBe("genuine_clean");
  });
});

describe("readTamperingSources refuses a malformed manifest", () => {
  const good: TamperingSource = {
    id: "t0001",
    repo: "owner/name",
    commit: "a".repeat(40),
    path: "x.jpg",
    sha256: "b".repeat(64),
    label: "genuine",
    kind: "genuine_real",
    documentType: "id",
    format: "jpeg",
    capture: "native",
    family: "tampering/x",
    licence: "MIT",
    redistributable: true,
    note: "n",
  };
  const forged: TamperingSource = {
    ...good,
    id: "t0002",
    path: "y.jpg",
    label: "forged",
    kind: "public_inpaint",
    base: "t0001",
  };
  const read = (entries: unknown[]) => {
    const dir = mkdtempSync(join(tmpdir(), "tampering-sources-"));
    try {
      writeFileSync(join(dir, "sources.json"), JSON.stringify(entries));
      return readTamperingSources(join(dir, "sources.json"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  test("a well-formed pair is read", () => {
    expect(read([good, forged]).map((s) => s.id)).toEqual(["t0001", "t0002"]);
  });

  test.each([
    ["a missing sha256", [good, { ...forged, sha256: undefined }], /sha256/],
    ["a forgery without a public kind", [good, { ...forged, kind: "image_retype" }], /does not go with kind/],
    ["a base that is not in the set", [good, { ...forged, base: "t0009" }], /base t0009/],
    [
      "a base that is itself forged",
      [good, forged, { ...forged, id: "t0003", path: "z.jpg", base: "t0002" }],
      /base t0002/,
    ],
    ["a shared id", [good, { ...forged, id: "t0001" }], /share an id/],
    [
      "a region outside the pixel grid",
      [
        good,
        {
          ...forged,
          regions: [{ page: 0, unit: "px", box: { x: -1, y: 0, w: 5, h: 5 }, field: "f", from: "a", to: "b" }],
        },
      ],
      /region/,
    ],
  ])("%s", (_what, entries, message) => {
    expect(() => read(entries)).toThrow(message);
  });
});
