// The audit log: key creation, rotation and revocation, and requests refused for a key
// (401, 402, 429). Rows carry identifiers, codes and the request's method and path, never a
// body, a query string, a key or document content.
import type { Db } from "./db";

export type AuditEvent = "key.created" | "key.rotated" | "key.revoked" | "key.grace_ended" | "request.refused";

/** What one row may carry: flat, typed values, so nothing unexpected (a body) slips in. */
export type AuditDetails = Record<string, string | number | boolean | null>;

export interface AuditEntry {
  id: number;
  at: string;
  event: AuditEvent;
  keyId: string | null;
  details: AuditDetails;
}

export interface AuditQuery {
  since?: string;
  keyId?: string;
  limit?: number;
}

export class AuditStore {
  constructor(private readonly db: Db) {}

  record(event: AuditEvent, keyId: string | null, at: string, details: AuditDetails = {}): void {
    this.db.query("INSERT INTO audit_log (at, event, key_id, details) VALUES (?, ?, ?, ?)").run(at, event, keyId, JSON.stringify(details));
  }

  /** Oldest first. */
  list(query: AuditQuery = {}): AuditEntry[] {
    const rows = this.db
      .query(
        `SELECT id, at, event, key_id, details FROM audit_log
         WHERE (?1 IS NULL OR at >= ?1) AND (?2 IS NULL OR key_id = ?2)
         ORDER BY id LIMIT ?3`,
      )
      .all(query.since ?? null, query.keyId ?? null, query.limit ?? -1) as { id: number; at: string; event: AuditEvent; key_id: string | null; details: string }[];
    return rows.map((row) => ({ id: row.id, at: row.at, event: row.event, keyId: row.key_id, details: JSON.parse(row.details) as AuditDetails }));
  }

  /** Refused requests are many and short-lived evidence; key lifecycle events are kept. */
  deleteRefusalsOlderThan(cutoffIso: string): number {
    return this.db.query("DELETE FROM audit_log WHERE event = 'request.refused' AND at < ?").run(cutoffIso).changes;
  }
}
