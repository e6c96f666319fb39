// Every detector of the analysis in one list: its name, the flags it can raise, where it
// runs, what it applies to and the thresholds it judges by, with what measured them. The
// analyser takes document-type scopes from here, the fusion its blind-spot features, the
// OpenAPI document the detectors behind each flag, `docverify analyze` where each detector
// ran, and the README's detector table is rendered from it (scripts/detector-table.ts).
// A detector module names itself with a `DetectorName`, so a name that is not listed here
// does not compile. Kept free of the detectors' code: anything may import it.
import calibration from "../../sidecar/localiser/calibration.json";
import { GREY_DOCUMENT_THRESHOLDS, PORTRAIT_THRESHOLDS, RECAPTURE_THRESHOLDS } from "../../sidecar/cues/thresholds.ts";
import { MIN_CORRELATION } from "../../sidecar/forensics/copy-move.ts";
import { DQ_LINE_Z_THRESHOLD } from "../../sidecar/forensics/double-quant.ts";
import { ELA_LINE_Z_THRESHOLD } from "../../sidecar/forensics/line-traces.ts";
import { DQ_AREA_MIN_TILES } from "../../sidecar/forensics/single-compressed-areas.ts";
import { IDENTITY_TYPES, type DocumentType, type Flag } from "./flags.ts";
import { COVER_THRESHOLD, doubleCompressionThreshold, MIN_MEAN_CONFIDENCE } from "./thresholds.ts";

/**
 * Where a detector's work is done:
 * - api-worker: structure and metadata, in the API's worker threads (analysis/worker/);
 * - api: content checks over the text, in the API process once the sidecar answered;
 * - sidecar: pixel traces measured by the inference sidecar (gRPC), judged in the API.
 */
export type DetectorPlace = "api-worker" | "api" | "sidecar";

/** How the report, the OpenAPI document and the README name a place. */
export const PLACE_LABEL: Readonly<Record<DetectorPlace, string>> = {
  "api-worker": "API worker",
  api: "API",
  sidecar: "sidecar",
};

type DocumentFormat = "jpeg" | "png" | "pdf";

export interface Threshold {
  name: string;
  value: number | string;
  /** What it is measured in and which way it fires. */
  meaning: string;
  /**
   * The command that measured it; null where it was set from measurements no command reproduces
   * yet.
   */
  measuredBy: string | null;
}

export interface DetectorEntry {
  name: string;
  flags: readonly Flag[];
  runs: DetectorPlace;
  formats: readonly DocumentFormat[];
  /**
   * Document types it judges: "any", a list, or "where found" for a content check that
   * judges what it happens to read (dates) on any type. A content check outside its list,
   * or one "where found" that found nothing, is not applicable there: its zero coverage is
   * no blind spot (full-analyzer.ts).
   */
  documentTypes: readonly DocumentType[] | "any" | "where found";
  /** On PDFs, only pages a scan or photo covers: a drawn page's rendering is the renderer's. */
  picturedPagesOnly?: true;
  /**
   * Whether the fusion weighs what it could not examine (1 − coverage) as a feature. The
   * features follow this list's order, which model.json's `features` must match.
   */
  blindSpotFeature: boolean;
  /** False for a detector built but not run by the analysis. */
  switchedOn: boolean;
  thresholds: readonly Threshold[];
  /** One line for the README table. */
  summary: string;
}

const IMAGES: readonly DocumentFormat[] = ["jpeg", "png"];
const ALL_FORMATS: readonly DocumentFormat[] = ["jpeg", "png", "pdf"];
const PIXEL_CUES =
  "bun scripts/eval/measure-pixel-cues.ts --corpus DIR --out OUT (seed-7 corpus, genuine documents only)";

