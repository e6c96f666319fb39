// The analysis through a running service: POST /api/v1/verify (multipart) for the result,
// then GET /api/v1/verifications/:id for the evidence behind it.
import type { Confidence, DocumentType, Flag } from "../../../src/analysis/flags.ts";
import type { EvidenceSummary } from "../score-row.ts";
import { type Backend, DocumentError, verdictOf } from "./backend.ts";

/** 429 and 503 say "later"; the run waits as told, a few times, rather than count an error. */
const RETRYABLE = new Set([429, 503]);
const MAX_ATTEMPTS = 4;
const MAX_WAIT_S = 60;
const REQUEST_TIMEOUT_MS = 120_000;

const MEDIA_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
};

interface PublicResult {
  id: string;
  forgeryScore: number;
  confidence: Confidence;
  documentType: DocumentType;
  flags: Flag[];
  latencyMs: number;
}

async function failure(response: Response): Promise<DocumentError> {
  const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  return new DocumentError(body?.error?.code ?? `HTTP_${response.status}`, body?.error?.message ?? response.statusText);
}

export function createHttpBackend(baseUrl: string, apiKey: string): Backend {
  const base = new URL(baseUrl);
  const headers = { authorization: `Bearer ${apiKey}` };

  async function send(path: string, init: RequestInit = {}): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(new URL(path, base), {
          ...init,
          headers,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        throw new DocumentError("CONNECTION_FAILED", (error as Error).message);
      }
      if (!RETRYABLE.has(response.status) || attempt === MAX_ATTEMPTS) return response;
      const wait = Math.min(MAX_WAIT_S, Number(response.headers.get("retry-after")) || attempt);
      await response.body?.cancel();
      await Bun.sleep(wait * 1000);
    }
  }

  return {
    description: `HTTP ${base.origin}`,
    async verify(bytes, fileName) {
      const form = new FormData();
      const extension = fileName.split(".").pop()?.toLowerCase() ?? "";
      form.append(
        "document",
        new File([bytes], fileName, { type: MEDIA_TYPES[extension] ?? "application/octet-stream" }),
      );
      const verified = await send("/api/v1/verify", { method: "POST", body: form });
      if (!verified.ok) throw await failure(verified);
      const { data: result } = (await verified.json()) as { data: PublicResult };
      const stored = await send(`/api/v1/verifications/${encodeURIComponent(result.id)}`);
      if (!stored.ok) throw await failure(stored);
      const { data } = (await stored.json()) as { data: { evidence: EvidenceSummary[] } };
      return verdictOf(result, data.evidence);
    },
    close: async () => {},
  };
}
