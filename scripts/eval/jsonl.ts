// One JSON value per line: how the measure scripts keep their rows between a run and its report.
import { readFile, writeFile } from "node:fs/promises";

export async function writeJsonl(file: string, rows: readonly unknown[]): Promise<void> {
  await writeFile(file, `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`);
}

export async function readJsonl<T>(file: string): Promise<T[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}
