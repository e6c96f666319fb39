// The JPEG's own header: quantization tables (last save's quality, and whether an editor
// with its own tables wrote them), sampling, APP segments and comments.
import type { DetectorResult, Evidence } from "../report.ts";
import { classifyImageSoftware, cleanSoftwareName } from "../software.ts";
import { matchEditorTables } from "./editor-tables.ts";
import { estimateIjgQuality, tableSum } from "../../jpeg/ijg-quality.ts";
import { lumaTable as lumaTableOf, type JpegStructure } from "../../jpeg/markers.ts";
import type { DetectorName } from "../manifest.ts";

export const JPEG_TABLES_DETECTOR = "jpeg-quantization" satisfies DetectorName;

export interface JpegTablesSummary {
  /** Luma table in natural order, when the frame names one. */
  lumaTable?: Uint16Array;
  /** IJG quality closest to the luma table (the last save's quality). */
  quality?: number;
  ijgExact: boolean;
}

export const summarizeTables = (s: JpegStructure): JpegTablesSummary => {
  const lumaTable = lumaTableOf(s);
  if (!lumaTable) return { ijgExact: false };
  const estimate = estimateIjgQuality(lumaTable);
  return { lumaTable, quality: estimate.quality, ijgExact: estimate.exact };
};

export const detectJpegTables = (s: JpegStructure): DetectorResult => {
  const evidence: Evidence[] = [];
  const components = s.frame?.components ?? [];
  const luma = lumaTableOf(s);
  const chroma = components[1] ? s.quantTables.get(components[1].tq) : undefined;
  const facts: Record<string, unknown> = {
    tables: s.quantTables.size,
    dqtSegments: s.dqtSegments,
    app: s.appMarkers,
    progressive: s.frame ? s.frame.sof === 2 || s.frame.sof === 10 : false,
    sampling: components.map((c) => `${c.h}x${c.v}`).join(","),
  };
  if (luma) {
    const lq = estimateIjgQuality(luma);
    facts.quality = lq.quality;
    facts.ijgTables = lq.exact && (!chroma || estimateIjgQuality(chroma, true).exact);
    facts.lumaSum = tableSum(luma);
    if (chroma) facts.chromaSum = tableSum(chroma);
    if (!facts.ijgTables && chroma) {
      const editor = matchEditorTables(tableSum(luma), tableSum(chroma));
      if (editor) {
        evidence.push({
          flag: "editing_software",
          detector: JPEG_TABLES_DETECTOR,
          strength: 0.5,
          message: `Quantization tables are those of ${editor.software} (${editor.setting})`,
          measured: `luma sum ${tableSum(luma)}, chroma sum ${tableSum(chroma)}`,
          threshold: "exact match of a known editor's tables",
        });
      }
    }
  }
  for (const comment of s.comments) {
    const match = classifyImageSoftware(comment);
    if (match.kind === "editor" && match.product) {
      evidence.push({
        flag: "editing_software",
        detector: JPEG_TABLES_DETECTOR,
        strength: match.strength,
        message: `JPEG comment names an image editor (${match.product})`,
        measured: cleanSoftwareName(comment),
      });
    }
  }
  return { detector: JPEG_TABLES_DETECTOR, evidence, facts, coverage: luma ? 1 : 0.2 };
};
