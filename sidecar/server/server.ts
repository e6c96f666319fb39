// The sidecar's gRPC server: the Analyzer service and the standard health service, over one
// OCR engine, one forensics graph and one pool of PDF render workers shared by every request.
import { Server, ServerCredentials, type ServerReadableStream, type sendUnaryData, status } from "@grpc/grpc-js";
import { protos } from "../../proto/load.ts";
import type { AnalyzeDocumentRequest__Output } from "../../proto/generated/docverify/sidecar/v1/AnalyzeDocumentRequest.ts";
import type { AnalyzeDocumentResponse } from "../../proto/generated/docverify/sidecar/v1/AnalyzeDocumentResponse.ts";
import type { Logger } from "../../src/log.ts";
import { createForensicsGraph } from "../forensics/index.ts";
import { createOcrEngine } from "../ocr/engine.ts";
import { type Device, chooseExecutionProviders } from "../ocr/providers.ts";
import { createDocumentAnalyzer } from "./analyze-document.ts";
import { createAdmission } from "./concurrency.ts";
import { memoryGivenBackWhenIdle } from "../../src/runtime/give-back-memory.ts";
import { DEFAULT_MEMORY_LIMIT_BYTES, planSidecarMemory } from "./memory-budget.ts";
import { DocumentRefused, toServiceError } from "./errors.ts";
import { createHealthService } from "./health.ts";
import { DEFAULT_LIMITS, type DocumentLimits } from "./limits.ts";
import { receiveDocument } from "./receive.ts";
import { createPdfRenderer } from "./render-pdf.ts";

/** PEM contents. With `ca` set, clients must present a certificate it signed (mutual TLS). */
interface ServerTls {
  cert: Uint8Array | string;
  key: Uint8Array | string;
  ca?: Uint8Array | string;
}

export const DEFAULT_MAX_BATCH = 16;
export const DEFAULT_MAX_WAIT_MS = 5;

export interface SidecarServerOptions {
  /** host:port; port 0 picks a free one. */
  listen: string;
  device: Device;
  /** Operator folder of ONNX Runtime's CUDA provider libraries, when the binary carries none. */
  cudaLibDir?: string;
  log: Logger;
  tls?: ServerTls;
  limits?: Partial<DocumentLimits>;
  /**
   * ONNX Runtime threads per model call (default: all cores) and dynamic batching of model
   * calls (default 16, --sidecar-max-batch). Batching is for a GPU: on the CPU the engine runs
   * one page and one line crop per call whatever maxBatch says (sidecar/ocr/engine.ts).
   */
  ocr?: { intraOpThreads?: number; interOpThreads?: number; maxBatch?: number; maxWaitMs?: number };
  /** Documents analysed at once (default 4) and waiting beyond those (default 32). */
  concurrentDocuments?: number;
  queuedDocuments?: number;
  /** PDF render worker threads (default 2; fewer where the memory limit cannot hold their heaps). */
  renderWorkers?: number;
  /** DOCVERIFY_MEMORY_LIMIT: resident bytes this process stays under (default 1.5 GB). */
  memoryLimitBytes?: number;
}

export interface SidecarServer {
  /** host:port actually bound. */
  address: string;
  port: number;
  executionProviders: string[];
  /**
   * Stops taking calls, lets calls in flight finish for up to `graceMs`, then releases everything.
   */
  stop(graceMs?: number): Promise<void>;
}

