// Fingerprints of analysed documents, per API key and never across keys, for
// duplicate_submission. Rows hold hashes only (no text), and go with the retention of
// the verifications they belong to.
import type { Database, Sql } from "./database.ts";
import {
  hammingHex,
  portraitMatcher,
  type EarlierFingerprint,
  type Fingerprint,
} from "../analysis/content/fingerprint.ts";

/**
 * Most recent fingerprints of a key compared by distance; exact copies are found by index at any
 * age.
 */
const SCAN_LIMIT = 20_000;
/** Loose pre-filter on hash distances; the detector applies its own, tighter thresholds. */
const NEAR_BITS = 12;

interface Row {
  verification_id: string;
  exact: string;
  image: string | null;
  layout: string | null;
  content: string | null;
  identifiers: string;
  dates: string | null;
  holder: string;
  portrait: string | null;
  created_at: number;
}

const toEarlier = (row: Row): EarlierFingerprint => ({
  verificationId: row.verification_id,
  createdAt: row.created_at,
  fingerprint: {
    exact: row.exact,
    image: row.image,
    layout: row.layout,
    content: row.content,
    identifiers: JSON.parse(row.identifiers) as string[],
    dates: row.dates,
    holder: JSON.parse(row.holder) as string[],
    portrait: row.portrait,
  },
});

const near = (a: string | null, b: string | null) => a !== null && b !== null && hammingHex(a, b) <= NEAR_BITS;

const COLUMNS = "verification_id, exact, image, layout, content, identifiers, dates, holder, portrait, created_at";

export class FingerprintStore {
  constructor(private readonly db: Database) {}

  async record(keyId: string, verificationId: string, fp: Fingerprint, createdAt: number): Promise<void> {
    await this.db.run(
      `INSERT INTO fingerprints (key_id, verification_id, exact, image, layout, content, identifiers, dates, holder, portrait, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (key_id, verification_id) DO UPDATE SET exact = excluded.exact, image = excluded.image, layout = excluded.layout,
         content = excluded.content, identifiers = excluded.identifiers, dates = excluded.dates, holder = excluded.holder,
         portrait = excluded.portrait, created_at = excluded.created_at`,
      [
        keyId,
        verificationId,
        fp.exact,
        fp.image,
        fp.layout,
        fp.content,
        JSON.stringify(fp.identifiers),
        fp.dates,
        JSON.stringify(fp.holder),
        fp.portrait,
        createdAt,
      ],
    );
  }

  /**
   * Earlier fingerprints of this key that share the bytes, or come near in picture, text,
   * identifiers or portrait.
   */
  async findSimilar(keyId: string, fp: Fingerprint): Promise<EarlierFingerprint[]> {
    const exact = await this.db.all<Row>(`SELECT ${COLUMNS} FROM fingerprints WHERE key_id = ? AND exact = ?`, [
      keyId,
      fp.exact,
    ]);
    const recent = await this.db.all<Row>(
      `SELECT ${COLUMNS} FROM fingerprints WHERE key_id = ? ORDER BY created_at DESC LIMIT ?`,
      [keyId, SCAN_LIMIT],
    );
    const seen = new Set(exact.map((r) => r.verification_id));
    const portraitTo = portraitMatcher(fp);
    const similar = recent.filter((row) => {
      if (seen.has(row.verification_id)) return false;
      const ids = JSON.parse(row.identifiers) as string[];
      return (
        near(row.image, fp.image) ||
        near(row.content, fp.content) ||
        (portraitTo(row.portrait) ?? Infinity) <= NEAR_BITS ||
        ids.some((id) => fp.identifiers.includes(id))
      );
    });
    return [...exact, ...similar].map(toEarlier);
  }

  deleteOlderThan(cutoffMs: number, sql: Sql = this.db): Promise<number> {
    return sql.run("DELETE FROM fingerprints WHERE created_at < ?", [cutoffMs]);
  }
}
