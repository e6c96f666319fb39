// The analysis in this process along the path POST /api/v1/verify takes: the upload limit,
// validateDocument, then runVerification over the service's analyzer, so the score is
// rounded and the latency measured exactly as the service does.
import { createAnalyzer } from "../../../src/analysis/create-analyzer.ts";
import { fusionFeatures, priorFlagStrengths } from "../../../src/analysis/fusion/features.ts";
import { systemClock } from "../../../src/clock.ts";
import { loadConfig } from "../../../src/config.ts";
import { AppError } from "../../../src/errors.ts";
import { LIMITS } from "../../../src/intake/document.ts";
import { validateDocument } from "../../../src/intake/validate.ts";
import { createLogger } from "../../../src/log.ts";
import { runVerification } from "../../../src/verification/run-verification.ts";
import { type Backend, DocumentError, verdictOf } from "./backend.ts";

const READY_TIMEOUT_MS = 120_000;
const READY_POLL_MS = 500;

export async function createLocalBackend(env: Record<string, string | undefined>): Promise<Backend> {
  // The analysis logs JSON lines on stderr; below warn they would drown the progress line.
  const config = loadConfig({ DOCVERIFY_LOG_LEVEL: "warn", ...env });
  const analyzer = await createAnalyzer(config, createLogger(config.logLevel, { component: "evaluate" }));
  // Latency is measured on a warm analyzer, as a running service would be.
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let state = await analyzer.ready();
  while (!state.ok) {
    if (Date.now() > deadline) {
      await analyzer.close();
      throw new Error(`the analyzer was not ready within ${READY_TIMEOUT_MS / 1000} s: ${state.detail ?? "no detail"}`);
    }
    await Bun.sleep(READY_POLL_MS);
    state = await analyzer.ready();
  }
  return {
    description: `in process (validateDocument → analyzer.analyze${state.detail ? `: ${state.detail}` : ""})`,
    async verify(bytes) {
      const startedAt = systemClock.now();
      try {
        if (bytes.byteLength > LIMITS.uploadBytes)
          throw new AppError("FILE_TOO_LARGE", `The document exceeds ${LIMITS.uploadBytes} bytes`);
        const document = await validateDocument(bytes);
        const { result, report } = await runVerification({
          analyzer,
          document,
          keyId: null,
          sandbox: true,
          clock: systemClock,
          startedAt,
        });
        return {
          ...verdictOf(result, report.evidence),
          features: fusionFeatures(report.detectors),
          priorStrengths: priorFlagStrengths(report.detectors),
        };
      } catch (error) {
        if (error instanceof AppError) throw new DocumentError(error.code, error.message);
        throw new DocumentError("INTERNAL_ERROR", error instanceof Error ? error.message : String(error));
      }
    },
    close: () => analyzer.close(),
  };
}