export const DETECTORS = [
  {
    name: "jpeg-quantization",
    flags: ["editing_software"],
    runs: "api-worker",
    formats: ["jpeg"],
    documentTypes: "any",
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [],
    summary: "quantization tables matched against editors' own tables",
  },
  {
    name: "double-jpeg-compression",
    flags: ["double_jpeg_compression"],
    runs: "api-worker",
    formats: ["jpeg"],
    documentTypes: "any",
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [
      {
        name: "score",
        value: `${doubleCompressionThreshold(0)} below final quality 70, else ${doubleCompressionThreshold(100)}`,
        meaning: "mean misfit reduction of a second compression; fires above",
        measuredBy: null,
      },
    ],
    summary: "DCT histograms a second compression at another quality leaves",
  },
  {
    name: "image-metadata",
    flags: ["editing_software", "metadata_inconsistent"],
    runs: "api-worker",
    formats: IMAGES,
    documentTypes: "any",
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [],
    summary: "EXIF, XMP and IPTC: editors, contradictory dates",
  },
  {
    name: "image-quality",
    flags: ["low_quality"],
    runs: "api-worker",
    formats: IMAGES,
    documentTypes: "any",
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [],
    summary: "a tiny or heavily compressed image",
  },
  {
    name: "pdf-revisions",
    flags: ["pdf_incremental_update"],
    runs: "api-worker",
    formats: ["pdf"],
    documentTypes: "any",
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [],
    summary: "later revisions that changed page content, annotations or actions",
  },
  {
    name: "pdf-metadata",
    flags: ["editing_software", "metadata_inconsistent"],
    runs: "api-worker",
    formats: ["pdf"],
    documentTypes: "any",
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [],
    summary: "producers, creators, dates and XMP history",
  },
  {
    name: "pdf-active-content",
    flags: ["pdf_active_content"],
    runs: "api-worker",
    formats: ["pdf"],
    documentTypes: "any",
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [],
    summary: "JavaScript, launch actions, XFA, embedded files",
  },
  {
    name: "pdf-pages",
    flags: [],
    runs: "api-worker",
    formats: ["pdf"],
    documentTypes: "any",
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [],
    summary: "reads the pages' text and drawing for the detectors below",
  },
  {
    name: "pdf-annotation-overlay",
    flags: ["pdf_annotation_overlay"],
    runs: "api-worker",
    formats: ["pdf"],
    documentTypes: "any",
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [
      {
        name: "cover",
        value: COVER_THRESHOLD,
        meaning: "share of a text line an annotation covers; fires at or above",
        measuredBy: null,
      },
    ],
    summary: "annotations covering page text",
  },
  {
    name: "pdf-text-overlay",
    flags: ["pdf_text_overlay"],
    runs: "api-worker",
    formats: ["pdf"],
    documentTypes: "any",
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [],
    summary: "text drawn over text or over a white box",
  },
  {
    name: "pdf-fonts",
    flags: ["pdf_font_inconsistency", "pdf_font_substitution"],
    runs: "api-worker",
    formats: ["pdf"],
    documentTypes: "any",
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [],
    summary: "a line or figure in a font unlike its neighbours; a value in a font the file does not carry",
  },
  {
    name: "pdf-text-operators",
    flags: ["text_inconsistency"],
    runs: "api-worker",
    formats: ["pdf"],
    documentTypes: "any",
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [],
    summary: "strings written in another style than the rest of the page",
  },
  {
    name: "mrz",
    flags: ["mrz_checksum_invalid", "mrz_mismatch", "document_expired"],
    runs: "api",
    formats: ALL_FORMATS,
    documentTypes: ["passport"],
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [],
    summary: "machine-readable zones: check digits, visual fields, expiry",
  },
  {
    name: "balances",
    flags: ["balance_mismatch"],
    runs: "api",
    formats: ALL_FORMATS,
    documentTypes: ["financial"],
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [],
    summary: "running balances, column totals, payslip and bill totals",
  },
  {
    name: "dates",
    flags: ["text_inconsistency"],
    runs: "api",
    formats: ALL_FORMATS,
    documentTypes: "where found",
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [],
    summary: "impossible or contradictory dates",
  },
  {
    name: "column-alignment",
    flags: ["text_inconsistency"],
    runs: "api",
    formats: ALL_FORMATS,
    documentTypes: "where found",
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [],
    summary: "an amount whose right edge leaves its column",
  },
  {
    name: "fingerprint",
    flags: ["duplicate_submission"],
    runs: "api",
    formats: ALL_FORMATS,
    documentTypes: "any",
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [],
    summary: "the same document, template or portrait sent before by the same key",
  },
  {
    name: "pixel-residuals",
    flags: ["region_tampering"],
    runs: "sidecar",
    formats: ALL_FORMATS,
    documentTypes: "any",
    picturedPagesOnly: true,
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [
      {
        name: "elaLineZ",
        value: ELA_LINE_Z_THRESHOLD,
        meaning: "robust z of an OCR line's error level (also the noise residual's); fires at or above",
        measuredBy: null,
      },
      {
        name: "doubleQuantLineZ",
        value: DQ_LINE_Z_THRESHOLD,
        meaning: "robust z of a line compressed once on a page compressed twice; fires at or above",
        measuredBy: null,
      },
      {
        name: "singleCompressedAreaTiles",
        value: DQ_AREA_MIN_TILES,
        meaning: "connected 32 px tiles compressed once on a page compressed twice; fires at or above",
        measuredBy: null,
      },
    ],
    summary: "OCR lines standing out in error level, noise or double quantization; areas compressed once",
  },
  {
    name: "copy-move",
    flags: ["copy_move"],
    runs: "sidecar",
    formats: ALL_FORMATS,
    documentTypes: "any",
    picturedPagesOnly: true,
    blindSpotFeature: true,
    switchedOn: true,
    thresholds: [
      {
        name: "minCorrelation",
        value: MIN_CORRELATION,
        meaning: "normalised cross-correlation of a clone and its source; fires at or above",
        measuredBy: null,
      },
    ],
    summary: "an area cloned elsewhere on the page",
  },
  {
    name: "portrait-consistency",
    flags: ["region_tampering"],
    runs: "sidecar",
    formats: ALL_FORMATS,
    documentTypes: IDENTITY_TYPES,
    picturedPagesOnly: true,
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [
      {
        name: "sharpSeam",
        value: PORTRAIT_THRESHOLDS.sharpSeam,
        meaning: "log2 ratio of the portrait's sharpness and seam to the card's; fires above",
        measuredBy: PIXEL_CUES,
      },
    ],
    summary: "a portrait sharper than its card with a seam at its edge",
  },
  {
    name: "recapture",
    flags: ["recaptured"],
    runs: "sidecar",
    formats: ALL_FORMATS,
    documentTypes: "any",
    picturedPagesOnly: true,
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [
      {
        name: "lumaPeak",
        value: RECAPTURE_THRESHOLDS.lumaPeak,
        meaning: "log10 spectral peak in brightness; fires above",
        measuredBy: PIXEL_CUES,
      },
      {
        name: "chromaPeak",
        value: RECAPTURE_THRESHOLDS.chromaPeak,
        meaning: "log10 spectral peak in colour; fires above",
        measuredBy: PIXEL_CUES,
      },
      {
        name: "agreement",
        value: RECAPTURE_THRESHOLDS.agreement,
        meaning: "patches of 9 peaking at one frequency; needed at least",
        measuredBy: PIXEL_CUES,
      },
      {
        name: "documentSpread",
        value: GREY_DOCUMENT_THRESHOLDS.documentSpread,
        meaning: "colour spread where an identity document's text is (BT.601 chroma); fires at or below",
        measuredBy: PIXEL_CUES,
      },
      {
        name: "sceneSpread",
        value: GREY_DOCUMENT_THRESHOLDS.sceneSpread,
        meaning: "colour of the scene around that document, from the document's; needed at least",
        measuredBy: PIXEL_CUES,
      },
    ],
    summary:
      "a photograph of a screen or a print: one periodic peak across the page; or an identity document without colour in a coloured scene (a black-and-white copy)",
  },
  {
    name: "reading-quality",
    flags: ["low_quality"],
    runs: "sidecar",
    formats: ALL_FORMATS,
    documentTypes: "any",
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [
      {
        name: "meanConfidence",
        value: MIN_MEAN_CONFIDENCE,
        meaning: "mean OCR line confidence; fires below",
        measuredBy: null,
      },
    ],
    summary: "OCR confidence too low for what was read to be sure",
  },
  {
    name: "screenshot",
    flags: ["screenshot"],
    runs: "api",
    formats: ["png"],
    documentTypes: "any",
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [],
    summary: "a lossless image without camera data at an exact screen resolution",
  },
  {
    name: "localiser",
    flags: ["region_tampering"],
    runs: "sidecar",
    formats: ALL_FORMATS,
    documentTypes: "any",
    picturedPagesOnly: true,
    blindSpotFeature: false,
    // The committed model does not yet separate forged pages from genuine ones
    // (docs/evaluation/localiser/), and the sidecar does not run it.
    switchedOn: false,
    thresholds: [
      {
        name: "cellProbability",
        value: Math.round(calibration.threshold * 1000) / 1000,
        meaning: "a cell's probability of tampering; fires at or above",
        measuredBy: calibration.by,
      },
    ],
    summary: "a learnt model's map of tampered areas",
  },
  {
    name: "document-type",
    flags: [],
    runs: "api",
    formats: ALL_FORMATS,
    documentTypes: "any",
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [],
    summary: "reads the document type from its text, else its shape",
  },
  {
    name: "page-analysis",
    flags: [],
    runs: "sidecar",
    formats: ALL_FORMATS,
    documentTypes: "any",
    blindSpotFeature: false,
    switchedOn: true,
    thresholds: [],
    summary: "what the sidecar analysed: pages, text source, execution providers",
  },
] as const satisfies readonly DetectorEntry[];

export type DetectorName = (typeof DETECTORS)[number]["name"];

const BY_NAME: ReadonlyMap<DetectorName, DetectorEntry> = new Map(DETECTORS.map((d) => [d.name, d]));

export const detectorEntry = (name: DetectorName): DetectorEntry => BY_NAME.get(name)!;

/** The switched-on detectors that can raise a flag, in manifest order. */
export const detectorsOfFlag = (flag: Flag): DetectorName[] =>
  DETECTORS.filter((d) => d.switchedOn && (d.flags as readonly Flag[]).includes(flag)).map((d) => d.name);

/** Whether a detector judges documents of this type. */
export const judgesType = (name: DetectorName, type: DocumentType): boolean => {
  const types = detectorEntry(name).documentTypes;
  return types === "any" || (Array.isArray(types) && types.includes(type));
};
