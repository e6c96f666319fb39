import type { Db } from "./db";
import type { AnalysisReport } from "../analysis/report";
import type { VerificationResult } from "../api/schemas/verification";

export interface StoredVerification {
  result: VerificationResult;
  report: AnalysisReport;
  batchId: string | null;
  documentIndex: number | null;
  createdAt: number;
}

export class VerificationStore {
  constructor(private readonly db: Db) {}

  insert(input: { keyId: string; result: VerificationResult; report: AnalysisReport; batchId?: string; documentIndex?: number; createdAt: number }): void {
    this.db
      .query(
        `INSERT INTO verifications (id, key_id, batch_id, document_index, result, report, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        input.result.id,
        input.keyId,
        input.batchId ?? null,
        input.documentIndex ?? null,
        JSON.stringify(input.result),
        JSON.stringify(input.report),
        input.createdAt,
      );
  }

  /** Another key's verification is indistinguishable from a missing one. */
  findForKey(id: string, keyId: string): StoredVerification | null {
    const row = this.db
      .query("SELECT result, report, batch_id, document_index, created_at FROM verifications WHERE id = ? AND key_id = ?")
      .get(id, keyId) as { result: string; report: string; batch_id: string | null; document_index: number | null; created_at: number } | null;
    if (!row) return null;
    return {
      result: JSON.parse(row.result),
      report: JSON.parse(row.report),
      batchId: row.batch_id,
      documentIndex: row.document_index,
      createdAt: row.created_at,
    };
  }

  idsOfBatch(batchId: string): string[] {
    return (this.db.query("SELECT id FROM verifications WHERE batch_id = ? ORDER BY document_index").all(batchId) as { id: string }[]).map(
      (row) => row.id,
    );
  }

  deleteOlderThan(cutoffMs: number): number {
    return this.db.query("DELETE FROM verifications WHERE created_at < ?").run(cutoffMs).changes;
  }
}
