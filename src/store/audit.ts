// The audit log: key creation, rotation and revocation, and requests refused for a key
// (401, 402, 429). Rows carry identifiers, codes and the request's method and path, never a
// body, a query string, a key or document content.
import type { Database, Sql, SqlValue } from "./database.ts";

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
  constructor(private readonly db: Database) {}

  /** `sql`: the transaction that makes the change being audited, when there is one. */
  async record(
    event: AuditEvent,
    keyId: string | null,
    at: string,
    details: AuditDetails = {},
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.run("INSERT INTO audit_log (at, event, key_id, details) VALUES (?, ?, ?, ?)", [
      at,
      event,
      keyId,
      JSON.stringify(details),
    ]);
  }

  /** Oldest first. */
  async list(query: AuditQuery = {}): Promise<AuditEntry[]> {
    // Conditions are left out rather than bound as NULL: PostgreSQL cannot type `? IS NULL`.
    const conditions: string[] = [];
    const params: SqlValue[] = [];
    if (query.since !== undefined) {
      conditions.push("at >= ?");
      params.push(query.since);
    }
    if (query.keyId !== undefined) {
      conditions.push("key_id = ?");
      params.push(query.keyId);
    }
    if (query.limit !== undefined) params.push(query.limit);
    const rows = await this.db.all<{
      id: number;
      at: string;
      event: AuditEvent;
      key_id: string | null;
      details: string;
    }>(
      `SELECT id, at, event, key_id, details FROM audit_log ${conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : ""}
       ORDER BY id ${query.limit !== undefined ? "LIMIT ?" : ""}`,
      params,
    );
    return rows.map((row) => ({
      id: row.id,
      at: row.at,
      event: row.event,
      keyId: row.key_id,
      details: JSON.parse(row.details) as AuditDetails,
    }));
  }

  /** Refused requests are many and short-lived evidence; key lifecycle events are kept. */
  deleteRefusalsOlderThan(cutoffIso: string): Promise<number> {
    return this.db.run("DELETE FROM audit_log WHERE event = 'request.refused' AND at < ?", [cutoffIso]);
  }
}
