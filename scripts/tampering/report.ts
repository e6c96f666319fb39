// The public-tampering set's scores, told per source and per public kind:
//
//   bun scripts/tampering/report.ts --scores DIR/scores.jsonl
//
// scripts/evaluate.ts reports by family and kind already; this adds what only the manifest
// knows: which genuine image each forgery was made from (so a forgery is also judged
// against its own original), and every forgery caught or genuine document accused at the
// verdict line (score ≥ 0.5) with the flags that did it. Markdown on stdout.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { median } from "../../src/numeric.ts";
import { OPERATING_THRESHOLD } from "../eval/evaluation.ts";
import { flaggedRate, groupBy, rocAuc } from "../eval/metrics.ts";
import type { ScoreRow } from "../eval/score-row.ts";
import { readTamperingSources, type TamperingSource } from "./sources.ts";

const USAGE = "usage: bun scripts/tampering/report.ts --scores DIR/scores.jsonl";

const fixed = (n: number | null, digits = 3) => (n === null ? "–" : n.toFixed(digits));
const medianOrNull = (values: number[]) => (values.length === 0 ? null : median(values));
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join(
    "\n",
  );

/**
 * A group's row: counts, AUC against every genuine document of the set, median score, caught at
 * 0.5.
 */
function groupRow(name: string, group: ScoreRow[], genuineAll: ScoreRow[]): string[] {
  const forged = group.filter((r) => r.label === "forged");
  const genuine = group.filter((r) => r.label === "genuine");
  // A group of one class is ranked against the set's other class, as evaluate.ts does.
  const pool =
    forged.length === 0 || genuine.length === 0 ? [...forged, ...(genuine.length ? genuine : genuineAll)] : group;
  const auc =
    forged.length === 0 ? null : rocAuc(pool.map((r) => ({ score: r.score, positive: r.label === "forged" })));
  const caught = flaggedRate(
    forged.map((r) => r.score),
    OPERATING_THRESHOLD,
  );
  const accused = flaggedRate(
    genuine.map((r) => r.score),
    OPERATING_THRESHOLD,
  );
  return [
    name,
    String(genuine.length),
    String(forged.length),
    fixed(auc),
    fixed(medianOrNull(genuine.map((r) => r.score))),
    fixed(medianOrNull(forged.map((r) => r.score))),
    forged.length ? `${caught.flagged}/${caught.total}` : "–",
    genuine.length ? `${accused.flagged}/${accused.total}` : "–",
  ];
}

function report(rows: ScoreRow[], sources: TamperingSource[]): string {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const sourceOf = new Map(sources.map((s) => [s.id, s]));
  const genuineAll = rows.filter((r) => r.label === "genuine");
  const head = [
    "group",
    "genuine",
    "forged",
    "AUC",
    "median genuine",
    "median forged",
    "forged ≥ 0.5",
    "genuine ≥ 0.5",
  ];
  const auc = rocAuc(rows.map((r) => ({ score: r.score, positive: r.label === "forged" })));
  const withoutRecaptures = rows.filter((r) => sourceOf.get(r.id)?.kind !== "public_recapture");
  const aucEdits = rocAuc(withoutRecaptures.map((r) => ({ score: r.score, positive: r.label === "forged" })));
  const flagsOf = (r: ScoreRow) => (r.flags.length ? r.flags.join(", ") : "none");
  const out: string[] = [
    `${rows.length} documents scored of ${sources.length} in the manifest; ROC AUC ${fixed(auc)} overall, ${fixed(aucEdits)} without the recaptures.`,
    "",
    "### By source (family)",
    "",
    table(
      head,
      [...groupBy(rows, (r) => r.family)]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, group]) => groupRow(name, group, genuineAll)),
    ),
    "",
    "### By kind",
    "",
    table(
      head,
      [...groupBy(rows, (r) => sourceOf.get(r.id)?.kind ?? r.kind)]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, group]) => groupRow(name, group, genuineAll)),
    ),
    "",
    "### Forgeries beside the genuine image they were made from",
    "",
  ];
  const pairs = sources.filter((s) => s.base && byId.has(s.id) && byId.has(s.base));
  out.push(
    pairs.length
      ? table(
          ["forgery", "kind", "score", "base", "base score", "flags"],
          pairs.map((s) => {
            const row = byId.get(s.id)!;
            return [
              `${s.id} (${s.path.split("/").pop()})`,
              s.kind,
              fixed(row.score),
              s.base!,
              fixed(byId.get(s.base!)!.score),
              flagsOf(row),
            ];
          }),
        )
      : "none",
    "",
    "### Forgeries caught at the verdict line (score ≥ 0.5)",
    "",
  );
  const caught = rows.filter((r) => r.label === "forged" && r.score >= OPERATING_THRESHOLD.value);
  out.push(
    caught.length
      ? table(
          ["id", "kind", "score", "flags"],
          caught.map((r) => [r.id, sourceOf.get(r.id)?.kind ?? r.kind, fixed(r.score), flagsOf(r)]),
        )
      : "none",
    "",
  );
  out.push("### Genuine documents accused (score ≥ 0.5)", "");
  const accused = genuineAll.filter((r) => r.score >= OPERATING_THRESHOLD.value);
  out.push(
    accused.length
      ? table(
          ["id", "family", "score", "flags"],
          accused.map((r) => [r.id, r.family, fixed(r.score), flagsOf(r)]),
        )
      : "none",
    "",
  );
  out.push("### Flags raised on forgeries (any score)", "");
  const flagCounts = new Map<string, number>();
  for (const r of rows.filter((r) => r.label === "forged"))
    for (const f of new Set(r.flags)) flagCounts.set(f, (flagCounts.get(f) ?? 0) + 1);
  out.push(
    flagCounts.size
      ? table(
          ["flag", "forgeries"],
          [...flagCounts].sort((a, b) => b[1] - a[1]).map(([f, n]) => [f, String(n)]),
        )
      : "none",
    "",
  );
  return out.join("\n");
}

if (import.meta.main) {
  let scores: string;
  try {
    const { values } = parseArgs({ args: Bun.argv.slice(2), options: { scores: { type: "string" } } });
    if (!values.scores) throw new Error("--scores is required");
    scores = values.scores;
  } catch (error) {
    process.stderr.write(`report: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  const rows = readFileSync(scores, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as ScoreRow);
  process.stdout.write(`${report(rows, readTamperingSources(join(import.meta.dir, "sources.json")))}\n`);
}
