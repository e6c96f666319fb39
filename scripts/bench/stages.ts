// The sidecar's work on one page split into its stages, in this process: decoding (sharp), OCR
// (detection and recognition) and pixel forensics, each beside the time its ONNX sessions spent
// in session.run. The stages are the ones sidecar/server/analyze-document.ts chains, called
// with the server's default settings.
import { analyzePixels, createForensicsGraph } from "../../sidecar/forensics/index.ts";
import { type ModelRun, createOcrEngine } from "../../sidecar/ocr/engine.ts";
import type { Device } from "../../sidecar/ocr/providers.ts";
import { decodeImage } from "../../sidecar/server/decode-image.ts";
import { DEFAULT_LIMITS } from "../../sidecar/server/limits.ts";
import type { StatementPage } from "./statement-page.ts";
import { sum } from "../../src/numeric.ts";

/** Wall ms of each stage and the session.run ms inside it. */
export interface StageTiming {
  decode: number;
  ocr: number;
  detection: number;
  recognition: number;
  forensics: number;
  graph: number;
  /** decode + ocr + forensics */
  total: number;
  /** detection + recognition + graph: the bare model time of the page. */
  models: number;
}

export interface StageBench {
  executionProviders: string[];
  timePage(page: StatementPage): Promise<StageTiming>;
  close(): Promise<void>;
}

/**
 * `batch` as the sidecar is started with; at one page at a time it only adds the wait for company.
 */
export async function createStageBench(
  device: Device,
  batch: { maxBatch: number; maxWaitMs: number },
): Promise<StageBench> {
  const modelRuns: ModelRun[] = [];
  const [ocr, graph] = await Promise.all([
    createOcrEngine({
      device,
      batch,
      maxPixels: DEFAULT_LIMITS.maxPagePixels,
      onModelRun: (run) => modelRuns.push(run),
    }),
    createForensicsGraph({ device }),
  ]);
  const modelMs = (model: ModelRun["model"]) =>
    sum(modelRuns.filter((run) => run.model === model).map((run) => run.ms));

  const timePage = async (page: StatementPage): Promise<StageTiming> => {
    modelRuns.length = 0;
    let graphMs = 0;
    const t0 = performance.now();
    const decoded = await decodeImage(page.jpeg, "jpeg", DEFAULT_LIMITS);
    const t1 = performance.now();
    const lines = await ocr.readImage(decoded.image);
    const t2 = performance.now();
    const { data: rgb, width, height } = decoded.image;
    await analyzePixels({ rgb, width, height, jpeg: page.jpeg }, lines, {
      graph,
      maxPixels: DEFAULT_LIMITS.maxPagePixels,
      onGraphRun: (ms) => (graphMs += ms),
    });
    const t3 = performance.now();
    const detection = modelMs("detection");
    const recognition = modelMs("recognition");
    return {
      decode: t1 - t0,
      ocr: t2 - t1,
      detection,
      recognition,
      forensics: t3 - t2,
      graph: graphMs,
      total: t3 - t0,
      models: detection + recognition + graphMs,
    };
  };

  return {
    executionProviders: ocr.executionProviders,
    timePage,
    close: async () => {
      await Promise.all([ocr.close(), graph.close()]);
    },
  };
}
