// `docverify analyze FILE`: the whole analysis, locally (with an embedded sidecar unless
// DOCVERIFY_SIDECAR names one), printed for a person. No API key: no duplicate check.
import { readFileSync, statSync } from "node:fs";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { LIMITS } from "../intake/document.ts";
import { validateDocument } from "../intake/validate.ts";
import { createAnalyzer } from "../analysis/create-analyzer.ts";
import { formatReport } from "../analysis/format-report.ts";
import { createLogger } from "../log.ts";
import { newVerificationId } from "../verification/run-verification.ts";

export async function analyzeFile(config: Config, file: string, asJson: boolean): Promise<string> {
  const size = statSync(file).size;
  if (size > LIMITS.urlBytes)
    throw new AppError(
      "FILE_TOO_LARGE",
      `${file} is ${size} bytes; the largest document accepted is ${LIMITS.urlBytes} bytes`,
    );
  const document = await validateDocument(new Uint8Array(readFileSync(file)));
  const analyzer = await createAnalyzer(config, createLogger(config.logLevel, { component: "analyze" }));
  try {
    const started = performance.now();
    const report = await analyzer.analyze(document, { keyId: null, verificationId: newVerificationId() });
    const latencyMs = Math.round(performance.now() - started);
    return asJson
      ? JSON.stringify({ file, latencyMs, ...report }, null, 2)
      : `${file}\n${formatReport(report)}\nanalysed in ${latencyMs} ms`;
  } finally {
    await analyzer.close();
  }
}
