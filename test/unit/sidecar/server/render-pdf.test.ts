// The sidecar's PDF render workers (sidecar/server/render-pdf.ts): mupdf's heap in each is
// capped (src/runtime/mupdf-memory-cap.ts; Bun has no heap limit for a worker), and a PDF that
// would grow it past the cap is refused as over a limit while its worker is replaced; a worker
// left idle is ended.
import { afterAll, describe, expect, test } from "bun:test";
import { status } from "@grpc/grpc-js";
import { DEFAULT_LIMITS } from "../../../../sidecar/server/limits.ts";
import { createPdfRenderer } from "../../../../sidecar/server/render-pdf.ts";
import { createPageMemoryBudget, renderWorkerHeapBytes } from "../../../../sidecar/server/memory-budget.ts";
import { DocumentRefused } from "../../../../sidecar/server/errors.ts";
import { makePdf } from "../../../helpers/fixtures.ts";
import { manyPagesPdf } from "../../../helpers/hostile.ts";
import { eventually } from "../../../helpers/service.ts";

const MIB = 1024 * 1024;
// mupdf starts with 22 MiB of WebAssembly memory; opening 40,000 pages takes it to 27.7 MB.
const capped = createPdfRenderer({ workers: 1, limits: DEFAULT_LIMITS, mupdfHeapBytes: 24 * MIB });
afterAll(() => capped.close());

const pages = async (bytes: Uint8Array) => {
  const sizes: string[] = [];
  const count = await capped.render(bytes, new AbortController().signal, async (page) => {
    sizes.push(`${page.image.width}x${page.image.height}`);
  });
  return { count, sizes };
};

describe("render workers' mupdf heap", () => {
  test("a PDF that would grow it past the cap is refused as over a limit; the next gets a fresh worker", async () => {
    const refused = await pages(manyPagesPdf()).catch((e) => e);
    expect(refused).toBeInstanceOf(DocumentRefused);
    expect({ code: refused.code, message: refused.message }).toEqual({
      code: status.RESOURCE_EXHAUSTED,
      message:
        "the PDF needs more than the 24 MiB of memory each render worker may use (its share of the memory limit)",
    });
    expect(await pages(makePdf())).toEqual({ count: 1, sizes: ["1240x1755"] });
  });

  test("the cap shares the sidecar's page budget among the workers, at most mupdf's 2 GiB", () => {
    expect(renderWorkerHeapBytes(createPageMemoryBudget(1_500_000_000), 2)).toBe(
      Math.floor((1_500_000_000 - 384 * MIB) / 2),
    );
    expect(renderWorkerHeapBytes(createPageMemoryBudget(16_000_000_000), 2)).toBe(2048 * MIB);
  });
});

describe("render workers left idle", () => {
  test("are ended, and the next PDF gets a fresh one", async () => {
    let ended = 0;
    const brief = createPdfRenderer({
      workers: 1,
      limits: DEFAULT_LIMITS,
      idleWorkerMs: 50,
      onIdleWorkerEnded: () => ended++,
    });
    const render = () => brief.render(makePdf(), new AbortController().signal, async () => {});
    try {
      expect(await render()).toBe(1);
      await eventually(() => (ended === 1 ? true : undefined), 10_000, 20);
      expect(await render()).toBe(1);
      await eventually(() => (ended === 2 ? true : undefined), 10_000, 20);
    } finally {
      await brief.close();
    }
  });
});