export async function startSidecarServer(options: SidecarServerOptions): Promise<SidecarServer> {
  const { log } = options;
  const memoryLimitBytes = options.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
  const memory = planSidecarMemory(memoryLimitBytes, options.renderWorkers ?? 2);
  const configured: DocumentLimits = { ...DEFAULT_LIMITS, ...options.limits };
  // A page larger than the memory budget is analysed scaled down to fit it, as one larger
  // than the pixel limit is.
  const limits: DocumentLimits = {
    ...configured,
    maxPagePixels: Math.min(configured.maxPagePixels, memory.maxPagePixels),
  };
  if (limits.maxPagePixels < configured.maxPagePixels) {
    log.info("pages are analysed at most at the size the memory limit allows", {
      maxPagePixels: limits.maxPagePixels,
      memoryLimitBytes,
      renderWorkers: memory.renderWorkers,
      renderWorkerHeapBytes: memory.renderWorkerHeapBytes,
    });
  }
  const threads = { intraOpThreads: options.ocr?.intraOpThreads, interOpThreads: options.ocr?.interOpThreads };
  // Chosen once for both models, so a CPU fallback is decided and logged once.
  const executionProviders = chooseExecutionProviders(options.device, {
    cudaLibDir: options.cudaLibDir,
    onCpuFallback: (reason) => log.warn("CUDA not used; running on the CPU", { reason }),
  });
  const maxBatch = options.ocr?.maxBatch ?? DEFAULT_MAX_BATCH;
  const [ocr, forensics] = await Promise.all([
    createOcrEngine({
      device: options.device,
      executionProviders,
      ...threads,
      maxPixels: limits.maxPagePixels,
      batch: { maxBatch, maxWaitMs: options.ocr?.maxWaitMs ?? DEFAULT_MAX_WAIT_MS },
    }),
    createForensicsGraph({ device: options.device, executionProviders, ...threads }),
  ]);
  const idle = memoryGivenBackWhenIdle();
  const renderer = createPdfRenderer({
    workers: memory.renderWorkers,
    limits,
    mupdfHeapBytes: memory.renderWorkerHeapBytes,
    // What the ended worker held is freed into the allocators; the collection and trim return it.
    onIdleWorkerEnded: () => idle.freed(),
  });
  const analyze = createDocumentAnalyzer({ ocr, forensics, renderer, limits, memory: memory.pages });
  const admission = createAdmission({
    concurrent: options.concurrentDocuments ?? 4,
    queued: options.queuedDocuments ?? 32,
  });
  const health = createHealthService("SERVING");

  const analyzeDocument = async (
    call: ServerReadableStream<AnalyzeDocumentRequest__Output, AnalyzeDocumentResponse>,
    callback: sendUnaryData<AnalyzeDocumentResponse>,
  ) => {
    const aborted = new AbortController();
    call.on("cancelled", () => aborted.abort());
    const started = performance.now();
    let release: (() => void) | undefined;
    const leave = idle.enter();
    try {
      release = await admission.enter(aborted.signal);
      const document = await receiveDocument(call, limits.maxDocumentBytes);
      const response = await analyze(document, aborted.signal);
      log.info("document analysed", {
        format: document.format,
        bytes: document.bytes.length,
        pages: response.pages?.length,
        ms: Math.round(performance.now() - started),
      });
      callback(null, response);
    } catch (error) {
      if (error instanceof DocumentRefused) {
        if (error.code !== status.CANCELLED)
          log.info("document refused", { code: status[error.code], reason: error.message });
      } else {
        log.error("document analysis failed", { error: (error as Error).message });
      }
      callback(toServiceError(error));
    } finally {
      release?.();
      leave();
    }
  };

  const server = new Server({
    // A chunked stream never needs big messages; refuse anything larger than a whole document.
    "grpc.max_receive_message_length": limits.maxDocumentBytes + 1024,
    "grpc.max_send_message_length": 64 * 1024 * 1024,
  });
  const { analyzer: analyzerProto, health: healthProto } = protos();
  server.addService(analyzerProto.Analyzer.service, { AnalyzeDocument: analyzeDocument });
  server.addService(healthProto.Health.service, health.handlers);

  const credentials = options.tls
    ? ServerCredentials.createSsl(
        options.tls.ca ? Buffer.from(options.tls.ca) : null,
        [{ cert_chain: Buffer.from(options.tls.cert), private_key: Buffer.from(options.tls.key) }],
        options.tls.ca !== undefined,
      )
    : ServerCredentials.createInsecure();
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(options.listen, credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
    );
  } catch (error) {
    await Promise.all([renderer.close(), ocr.close(), forensics.close()]);
    throw error;
  }
  const host = options.listen.slice(0, options.listen.lastIndexOf(":"));
  const address = `${host}:${port}`;
  log.info("sidecar listening", { address, executionProviders: ocr.executionProviders, tls: Boolean(options.tls) });

  let stopped: Promise<void> | undefined;
  const stop = (graceMs = 10_000) =>
    (stopped ??= (async () => {
      health.set("NOT_SERVING");
      health.close();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      await renderer.close();
      await Promise.all([ocr.close(), forensics.close()]);
      log.info("sidecar stopped");
    })());

  return { address, port, executionProviders: ocr.executionProviders, stop };
}
