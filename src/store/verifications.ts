import type { Database, Sql } from "./database.ts";
import type { AnalysisReport } from "../analysis/report.ts";
import type { VerificationResult } from "../api/schemas/verification.ts";

export interface StoredVerification {
  result: VerificationResult;
  report: AnalysisReport;
  batchId: string | null;
  documentIndex: number | null;
  createdAt: number;
}

export class VerificationStore {
  constructor(private readonly db: Database) {}

  /** `sql`: the transaction recording the outcome this result belongs to, when there is one. */
  async insert(
    input: {
      keyId: string;
      result: VerificationResult;
      report: AnalysisReport;
      batchId?: string;
      documentIndex?: number;
      createdAt: number;
    },
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.run(
      `INSERT INTO verifications (id, key_id, batch_id, document_index, result, report, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        input.result.id,
        input.keyId,
        input.batchId ?? null,
        input.documentIndex ?? null,
        JSON.stringify(input.result),
        JSON.stringify(input.report),
        input.createdAt,
      ],
    );
  }

  /** Another key's verification is indistinguishable from a missing one. */
  async findForKey(id: string, keyId: string): Promise<StoredVerification | null> {
    const row = await this.db.get<{
      result: string;
      report: string;
      batch_id: string | null;
      document_index: number | null;
      created_at: number;
    }>("SELECT result, report, batch_id, document_index, created_at FROM verifications WHERE id = ? AND key_id = ?", [
      id,
      keyId,
    ]);
    if (!row) return null;
    return {
      result: JSON.parse(row.result),
      report: JSON.parse(row.report),
      batchId: row.batch_id,
      documentIndex: row.document_index,
      createdAt: row.created_at,
    };
  }

  async idsOfBatch(batchId: string): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(
      "SELECT id FROM verifications WHERE batch_id = ? ORDER BY document_index",
      [batchId],
    );
    return rows.map((row) => row.id);
  }

  deleteOlderThan(cutoffMs: number, sql: Sql = this.db): Promise<number> {
    return sql.run("DELETE FROM verifications WHERE created_at < ?", [cutoffMs]);
  }
}
