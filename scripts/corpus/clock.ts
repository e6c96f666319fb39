// The corpus never reads the wall clock: "today" is derived from the seed, so the same seed
// gives the same dates (and the same bytes) whenever it runs.
const BASE = Date.UTC(2025, 0, 6);
const DAY = 86_400_000;

export function corpusToday(seed: number): Date {
  return new Date(BASE + (Math.abs(seed) % 365) * DAY);
}

export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * DAY);
}

export function addYears(d: Date, years: number): Date {
  const out = new Date(d.getTime());
  out.setUTCFullYear(out.getUTCFullYear() + years);
  return out;
}

/** dd.mm.yyyy, or with another separator. */
export function formatDate(d: Date, sep = "."): string {
  const dd = String(d.getUTCDate()).padStart(2, "0");
  const mm = String(d.getUTCMonth() + 1).padStart(2, "0");
  return `${dd}${sep}${mm}${sep}${d.getUTCFullYear()}`;
}

/** The PDF date string form D:YYYYMMDDHHmmSS+00'00'. */
export function pdfDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `D:${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}+00'00'`;
}
