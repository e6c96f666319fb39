// The README's detector table, rendered from the detector manifest
// (src/analysis/manifest.ts) so that the two cannot disagree: a unit test compares them.
// Run: bun scripts/detector-table.ts [--write]   (prints the table, or rewrites README.md's)
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DETECTORS, PLACE_LABEL, type DetectorEntry, type Threshold } from "../src/analysis/manifest.ts";

const TABLE_START = "<!-- detector-table:start (bun scripts/detector-table.ts --write) -->";
const TABLE_END = "<!-- detector-table:end -->";

const code = (values: readonly string[]): string => (values.length ? values.map((v) => `\`${v}\``).join(", ") : "none");

const types = (d: DetectorEntry): string =>
  d.documentTypes === "any"
    ? "any"
    : d.documentTypes === "where found"
      ? "any, where it reads something"
      : code(d.documentTypes);

const threshold = (t: Threshold): string =>
  `${t.name} ${t.value} (${t.meaning}; ${t.measuredBy ? `measured by \`${t.measuredBy}\`` : "no command recorded"})`;

const row = (d: DetectorEntry): string =>
  `| \`${d.name}\`${d.switchedOn ? "" : " (not switched on)"} | ${code(d.flags)} | ${PLACE_LABEL[d.runs]} | ${d.formats.join(", ")}${d.picturedPagesOnly ? " (PDF: pictured pages)" : ""} | ${types(d)} | ${d.thresholds.map(threshold).join("; ") || "none"} | ${d.summary} |`;

export const detectorTable = (): string =>
  [
    TABLE_START,
    "| detector | flags | runs in | formats | document types | thresholds | judges |",
    "|---|---|---|---|---|---|---|",
    ...DETECTORS.map(row),
    TABLE_END,
  ].join("\n");

/** README.md with its detector table replaced by the manifest's. */
const withDetectorTable = (readme: string): string => {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error("README.md has no detector table markers");
  return readme.slice(0, start) + detectorTable() + readme.slice(end + TABLE_END.length);
};

if (import.meta.main) {
  if (process.argv.includes("--write")) {
    const path = join(import.meta.dir, "..", "README.md");
    await writeFile(path, withDetectorTable(await readFile(path, "utf8")));
  } else {
    console.log(detectorTable());
  }
}
