// Batches and their documents. A document's outcome, its batch counters and its webhook
// outbox row are written in one transaction, so a crash can never leave a result without
// its delivery or count a document twice.
import { randomUUID } from "node:crypto";
import type { Db } from "./db";
import type { AnalysisReport } from "../analysis/report";
import type { VerificationResult } from "../api/schemas/verification";
import type { ErrorCode } from "../errors";
import type { VerificationStore } from "./verifications";

export type BatchStatus = "processing" | "completed";

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

export class BatchStore {
  constructor(
    private readonly db: Db,
    private readonly verifications: VerificationStore,
    private readonly secrets: SecretSealer,
  ) {}

  create(input: { keyId: string; sandbox: boolean; callbackUrl: string; callbackSecret: string; documents: Uint8Array[]; now: number }): BatchRecord {
    const id = randomUUID();
    // Sealed before the transaction: a key file made on first use is written outside it.
    const sealed = this.secrets.seal(input.callbackSecret, id);
    this.db
      .transaction(() => {
        this.db
          .query(
            `INSERT INTO batches (id, key_id, sandbox, total, status, callback_url, callback_secret, callback_secret_sealed, created_at)
             VALUES (?, ?, ?, ?, 'processing', ?, '', ?, ?)`,
          )
          .run(id, input.keyId, input.sandbox ? 1 : 0, input.documents.length, input.callbackUrl, sealed, input.now);
        const insert = this.db.query("INSERT INTO batch_documents (batch_id, document_index, content, state) VALUES (?, ?, ?, 'pending')");
        input.documents.forEach((content, index) => insert.run(id, index, content));
      })
      .immediate();
    return this.get(id)!;
  }

  get(id: string): BatchRecord | null {
    const row = this.db.query("SELECT id, key_id, sandbox, total, completed, failed, status, callback_url, created_at FROM batches WHERE id = ?").get(id) as BatchRow | null;
    return row ? toBatch(row) : null;
  }

  /** Leases one due document to `owner`; a crashed owner's lease simply runs out. */
  claimNext(owner: string, now: number, leaseMs: number): ClaimedDocument | null {
    return this.db
      .transaction((): ClaimedDocument | null => {
        const row = this.db
          .query(
            `UPDATE batch_documents SET lease_owner = ?, lease_until = ?, attempts = attempts + 1
             WHERE rowid = (
               SELECT rowid FROM batch_documents
               WHERE state = 'pending' AND not_before <= ? AND lease_until <= ?
               ORDER BY not_before, batch_id, document_index LIMIT 1)
             RETURNING batch_id, document_index, content, attempts`,
          )
          .get(owner, now + leaseMs, now, now) as { batch_id: string; document_index: number; content: Uint8Array; attempts: number } | null;
        if (!row) return null;
        const batch = this.get(row.batch_id)!;
        return { batch, documentIndex: row.document_index, content: row.content, attempts: row.attempts };
      })
      .immediate();
  }

  /** Hands a leased document back, to be tried again no earlier than `notBefore`. */
  release(batchId: string, documentIndex: number, owner: string, notBefore: number): void {
    this.db
      .query(
        `UPDATE batch_documents SET lease_owner = NULL, lease_until = 0, not_before = ?
         WHERE batch_id = ? AND document_index = ? AND lease_owner = ? AND state = 'pending'`,
      )
      .run(notBefore, batchId, documentIndex, owner);
  }

  /** Frees every lease not held by `owner`: used at start-up by the single process that owns the data directory. */
  releaseForeignLeases(owner: string): number {
    return this.db.query("UPDATE batch_documents SET lease_owner = NULL, lease_until = 0 WHERE state = 'pending' AND lease_owner IS NOT NULL AND lease_owner != ?").run(owner)
      .changes;
  }

  /**
   * Records a document's outcome with its webhook. Returns false (and writes nothing) when
   * the lease was lost, so a document analysed twice is only ever recorded once.
   */
  recordOutcome(input: { batch: BatchRecord; documentIndex: number; owner: string; keyId: string; outcome: DocumentOutcome; now: number }): boolean {
    const { batch, documentIndex, outcome, now } = input;
    return this.db
      .transaction((): boolean => {
        const claimed = this.db
          .query(
            `UPDATE batch_documents SET state = ?, content = NULL, lease_owner = NULL, lease_until = 0, verification_id = ?
             WHERE batch_id = ? AND document_index = ? AND state = 'pending' AND lease_owner = ?`,
          )
          .run(outcome.ok ? "done" : "failed", outcome.ok ? outcome.result.id : null, batch.id, documentIndex, input.owner);
        if (claimed.changes !== 1) return false;

        if (outcome.ok) {
          this.verifications.insert({ keyId: input.keyId, result: outcome.result, report: outcome.report, batchId: batch.id, documentIndex, createdAt: now });
        }
        this.db
          .query(
            `UPDATE batches SET completed = completed + 1, failed = failed + ?,
               status = CASE WHEN completed + 1 >= total THEN 'completed' ELSE status END,
               completed_at = CASE WHEN completed + 1 >= total THEN ? ELSE completed_at END
             WHERE id = ?`,
          )
          .run(outcome.ok ? 0 : 1, now, batch.id);

        const payload = outcome.ok
          ? { batchId: batch.id, documentIndex, result: outcome.result }
          : { batchId: batch.id, documentIndex, error: outcome.error };
        this.db
          .query(
            `INSERT INTO outbox (delivery_id, batch_id, document_index, body, state, next_attempt_at, created_at)
             VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
          )
          .run(randomUUID(), batch.id, documentIndex, Buffer.from(JSON.stringify(payload)), now, now);
        return true;
      })
      .immediate();
  }

  pendingDocuments(): number {
    return (this.db.query("SELECT COUNT(*) AS n FROM batch_documents WHERE state = 'pending'").get() as { n: number }).n;
  }
}
