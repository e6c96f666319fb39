// Chooses the analysis the service runs and exposes its readiness.
import type { Config } from "../config";
import type { Logger } from "../log";
import type { Analyzer } from "./analyzer";
import { createLocalAnalyzer } from "./analyze";

export interface AnalysisService extends Analyzer {
  ready(): Promise<{ ok: boolean; detail?: string }>;
  close(): Promise<void>;
}

export async function createAnalyzer(_config: Config, _log: Logger): Promise<AnalysisService> {
  const local = createLocalAnalyzer();
  return {
    analyze: (document) => local.analyze(document),
    ready: async () => ({ ok: true, detail: "in-process structure and metadata detectors" }),
    close: async () => {},
  };
}
