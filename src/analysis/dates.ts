// Dates as metadata writes them: EXIF "YYYY:MM:DD HH:MM:SS", XMP ISO 8601 and PDF
// "D:YYYYMMDDHHmmSSOHH'mm'". EXIF carries no zone, so comparisons allow for one when
// either side lacks it.

export interface MetaDate {
  /** Milliseconds of the wall-clock time read as if it were UTC. */
  wall: number;
  /** Milliseconds UTC when the zone is known. */
  utc?: number;
}

const build = (
  parts: Array<string | undefined>,
  zone: { sign?: string; hh?: string; mm?: string; z?: boolean },
): MetaDate | undefined => {
  const [y, mo = "01", d = "01", h = "00", mi = "00", s = "00"] = parts;
  if (!y) return undefined;
  const wall = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  if (!Number.isFinite(wall) || +y < 1900 || +y > 2200 || +mo < 1 || +mo > 12 || +d < 1 || +d > 31) return undefined;
  if (zone.z) return { wall, utc: wall };
  if (zone.sign && zone.hh) {
    const offset = (+zone.hh * 60 + +(zone.mm ?? "0")) * 60_000 * (zone.sign === "-" ? -1 : 1);
    return { wall, utc: wall - offset };
  }
  return { wall };
};

export const parseMetaDate = (value: unknown): MetaDate | undefined => {
  if (value instanceof Date) {
    const t = value.getTime();
    return Number.isFinite(t) ? { wall: t } : undefined;
  }
  if (typeof value !== "string") return undefined;
  const v = value.trim().slice(0, 40);
  const pdf = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:(Z)|([+-])(\d{2})'?(\d{2})?'?)?/.exec(v);
  if (pdf) {
    return build(pdf.slice(1, 7), { z: pdf[7] === "Z", sign: pdf[8], hh: pdf[9], mm: pdf[10] });
  }
  const iso =
    /^(\d{4})[-:](\d{2})[-:](\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?\s*(?:(Z)|([+-])(\d{2}):?(\d{2}))?/.exec(
      v,
    );
  if (iso) {
    return build(iso.slice(1, 7), { z: iso[7] === "Z", sign: iso[8], hh: iso[9], mm: iso[10] });
  }
  return undefined;
};

/** Largest gap two readings of "the same moment" can have when a zone is missing. */
const ZONE_SLACK_MS = 14 * 3_600_000;

/**
 * Signed difference b − a in milliseconds, and how much of it the unknown zones could
 * explain: none when both zones are known. Two zone-less times need not share a zone: a
 * camera stamps local time, and the app that crops or exports may stamp UTC.
 */
export const dateDifference = (a: MetaDate, b: MetaDate): { ms: number; slackMs: number } => {
  if (a.utc !== undefined && b.utc !== undefined) return { ms: b.utc - a.utc, slackMs: 0 };
  return { ms: b.wall - a.wall, slackMs: ZONE_SLACK_MS };
};

export const isoOf = (d: MetaDate): string =>
  new Date(d.utc ?? d.wall).toISOString().replace(".000Z", d.utc !== undefined ? "Z" : "");
