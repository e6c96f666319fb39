// What the pixel detectors judge a trace by crosses gRPC as typed fields (ForensicTrace's
// measures), not as facts read by name: through the wire they arrive typed, a value the sidecar
// did not send stays unknown, and a sidecar older than the fields (facts only) is judged as
// one that measured nothing, as a missing fact was.
import { describe, expect, test } from "bun:test";
import type { AnalyzeDocumentResponse } from "../../../proto/generated/docverify/sidecar/v1/AnalyzeDocumentResponse.ts";
import type { ForensicTrace } from "../../../proto/generated/docverify/sidecar/v1/ForensicTrace.ts";
import { type AnalyzeDocumentResponse__Output, protos } from "../../../proto/load.ts";
import { detectCopyMove } from "../../../src/analysis/pixel/copy-move.ts";
import { fromResponse } from "../../../src/sidecar-client/result.ts";

interface Codec {
  serialize(value: AnalyzeDocumentResponse): Buffer;
  deserialize(bytes: Buffer): AnalyzeDocumentResponse__Output;
}

/** The response as the API's client receives it: encoded by the sidecar, decoded by the loader. */
const throughTheWire = (traces: ForensicTrace[]) => {
  const codec = protos().analyzer.AnalyzeDocumentResponse as unknown as Codec;
  const response: AnalyzeDocumentResponse = {
    pages: [{ index: 0, width: 800, height: 600, traces, copyMoves: [{ source: {}, target: {}, score: 0.97 }] }],
    pageCount: 1,
  };
  return fromResponse(codec.deserialize(codec.serialize(response)), "test").pages;
};

describe("trace measures through the wire", () => {
  test("arrive typed, each kind on its own trace, a portrait's box as a tuple", () => {
    const [page] = throughTheWire([
      { name: "ela", reliability: 1, residual: { lineThreshold: 3.2 } },
      { name: "copy_move", reliability: 1, copyMove: { minCorrelation: 0.9, paperNoise: 0.44, periodicMatches: 5 } },
      {
        name: "portrait",
        reliability: 1,
        portrait: { box: { x: 64, y: 144, width: 224, height: 304 }, strongestMeasure: "sharpSeam", sharpSeam: 0 },
      },
    ]);
    expect(page!.traces.map((trace) => trace.measures)).toEqual([
      { residual: { lineThreshold: 3.2 } },
      { copyMove: { minCorrelation: 0.9, paperNoise: 0.44, periodicMatches: 5 } },
      // A measured 0 is a value, not an absence.
      { portrait: { box: [64, 144, 224, 304], strongestMeasure: "sharpSeam", sharpSeam: 0 } },
    ]);
  });

  test("a value the sidecar did not send stays unknown rather than 0", () => {
    const pages = throughTheWire([{ name: "copy_move", reliability: 1, copyMove: { minCorrelation: 0.9 } }]);
    expect(pages[0]!.traces[0]!.measures).toEqual({ copyMove: { minCorrelation: 0.9 } });
    const result = detectCopyMove(pages);
    expect(result.evidence).toHaveLength(1);
    expect(result.facts).toEqual({
      pages: [{ page: 1, reliability: 1, paperNoise: "unknown", clones: 1, periodicRepeats: "unknown" }],
    });
  });

  test("a sidecar older than the typed fields: its thresholds are unknown, so the trace raises nothing", () => {
    const pages = throughTheWire([
      { name: "copy_move", reliability: 1, facts: [{ name: "minCorrelation", number: 0.9 }] },
    ]);
    expect(pages[0]!.traces[0]!.measures).toEqual({});
    expect(pages[0]!.traces[0]!.facts).toEqual({ minCorrelation: 0.9 });
    expect(detectCopyMove(pages).evidence).toEqual([]);
  });
});
