// Plain-text tables for the terminal: columns padded to their widest cell.

export type Align = "left" | "right";

export function table(headers: string[], rows: string[][], align: Align[] = []): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        (align[i] ?? (i === 0 ? "left" : "right")) === "left" ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!),
      )
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
