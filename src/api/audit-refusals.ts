// Requests refused for their key (401, 402, 429) go to the audit log with identifiers and
// codes only: no body, no query string, no key. A client hammering the API would write a row
// per request, so refusals of one subject and code are written at most once per window, the
// next row saying how many were folded into it.
import type { AppError, ErrorCode } from "../errors.ts";
import { KeyRefusal } from "../keys/authenticate.ts";
import type { AuditStore } from "../store/audit.ts";
import { codeToStatus } from "./http-errors.ts";

const AUDITED_CODES = new Set<ErrorCode>(["UNAUTHORIZED", "TRIAL_EXHAUSTED", "RATE_LIMITED", "CAP_EXCEEDED"]);
const WINDOW_MS = 10_000;
/** Bounds the throttle's memory under a flood of distinct unknown keys. */
const MAX_SUBJECTS = 10_000;

export interface RefusedRequest {
  error: AppError;
  keyId: string | null;
  method: string;
  path: string;
  requestId: string;
  nowMs: number;
}

export class RefusalAuditor {
  private readonly windows = new Map<string, { until: number; folded: number }>();

  constructor(private readonly audit: AuditStore) {}

  async record(refused: RefusedRequest): Promise<void> {
    const { error } = refused;
    if (!AUDITED_CODES.has(error.code)) return;
    const refusal = error.cause instanceof KeyRefusal ? error.cause : null;
    const keyId = refused.keyId ?? refusal?.keyId ?? null;
    const subject = `${keyId ?? refusal?.tokenHash ?? "anonymous"}|${error.code}|${refusal?.reason ?? ""}`;
    const window = this.windows.get(subject);
    if (window && window.until > refused.nowMs) {
      window.folded++;
      return;
    }
    if (this.windows.size >= MAX_SUBJECTS) this.prune(refused.nowMs);
    this.windows.set(subject, { until: refused.nowMs + WINDOW_MS, folded: 0 });
    await this.audit.record("request.refused", keyId, new Date(refused.nowMs).toISOString(), {
      status: codeToStatus[error.code],
      code: error.code,
      reason: refusal?.reason ?? null,
      tokenHash: keyId === null ? (refusal?.tokenHash ?? null) : null,
      method: refused.method,
      path: refused.path,
      requestId: refused.requestId,
      foldedSincePrevious: window?.folded ?? 0,
    });
  }

  private prune(nowMs: number): void {
    for (const [subject, window] of this.windows) if (window.until <= nowMs) this.windows.delete(subject);
    if (this.windows.size >= MAX_SUBJECTS) this.windows.clear();
  }
}
