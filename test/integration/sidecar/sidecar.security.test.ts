// Hostile documents cost the sidecar bounded bytes, pixels and time, get a clear status, and
// leave it serving the next caller.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ServiceError, credentials, status } from "@grpc/grpc-js";
import { protos } from "../../../proto/load.ts";
import type { AnalyzeDocumentRequest } from "../../../proto/generated/docverify/sidecar/v1/AnalyzeDocumentRequest.ts";
import type { AnalyzerClient } from "../../../proto/generated/docverify/sidecar/v1/Analyzer.ts";
import { createLogger } from "../../../src/log.ts";
import { type SidecarClient, createSidecarClient } from "../../../src/sidecar-client/client.ts";
import { startSidecarServer } from "../../../sidecar/server/server.ts";
import { PAGE_TEXT, pngDeclaring, readText, textImage, textPdf } from "./fixtures.ts";
import { type SidecarProcess, startSidecarProcess } from "../../helpers/sidecar-process.ts";

let sidecar: SidecarProcess;
let client: SidecarClient;
let raw: AnalyzerClient;
const log = createLogger("error");

beforeAll(async () => {
  sidecar = await startSidecarProcess();
  client = createSidecarClient({ targets: [sidecar.address], log });
  raw = new (protos().analyzer.Analyzer)(sidecar.address, credentials.createInsecure());
}, 30_000);

afterAll(async () => {
  client?.close();
  raw?.close();
  await sidecar?.stop();
});

/** Sends exactly these stream messages, without the client's own checks. */
function send(messages: AnalyzeDocumentRequest[]): Promise<ServiceError | "answered"> {
  return new Promise((resolve) => {
    const call = raw.analyzeDocument({ deadline: Date.now() + 20_000 }, (error) => resolve(error ?? "answered"));
    for (const message of messages) call.write(message);
    call.end();
  });
}

const chunks = (bytes: number, size = 64 * 1024) =>
  Array.from({ length: Math.ceil(bytes / size) }, (_, i) => ({
    chunk: new Uint8Array(Math.min(size, bytes - i * size)),
  }));

async function expectStillServing() {
  const [page] = (await client.analyzeDocument({ format: "pdf", bytes: textPdf() })).pages;
  expect(readText(page!.lines)).toEqual(PAGE_TEXT);
}

