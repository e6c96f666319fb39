// region_tampering from the sidecar's residual traces: an OCR line whose error level (or, on
// noisy paper, noise residual) stands out from the page's other lines beyond the threshold
// the sidecar measured, as text pasted from another compression does, and an area away from
// text (a portrait) compressed once on a page compressed twice. The evidence counts in
// proportion to the trace's reliability on that page; an unreliable trace lowers coverage
// and raises nothing. Residual tile regions are shown as facts only: on genuine pages tiles
// of lettering against paper reach z 5-6 (measured on generated statements), so no
// threshold separates them from edits yet.
import type { SidecarPage, SidecarTrace } from "../../sidecar-client/result.ts";
import type { ResidualPageMeasurement } from "../measurements.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { MIN_RELIABILITY, meanOver, round2, scaledStrength, traceOf } from "./traces.ts";
import type { DetectorName } from "../manifest.ts";

export const REGION_TAMPERING_DETECTOR = "pixel-residuals" satisfies DetectorName;

const TRACES = ["ela", "noise", "double_quant"] as const;
const TRACE_LABEL: Record<(typeof TRACES)[number], string> = {
  ela: "error-level analysis",
  noise: "noise residual",
  // A line that was not compressed twice on a page that was: pasted after the first save.
  double_quant: "double JPEG quantization",
};
/** Lines reported per page and trace: the strongest outliers, enough to show where. */
const MAX_LINES = 3;

/** 0.5 at the threshold, 1 at twice the threshold. */
const baseStrength = (z: number, threshold: number) => Math.min(1, 0.5 + (0.5 * (z - threshold)) / threshold);

/**
 * The z from which a line stands out, as the sidecar measured it for this trace; undefined =
 * unknown.
 */
const lineThreshold = (name: (typeof TRACES)[number], trace: SidecarTrace | undefined): number | undefined =>
  name === "double_quant" ? trace?.measures.doubleQuant?.lineThreshold : trace?.measures.residual?.lineThreshold;

const pageCoverage = (page: SidecarPage) =>
  Math.max(
    0,
    traceOf(page, "double_quant")?.measures.doubleQuant?.areaReliability ?? 0,
    ...TRACES.map((name) => traceOf(page, name)?.reliability ?? 0),
  );

export function detectRegionTampering(pages: readonly SidecarPage[]): DetectorResult {
  const coverage = meanOver(pages, pageCoverage);
  const evidence: Evidence[] = [];
  const perPage = pages.map((page) => {
    const facts: Record<string, unknown> = { page: page.index + 1 };
    const measured: Omit<ResidualPageMeasurement, "singleCompressedArea"> = {};
    for (const name of TRACES) {
      const trace = traceOf(page, name);
      const threshold = lineThreshold(name, trace);
      facts[name] = trace
        ? {
            reliability: round2(trace.reliability),
            highestLineZ: round2(trace.globalScore),
            threshold: threshold ?? "none",
          }
        : "not measured";
      if (trace && name !== "double_quant")
        measured[name] = { highestLineZ: round2(trace.globalScore), ...(threshold !== undefined ? { threshold } : {}) };
      if (!trace || threshold === undefined || trace.reliability < MIN_RELIABILITY) continue;
      const outliers = page.lineScores
        .map(({ lineIndex, scores }) => ({ line: page.lines[lineIndex], z: scores[name] }))
        .filter(
          (o): o is { line: NonNullable<typeof o.line>; z: number } =>
            o.line !== undefined && o.z !== undefined && o.z >= threshold,
        )
        .sort((a, b) => b.z - a.z)
        .slice(0, MAX_LINES);
      for (const { line, z } of outliers) {
        evidence.push({
          flag: "region_tampering",
          detector: REGION_TAMPERING_DETECTOR,
          strength: scaledStrength(baseStrength(z, threshold), trace.reliability, coverage),
          message: `A text line stands out from the rest of the page in ${TRACE_LABEL[name]} (compressed or processed differently), trace reliability ${round2(trace.reliability)}`,
          page: page.index + 1,
          box: line.box,
          measured: round2(z),
          threshold,
        });
      }
    }
    const dq = traceOf(page, "double_quant");
    const areaThreshold = dq?.measures.doubleQuant?.areaThreshold;
    const areaReliability = dq?.measures.doubleQuant?.areaReliability ?? 0;
    if (areaThreshold !== undefined && areaReliability >= MIN_RELIABILITY) {
      for (const area of page.singleCompressedAreas.filter((a) => a.tiles >= areaThreshold).slice(0, MAX_LINES)) {
        evidence.push({
          flag: "region_tampering",
          detector: REGION_TAMPERING_DETECTOR,
          strength: scaledStrength(baseStrength(area.tiles, areaThreshold), areaReliability, coverage),
          message: `An area away from the text was compressed once on a page compressed twice (pasted between the saves), trace reliability ${round2(areaReliability)}`,
          page: page.index + 1,
          box: area.box,
          measured: area.tiles,
          threshold: areaThreshold,
        });
      }
    }
    facts.outlierTiles = page.regions.filter((r) => r.trace === "ela" || r.trace === "noise").length;
    const area = { tiles: page.singleCompressedAreas[0]?.tiles ?? 0, reliability: round2(areaReliability) };
    facts.singleCompressedArea = {
      tiles: area.tiles,
      threshold: areaThreshold ?? "none",
      reliability: area.reliability,
    };
    const measurement: ResidualPageMeasurement = {
      ...measured,
      singleCompressedArea: { ...area, ...(areaThreshold !== undefined ? { threshold: areaThreshold } : {}) },
    };
    return { facts, measurement };
  });
  return {
    detector: REGION_TAMPERING_DETECTOR,
    evidence,
    facts: { pages: perPage.map((p) => p.facts), scores: "robust z of each OCR line against the page's other lines" },
    coverage,
    measurements: { residualPages: perPage.map((p) => p.measurement) },
  };
}
