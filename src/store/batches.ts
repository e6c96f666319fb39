// Batches and their documents. A document's outcome, its batch counters and its webhook
// outbox row are written in one transaction, so a crash can never leave a result without
// its delivery or count a document twice.
import { randomUUID } from "node:crypto";
import type { Database, Sql } from "./database.ts";
import type { AnalysisReport } from "../analysis/report.ts";
import type { VerificationResult } from "../api/schemas/verification.ts";
import type { ErrorCode } from "../errors.ts";
import type { VerificationStore } from "./verifications.ts";

type BatchStatus = "processing" | "completed";

export interface BatchRecord {
  id: string;
  keyId: string;
  sandbox: boolean;
  total: number;
  completed: number;
  failed: number;
  status: BatchStatus;
  callbackUrl: string;
  createdAt: number;
}

/** Seals and opens callback secrets; `context` (the batch id) binds a ciphertext to its row. */
export interface SecretSealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

interface BatchRow {
  id: string;
  key_id: string;
  sandbox: number;
  total: number;
  completed: number;
  failed: number;
  status: BatchStatus;
  callback_url: string;
  created_at: number;
}

const toBatch = (row: BatchRow): BatchRecord => ({
  id: row.id,
  keyId: row.key_id,
  sandbox: row.sandbox === 1,
  total: row.total,
  completed: row.completed,
  failed: row.failed,
  status: row.status,
  callbackUrl: row.callback_url,
  createdAt: row.created_at,
});

export interface ClaimedDocument {
  batch: BatchRecord;
  documentIndex: number;
  content: Uint8Array;
  attempts: number;
}

export type DocumentOutcome =
  | { ok: true; result: VerificationResult; report: AnalysisReport }
  | { ok: false; error: { code: ErrorCode; message: string } };

const BATCH_COLUMNS = "id, key_id, sandbox, total, completed, failed, status, callback_url, created_at";

export class BatchStore {
  constructor(
    private readonly db: Database,
    private readonly verifications: VerificationStore,
    private readonly secrets: SecretSealer,
  ) {}

  async create(input: {
    keyId: string;
    sandbox: boolean;
    callbackUrl: string;
    callbackSecret: string;
    documents: Uint8Array[];
    now: number;
  }): Promise<BatchRecord> {
    const id = randomUUID();
    // Sealed before the transaction: a key file made on first use is written outside it.
    const sealed = this.secrets.seal(input.callbackSecret, id);
    return this.db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO batches (id, key_id, sandbox, total, status, callback_url, callback_secret, callback_secret_sealed, created_at)
         VALUES (?, ?, ?, ?, 'processing', ?, '', ?, ?)`,
        [id, input.keyId, input.sandbox ? 1 : 0, input.documents.length, input.callbackUrl, sealed, input.now],
      );
      for (const [index, content] of input.documents.entries()) {
        await tx.run(
          "INSERT INTO batch_documents (batch_id, document_index, content, state) VALUES (?, ?, ?, 'pending')",
          [id, index, content],
        );
      }
      return (await this.get(id, tx))!;
    });
  }

  async get(id: string, sql: Sql = this.db): Promise<BatchRecord | null> {
    const row = await sql.get<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM batches WHERE id = ?`, [id]);
    return row ? toBatch(row) : null;
  }

  /**
   * Leases one due document to `owner`. A crashed owner's lease simply runs out; a live
   * owner's lease is never taken, and two claimers never take one document.
   */
  claimNext(owner: string, now: number, leaseMs: number): Promise<ClaimedDocument | null> {
    return this.db.transaction(async (tx): Promise<ClaimedDocument | null> => {
      const row = await tx.get<{ batch_id: string; document_index: number; content: Uint8Array; attempts: number }>(
        `UPDATE batch_documents SET lease_owner = ?, lease_until = ?, attempts = attempts + 1
         WHERE (batch_id, document_index) IN (
           SELECT batch_id, document_index FROM batch_documents
           WHERE state = 'pending' AND not_before <= ? AND lease_until <= ?
           ORDER BY not_before, batch_id, document_index LIMIT 1${this.db.skipLocked})
         RETURNING batch_id, document_index, content, attempts`,
        [owner, now + leaseMs, now, now],
      );
      if (!row) return null;
      const batch = (await this.get(row.batch_id, tx))!;
      return { batch, documentIndex: row.document_index, content: row.content, attempts: row.attempts };
    });
  }

  /** Extends `owner`'s lease while it works; false when the lease was lost. */
  async renew(batchId: string, documentIndex: number, owner: string, leaseUntil: number): Promise<boolean> {
    const renewed = await this.db.run(
      "UPDATE batch_documents SET lease_until = ? WHERE batch_id = ? AND document_index = ? AND lease_owner = ? AND state = 'pending'",
      [leaseUntil, batchId, documentIndex, owner],
    );
    return renewed === 1;
  }

  /** Hands a leased document back, to be tried again no earlier than `notBefore`. */
  async release(batchId: string, documentIndex: number, owner: string, notBefore: number): Promise<void> {
    await this.db.run(
      `UPDATE batch_documents SET lease_owner = NULL, lease_until = 0, not_before = ?
       WHERE batch_id = ? AND document_index = ? AND lease_owner = ? AND state = 'pending'`,
      [notBefore, batchId, documentIndex, owner],
    );
  }

  /**
   * Records a document's outcome with its webhook. Returns false (and writes nothing) when
   * the lease was lost, so a document analysed twice is only ever recorded once.
   */
  recordOutcome(input: {
    batch: BatchRecord;
    documentIndex: number;
    owner: string;
    keyId: string;
    outcome: DocumentOutcome;
    now: number;
  }): Promise<boolean> {
    const { batch, documentIndex, outcome, now } = input;
    return this.db.transaction(async (tx): Promise<boolean> => {
      const claimed = await tx.run(
        `UPDATE batch_documents SET state = ?, content = NULL, lease_owner = NULL, lease_until = 0, verification_id = ?
         WHERE batch_id = ? AND document_index = ? AND state = 'pending' AND lease_owner = ?`,
        [outcome.ok ? "done" : "failed", outcome.ok ? outcome.result.id : null, batch.id, documentIndex, input.owner],
      );
      if (claimed !== 1) return false;

      if (outcome.ok) {
        await this.verifications.insert(
          {
            keyId: input.keyId,
            result: outcome.result,
            report: outcome.report,
            batchId: batch.id,
            documentIndex,
            createdAt: now,
          },
          tx,
        );
      }
      await tx.run(
        `UPDATE batches SET completed = completed + 1, failed = failed + ?,
           status = CASE WHEN completed + 1 >= total THEN 'completed' ELSE status END,
           completed_at = CASE WHEN completed + 1 >= total THEN ? ELSE completed_at END
         WHERE id = ?`,
        [outcome.ok ? 0 : 1, now, batch.id],
      );

      const payload = outcome.ok
        ? { batchId: batch.id, documentIndex, result: outcome.result }
        : { batchId: batch.id, documentIndex, error: outcome.error };
      await tx.run(
        `INSERT INTO outbox (delivery_id, batch_id, document_index, body, state, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
        [randomUUID(), batch.id, documentIndex, Buffer.from(JSON.stringify(payload)), now, now],
      );
      return true;
    });
  }

  async pendingDocuments(): Promise<number> {
    return (await this.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM batch_documents WHERE state = 'pending'"))!.n;
  }
}