describe("the sidecar facing hostile documents", () => {
  test("refuses a PNG declaring 50000x50000 pixels from its header, as FILE_TOO_LARGE, and keeps serving", async () => {
    const bomb = await pngDeclaring(50_000, 50_000);
    expect(bomb.length).toBeLessThan(200);
    const started = performance.now();
    const error = await client.analyzeDocument({ format: "png", bytes: bomb }).catch((e) => e);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ code: "FILE_TOO_LARGE", retryable: false });
    expect(error.message).toContain("50000x50000");
    await expectStillServing();
  }, 15_000);

  test("refuses what an image header does not declare (an ICC bomb, hundreds of scans) before decoding, and keeps serving", async () => {
    const { iccBombPng, manyScanJpeg } = await import("../../helpers/hostile.ts");
    const icc = await client.analyzeDocument({ format: "png", bytes: await iccBombPng() }).catch((e) => e);
    expect(icc).toMatchObject({ code: "FILE_TOO_LARGE", retryable: false });
    expect(icc.message).toContain("ICC profile");
    const scans = await client.analyzeDocument({ format: "jpeg", bytes: await manyScanJpeg(60) }).catch((e) => e);
    expect(scans.message).toContain("scans");
    await expectStillServing();
  }, 15_000);

  test("renders a PDF page with a 200-inch MediaBox scaled down inside the page pixel limit", async () => {
    const huge = textPdf({ widthPt: 14_400, heightPt: 14_400 });
    const started = performance.now();
    const [page] = (await client.analyzeDocument({ format: "pdf", bytes: huge })).pages;
    // The first large page a fresh sidecar analyses is its slowest: ONNX Runtime runs without
    // its CPU arena (sidecar/ocr/providers.ts), so its buffers are allocated afresh (measured
    // 9-14 s on a loaded 2-core machine, against 2-4 s for later pages).
    expect(performance.now() - started).toBeLessThan(25_000);
    expect(page!.sourceWidth).toBe(14_400);
    expect(page!.width * page!.height).toBeLessThanOrEqual(20_000_000);
    expect(page!.scale).toBeLessThan(150 / 72);
    expect(page!.dpi).toBeCloseTo(page!.scale * 72, 5);
    await expectStillServing();
  }, 45_000);

  test("refuses a stream that declares more than 10 MB before reading it", async () => {
    const error = await send([{ header: { format: "DOCUMENT_FORMAT_PDF", sizeBytes: 10_000_001 } }, ...chunks(1024)]);
    expect(error).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
  });

  test("cuts off a stream that sends more than 10 MB whatever it declared", async () => {
    const error = await send([
      { header: { format: "DOCUMENT_FORMAT_PDF", sizeBytes: 10_000_000 } },
      ...chunks(10_500_000),
    ]);
    expect(error).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
  }, 15_000);

  test("refuses a stream that sends more or fewer bytes than it declared", async () => {
    expect(await send([{ header: { format: "DOCUMENT_FORMAT_PNG", sizeBytes: 1000 } }, ...chunks(2000)])).toMatchObject(
      { code: status.INVALID_ARGUMENT },
    );
    expect(await send([{ header: { format: "DOCUMENT_FORMAT_PNG", sizeBytes: 1000 } }, ...chunks(500)])).toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
  });

  test("refuses chunks before a header, and a header without a format", async () => {
    expect(await send(chunks(100))).toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(await send([{ header: { sizeBytes: 100 } }, ...chunks(100)])).toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
  });

  test("answers UNSUPPORTED_FORMAT for bytes that are not what the header says, truncated files included", async () => {
    const pdf = textPdf();
    const png = await pngDeclaring(10, 10);
    for (const document of [
      { format: "png" as const, bytes: pdf },
      { format: "pdf" as const, bytes: png },
      { format: "jpeg" as const, bytes: new TextEncoder().encode("not a jpeg at all") },
      { format: "png" as const, bytes: png.subarray(0, 40) },
    ]) {
      expect(await client.analyzeDocument(document).catch((e) => e)).toMatchObject({
        code: "UNSUPPORTED_FORMAT",
        retryable: false,
      });
    }
    await expectStillServing();
  }, 15_000);
});

describe("a sidecar with a tight rendering budget", () => {
  test("stops a PDF whose rendering overruns it, as FILE_TOO_LARGE, replaces the stopped worker, and keeps serving", async () => {
    const server = await startSidecarServer({
      listen: "127.0.0.1:0",
      device: "cpu",
      log,
      limits: { renderBudgetMs: 1 },
      renderWorkers: 1,
    });
    const tight = createSidecarClient({ targets: [server.address], log });
    try {
      // Forty pages of text cannot be opened and rendered in a millisecond.
      const error = await tight.analyzeDocument({ format: "pdf", bytes: textPdf({ pages: 40 }) }).catch((e) => e);
      expect(error).toMatchObject({ code: "FILE_TOO_LARGE", retryable: false });
      expect(error.message).toContain("time budget");
      // The terminated worker is replaced: the next PDF gets its own (equally refused) attempt, not
      // a hang.
      expect(
        await tight.analyzeDocument({ format: "pdf", bytes: textPdf({ pages: 40 }) }).catch((e) => e),
      ).toMatchObject({ code: "FILE_TOO_LARGE" });
      const [page] = (await tight.analyzeDocument({ format: "png", bytes: await textImage("png") })).pages;
      expect(readText(page!.lines)).toEqual(PAGE_TEXT);
    } finally {
      tight.close();
      await server.stop();
    }
  }, 30_000);
});
