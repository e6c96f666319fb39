import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import {
  checkDuplicates,
  computeFingerprint,
  type FingerprintInput,
} from "../../../../src/analysis/content/fingerprint.ts";
import type { FingerprintStore } from "../../../../src/store/fingerprints.ts";
import { openStore, type Store } from "../../../../src/store/index.ts";
import { sqliteFileOf } from "../../../helpers/store.ts";
import { documentOf, page } from "./fixtures.ts";

/** A page: a header band, a table of grey bars, and a "portrait" of concentric circles. */
function pageSvg(variant: { header: string; bars: number[]; portraitAt?: [number, number] }): Buffer {
  const bars = variant.bars
    .map((w, i) => `<rect x="40" y="${160 + i * 36}" width="${w}" height="18" fill="#555"/>`)
    .join("");
  const [px, py] = variant.portraitAt ?? [620, 150];
  const portrait = [70, 55, 40, 25, 10]
    .map(
      (r, i) =>
        `<circle cx="${px + 80}" cy="${py + 100}" r="${r}" fill="${["#a33", "#e9c", "#333", "#fc8", "#123"][i]}"/>`,
    )
    .join("");
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="520"><rect width="800" height="520" fill="#fafafa"/>` +
      `<rect x="0" y="0" width="800" height="90" fill="${variant.header}"/>${bars}${portrait}</svg>`,
  );
}

const jpeg = (svg: Buffer, quality: number) => sharp(svg).jpeg({ quality }).toBuffer();
const statementText = (
  amount: string,
  period = "01/03/2024 to 31/03/2024",
  balances = ["4,774.56", "3,574.56", "3,488.14"],
) =>
  documentOf(
    page(
      [
        { text: "NORTHERN BANK  Statement of account", y: 20 },
        { text: "Account number 12345678  Sort code 12-34-56", y: 50 },
        { text: `Statement period ${period}`, y: 80 },
        { text: `02/03/2024  Salary ACME LTD  ${amount}  ${balances[0]}`, y: 120 },
        { text: `04/03/2024  Rent  -1,200.00  ${balances[1]}`, y: 150 },
        { text: `09/03/2024  Card payment SUPERMARKET  -86.42  ${balances[2]}`, y: 180 },
      ],
      "pdf",
    ),
  );

let dir: string;
let store: Store;
let fingerprints: FingerprintStore;
let original: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "docverify-fp-"));
  store = await openStore({ dataDir: dir });
  fingerprints = store.fingerprints;
  original = await jpeg(pageSvg({ header: "#1a4d8f", bars: [500, 320, 610, 280, 450, 390] }), 92);
  const first: FingerprintInput = { bytes: original, image: { encoded: original }, text: statementText("2,540.00") };
  await fingerprints.record("key_a", "ver_first", await computeFingerprint(first), Date.parse("2024-04-02T10:00:00Z"));
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function duplicatesOf(keyId: string, input: FingerprintInput) {
  const fp = await computeFingerprint(input);
  return checkDuplicates(fp, await fingerprints.findSimilar(keyId, fp));
}

describe("a document the same key submitted before raises duplicate_submission", () => {
  test("the same bytes, matched to the earlier verification", async () => {
    const result = await duplicatesOf("key_a", {
      bytes: original,
      image: { encoded: original },
      text: statementText("2,540.00"),
    });
    expect(result.evidence.map((e) => e.flag)).toEqual(["duplicate_submission"]);
    expect(result.evidence[0]!.message).toContain("ver_first");
    expect(result.facts.matches).toEqual([{ verificationId: "ver_first", kind: "identical", distance: 0 }]);
  });

  test("the same page re-encoded at a lower JPEG quality", async () => {
    const reencoded = await sharp(original).jpeg({ quality: 55 }).toBuffer();
    expect(Buffer.compare(reencoded, original)).not.toBe(0);
    const result = await duplicatesOf("key_a", {
      bytes: reencoded,
      image: { encoded: reencoded },
      text: statementText("2,540.00"),
    });
    expect(result.evidence.map((e) => e.message)).toEqual([
      "Matches verification ver_first: the same document, re-encoded or rescanned",
    ]);
    expect(result.evidence[0]!.measured).toBeLessThanOrEqual(2);
  });

  test("the same page re-encoded as PNG and given as raw pixels", async () => {
    const { data, info } = await sharp(original)
      .png()
      .toBuffer()
      .then((png) => sharp(png).raw().toBuffer({ resolveWithObject: true }));
    const image = { raw: new Uint8Array(data), width: info.width, height: info.height, channels: info.channels as 3 };
    const result = await duplicatesOf("key_a", { bytes: new Uint8Array(data), image, text: statementText("2,540.00") });
    expect(result.evidence.map((e) => e.flag)).toEqual(["duplicate_submission"]);
  });

  test("the same statement, account and period with the salary and balances changed", async () => {
    const edited = await jpeg(pageSvg({ header: "#1a4d8f", bars: [500, 320, 610, 280, 450, 390] }), 80);
    const text = statementText("9,540.00", undefined, ["11,774.56", "10,574.56", "10,488.14"]);
    const result = await duplicatesOf("key_a", { bytes: edited, image: { encoded: edited }, text });
    expect(result.evidence.map((e) => e.message)).toEqual([
      "Matches verification ver_first: the same template, identifiers and dates with changed fields",
    ]);
    expect(result.evidence[0]!.strength).toBeGreaterThan(0.5);
  });
});

/** An identity card's text: its holder and number, in labelled fields. */
const cardText = (surname: string, birth: string, number: string) =>
  documentOf(
    page(
      [
        { text: `Document No ${number}`, y: 20 },
        { text: "Surname", y: 60 },
        { text: surname, y: 80 },
        { text: "Date of birth", y: 110 },
        { text: birth, y: 130 },
      ],
      "pdf",
    ),
  );

describe("a portrait the same key submitted before", () => {
  const card = async (header: string, text: ReturnType<typeof cardText>, keyId = "key_p") => {
    const bytes = await jpeg(pageSvg({ header, bars: [200, 610, 150, 560, 330, 90] }), 90);
    return duplicatesOf(keyId, { bytes, image: { encoded: bytes }, text, portrait: [620, 150, 160, 200] });
  };

  beforeAll(async () => {
    const bytes = await jpeg(pageSvg({ header: "#1a4d8f", bars: [500, 320, 610, 280, 450, 390] }), 92);
    const input = {
      bytes,
      image: { encoded: bytes },
      text: cardText("ERIKSSON", "12.01.1985", "987654321"),
      portrait: [620, 150, 160, 200] as [number, number, number, number],
    };
    await fingerprints.record("key_p", "ver_card", await computeFingerprint(input), Date.parse("2024-04-02T10:00:00Z"));
  });

  test("on a document naming another person (another surname and birth date) is a reused portrait", async () => {
    const result = await card("#2e7d32", cardText("KOWALSKA", "03.02.1991", "555666777"));
    expect(result.evidence.map((e) => e.message)).toEqual([
      "Matches verification ver_card: the same portrait on a different identity",
    ]);
  });

  test("on the same person's other document (a licence beside the passport) is not", async () => {
    expect((await card("#2e7d32", cardText("ERIKSSON", "12.01.1985", "555666777"))).evidence).toEqual([]);
  });

  test("is not accused where only one of name and birth date differs, or one is unread: a misread is no other person", async () => {
    expect((await card("#2e7d32", cardText("ERIKSS0N", "12.01.1985", "555666777"))).evidence).toEqual([]);
    expect((await card("#2e7d32", cardText("KOWALSKA", "12 JAN 85", "555666777"))).evidence).toEqual([]);
    const unread = documentOf(page([{ text: "Document No 555666777", y: 20 }], "pdf"));
    expect((await card("#2e7d32", unread)).evidence).toEqual([]);
  });

  test("is never compared across keys", async () => {
    expect((await card("#2e7d32", cardText("KOWALSKA", "03.02.1991", "555666777"), "key_b")).evidence).toEqual([]);
  });
});

describe("what is not a duplicate raises nothing", () => {
  test("a different document", async () => {
    const other = await jpeg(
      pageSvg({ header: "#8f1a1a", bars: [120, 600, 240, 580, 160, 520], portraitAt: [40, 300] }),
      92,
    );
    const text = documentOf(page([{ text: "CITY POWER  Electricity bill  Customer 99887766", y: 20 }], "pdf"));
    const result = await duplicatesOf("key_a", { bytes: other, image: { encoded: other }, text });
    expect(result.evidence).toEqual([]);
  });

  test("next month's statement of the same account", async () => {
    const next = await jpeg(pageSvg({ header: "#1a4d8f", bars: [430, 520, 300, 610, 250, 480] }), 92);
    const text = statementText("2,540.00", "01/04/2024 to 30/04/2024");
    for (const line of text.pages[0]!.lines) line.text = line.text.replace(/\/03\/2024/g, "/04/2024");
    const result = await duplicatesOf("key_a", { bytes: next, image: { encoded: next }, text });
    expect(result.evidence).toEqual([]);
  });

  test("the same bytes sent by another API key", async () => {
    const result = await duplicatesOf("key_b", {
      bytes: original,
      image: { encoded: original },
      text: statementText("2,540.00"),
    });
    expect(result.evidence).toEqual([]);
    expect(result.facts.compared).toBe(0);
  });
});

describe("the fingerprint store", () => {
  test("keeps hashes only, no text", async () => {
    const row = sqliteFileOf(dir)
      .query("SELECT * FROM fingerprints WHERE verification_id = 'ver_first'")
      .get() as Record<string, string>;
    const stored = JSON.stringify(row);
    for (const content of ["12345678", "NORTHERN", "Salary", "2,540.00"]) expect(stored).not.toContain(content);
  });

  test("forgets fingerprints older than the retention cutoff", async () => {
    await fingerprints.record(
      "key_c",
      "ver_old",
      await computeFingerprint({ bytes: original }),
      Date.parse("2024-01-01T00:00:00Z"),
    );
    expect(await fingerprints.deleteOlderThan(Date.parse("2024-02-01T00:00:00Z"))).toBe(1);
    expect(await fingerprints.findSimilar("key_c", await computeFingerprint({ bytes: original }))).toEqual([]);
    expect((await fingerprints.findSimilar("key_a", await computeFingerprint({ bytes: original }))).length).toBe(1);
  });
});
