// EXIF / XMP / IPTC of an image (read with exifr): which software last wrote it, and
// whether its dates contradict each other. Missing or partly stripped metadata is no
// contradiction: crops, rotations and messaging apps drop tags from genuine photos.
import exifr from "exifr";
import { clamp01 } from "../../numeric.ts";
import { dateDifference, isoOf, parseMetaDate, type MetaDate } from "../dates.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import { classifyImageSoftware, cleanSoftwareName } from "../software.ts";
import type { DetectorName } from "../manifest.ts";

export const IMAGE_METADATA_DETECTOR = "image-metadata" satisfies DetectorName;

type Segments = Record<string, Record<string, unknown> | undefined>;

const EXIFR_OPTIONS = {
  tiff: true,
  exif: true,
  gps: true,
  xmp: true,
  iptc: true,
  icc: false,
  ifd1: false,
  interop: false,
  makerNote: false,
  userComment: false,
  mergeOutput: false,
  reviveValues: false,
  translateValues: false,
};

/** Same-moment stamps written by one camera agree to the second; allow a minute. */
const SAME_MOMENT_MS = 60_000;
const DAY_MS = 86_400_000;

/** Strings under keys like softwareAgent / CreatorTool anywhere in the XMP, bounded. */
const collectByKey = (node: unknown, keys: Set<string>, out: string[], depth = 0): void => {
  if (depth > 6 || out.length > 50 || node === null || typeof node !== "object") return;
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (keys.has(k) && typeof v === "string") out.push(v);
    else collectByKey(v, keys, out, depth + 1);
  }
};

interface SoftwareSource {
  where: string;
  value: string;
}

const softwareSources = (seg: Segments): SoftwareSource[] => {
  const found: SoftwareSource[] = [];
  const software = seg.ifd0?.Software;
  if (typeof software === "string") found.push({ where: "EXIF Software", value: software });
  const tools: string[] = [];
  collectByKey(seg.xmp, new Set(["CreatorTool"]), tools);
  for (const t of tools) found.push({ where: "XMP CreatorTool", value: t });
  const agents: string[] = [];
  collectByKey(seg.xmpMM, new Set(["softwareAgent"]), agents);
  for (const a of agents) found.push({ where: "XMP history", value: a });
  const program = seg.iptc?.OriginatingProgram;
  if (typeof program === "string") found.push({ where: "IPTC OriginatingProgram", value: program });
  return found;
};

const editingEvidence = (sources: SoftwareSource[]): Evidence[] => {
  const byProduct = new Map<string, Evidence>();
  for (const s of sources) {
    const match = classifyImageSoftware(s.value);
    if (match.kind !== "editor" || !match.product) continue;
    const prior = byProduct.get(match.product);
    if (prior) continue;
    byProduct.set(match.product, {
      flag: "editing_software",
      detector: IMAGE_METADATA_DETECTOR,
      strength: match.strength,
      message: `${s.where} names an image editor (${match.product})`,
      measured: cleanSoftwareName(s.value),
    });
  }
  return [...byProduct.values()];
};

interface NamedDate {
  name: string;
  date: MetaDate;
}

const dateOf = (name: string, value: unknown): NamedDate | undefined => {
  const date = parseMetaDate(value);
  return date ? { name, date } : undefined;
};

const dateEvidence = (seg: Segments, now: number): { evidence: Evidence[]; facts: Record<string, string> } => {
  const original = dateOf("EXIF DateTimeOriginal", seg.exif?.DateTimeOriginal);
  const digitized = dateOf("EXIF CreateDate", seg.exif?.CreateDate);
  const modified = dateOf("EXIF ModifyDate", seg.ifd0?.ModifyDate);
  const xmpCreate = dateOf("XMP CreateDate", seg.xmp?.CreateDate);
  const xmpModify = dateOf("XMP ModifyDate", seg.xmp?.ModifyDate);
  const all = [original, digitized, modified, xmpCreate, xmpModify].filter((d): d is NamedDate => !!d);
  const facts: Record<string, string> = {};
  for (const d of all) facts[d.name] = isoOf(d.date);

  const evidence: Evidence[] = [];
  const contradiction = (a: NamedDate, b: NamedDate, strength: number, what: string, gapMs: number, slackMs: number) =>
    evidence.push({
      flag: "metadata_inconsistent",
      detector: IMAGE_METADATA_DETECTOR,
      strength,
      message: `${what}: ${a.name} ${isoOf(a.date)} vs ${b.name} ${isoOf(b.date)}`,
      measured: `${Math.round(gapMs / 60_000)} min`,
      threshold: `${Math.round((SAME_MOMENT_MS + slackMs) / 60_000)} min`,
    });

  // A file cannot be modified before the picture was taken.
  for (const later of [modified, xmpModify]) {
    if (!original || !later) continue;
    const { ms, slackMs } = dateDifference(original.date, later.date);
    if (-ms > SAME_MOMENT_MS + slackMs)
      contradiction(original, later, 0.4, "Modified before it was taken", -ms, slackMs);
  }
  // A picture cannot be digitized before it was taken; after is a scan of a print or a
  // film, or a phone that stamps the save.
  for (const digital of [digitized, xmpCreate]) {
    if (!original || !digital) continue;
    const { ms, slackMs } = dateDifference(original.date, digital.date);
    if (-ms > SAME_MOMENT_MS + slackMs)
      contradiction(original, digital, 0.3, "Digitized before it was taken", -ms, slackMs);
  }
  for (const d of all) {
    if ((d.date.utc ?? d.date.wall) > now + DAY_MS) {
      evidence.push({
        flag: "metadata_inconsistent",
        detector: IMAGE_METADATA_DETECTOR,
        strength: 0.3,
        message: `${d.name} lies in the future (${isoOf(d.date)})`,
        measured: isoOf(d.date),
        threshold: "now + 1 day",
      });
    }
  }
  return { evidence, facts };
};

export const detectImageMetadata = async (bytes: Uint8Array, now: number): Promise<DetectorResult> => {
  const seg = ((await exifr.parse(bytes, EXIFR_OPTIONS)) ?? {}) as Segments;
  const present = ["ifd0", "exif", "gps", "xmp", "xmpMM", "iptc"].filter((k) => seg[k] !== undefined);
  const sources = softwareSources(seg);
  const dates = dateEvidence(seg, now);
  const evidence = [...editingEvidence(sources), ...dates.evidence];
  const make = seg.ifd0?.Make;
  const model = seg.ifd0?.Model;
  return {
    detector: IMAGE_METADATA_DETECTOR,
    evidence: evidence.map((e) => ({ ...e, strength: clamp01(e.strength) })),
    facts: {
      segments: present,
      software: sources.map((s) => `${s.where}: ${cleanSoftwareName(s.value)}`),
      ...(typeof make === "string" ? { cameraMake: cleanSoftwareName(make) } : {}),
      ...(typeof model === "string" ? { cameraModel: cleanSoftwareName(model) } : {}),
      dates: dates.facts,
    },
    // Without any metadata (messaging apps strip it) this detector saw nothing: that
    // lowers confidence and says nothing about forgery.
    coverage: present.length > 0 ? 1 : 0.3,
    measurements: { namesCamera: typeof make === "string" || typeof model === "string" },
  };
};
