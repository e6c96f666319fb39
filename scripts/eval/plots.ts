// The ROC curve and the score histograms as PNG: drawn as SVG, rasterised by resvg with
// one committed font (no system fonts), so a run draws the same pixels on every machine.
import { Resvg } from "@resvg/resvg-js";
import { join } from "node:path";
import { FONTS_DIR } from "../corpus/assets.ts";
import type { RocPoint } from "./metrics.ts";
import { clamp01 } from "../../src/numeric.ts";

const FONT = {
  fontFiles: [join(FONTS_DIR, "OpenSans-VariableFont_wdth,wght.ttf")],
  loadSystemFonts: false,
  defaultFontFamily: "Open Sans",
};
const SIZE = { width: 720, height: 560 };
const MARGIN = { left: 70, right: 24, top: 48, bottom: 60 };
const COLORS = { genuine: "#2f6db5", forged: "#c8412d", grid: "#e3e3e3", axis: "#333", text: "#222", chance: "#999" };
const HISTOGRAM_BINS = 20;

export interface Plot {
  svg: string;
  png: Buffer;
  width: number;
  height: number;
}

export interface RocMark {
  label: string;
  fpr: number;
  tpr: number;
}

export interface ThresholdLine {
  label: string;
  score: number;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const fixed = (n: number) => n.toFixed(2);

/** Maps data coordinates ([0, 1] × [0, yMax]) into the plot area. */
function frame(yMax: number) {
  const w = SIZE.width - MARGIN.left - MARGIN.right;
  const h = SIZE.height - MARGIN.top - MARGIN.bottom;
  return {
    x: (v: number) => MARGIN.left + v * w,
    y: (v: number) => MARGIN.top + h - (v / yMax) * h,
    w,
    h,
  };
}

function text(
  x: number,
  y: number,
  content: string,
  options: {
    size?: number;
    anchor?: "start" | "middle" | "end";
    rotate?: boolean;
    color?: string;
    weight?: number;
  } = {},
) {
  const transform = options.rotate ? ` transform="rotate(-90 ${fixed(x)} ${fixed(y)})"` : "";
  return `<text x="${fixed(x)}" y="${fixed(y)}" font-family="Open Sans" font-size="${options.size ?? 13}" font-weight="${options.weight ?? 400}" fill="${options.color ?? COLORS.text}" text-anchor="${options.anchor ?? "middle"}"${transform}>${escapeXml(content)}</text>`;
}

function axes(
  title: string,
  xLabel: string,
  yLabel: string,
  yMax: number,
  yTicks: number[],
  yFormat: (v: number) => string,
): string[] {
  const f = frame(yMax);
  const parts: string[] = [`<rect width="${SIZE.width}" height="${SIZE.height}" fill="#fff"/>`];
  for (let i = 0; i <= 10; i += 2) {
    const v = i / 10;
    parts.push(
      `<line x1="${fixed(f.x(v))}" y1="${MARGIN.top}" x2="${fixed(f.x(v))}" y2="${fixed(MARGIN.top + f.h)}" stroke="${COLORS.grid}"/>`,
    );
    parts.push(text(f.x(v), MARGIN.top + f.h + 18, v.toFixed(1), { size: 12 }));
  }
  for (const v of yTicks) {
    parts.push(
      `<line x1="${MARGIN.left}" y1="${fixed(f.y(v))}" x2="${fixed(MARGIN.left + f.w)}" y2="${fixed(f.y(v))}" stroke="${COLORS.grid}"/>`,
    );
    parts.push(text(MARGIN.left - 8, f.y(v) + 4, yFormat(v), { size: 12, anchor: "end" }));
  }
  parts.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${fixed(f.w)}" height="${fixed(f.h)}" fill="none" stroke="${COLORS.axis}"/>`,
  );
  parts.push(text(SIZE.width / 2, 28, title, { size: 16, weight: 600 }));
  parts.push(text(MARGIN.left + f.w / 2, SIZE.height - 16, xLabel));
  parts.push(text(20, MARGIN.top + f.h / 2, yLabel, { rotate: true }));
  return parts;
}

function legend(entries: { label: string; color: string }[], x: number, y: number): string[] {
  return entries.flatMap((entry, i) => [
    `<rect x="${x}" y="${y + i * 20 - 10}" width="14" height="12" fill="${entry.color}" fill-opacity="0.8"/>`,
    text(x + 20, y + i * 20, entry.label, { size: 12, anchor: "start" }),
  ]);
}

function render(svgParts: string[]): Plot {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE.width}" height="${SIZE.height}" viewBox="0 0 ${SIZE.width} ${SIZE.height}">${svgParts.join("")}</svg>`;
  const image = new Resvg(svg, { font: FONT, fitTo: { mode: "original" } }).render();
  return { svg, png: image.asPng(), width: image.width, height: image.height };
}

/** The ROC curve with the chance diagonal and the operating points worth reading off. */
export function drawRoc(input: { points: RocPoint[]; auc: number | null; marks: RocMark[]; subtitle: string }): Plot {
  const f = frame(1);
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1];
  const title = `ROC, forged vs genuine: AUC ${input.auc === null ? "n/a" : input.auc.toFixed(3)} (${input.subtitle})`;
  const parts = axes(title, "false-positive rate (genuine flagged)", "detection rate (forged flagged)", 1, ticks, (v) =>
    v.toFixed(1),
  );
  parts.push(
    `<line x1="${fixed(f.x(0))}" y1="${fixed(f.y(0))}" x2="${fixed(f.x(1))}" y2="${fixed(f.y(1))}" stroke="${COLORS.chance}" stroke-dasharray="6 4"/>`,
  );
  const path = input.points.map((p) => `${fixed(f.x(p.fpr))},${fixed(f.y(p.tpr))}`).join(" ");
  parts.push(
    `<polyline points="${path}" fill="none" stroke="${COLORS.forged}" stroke-width="2.5" stroke-linejoin="round"/>`,
  );
  // Operating points are often crowded near FPR 0: mark them, and spell them out in a key.
  input.marks.forEach((mark, i) => {
    const keyY = MARGIN.top + f.h - 16 - (input.marks.length - 1 - i) * 20;
    parts.push(
      `<circle cx="${fixed(f.x(mark.fpr))}" cy="${fixed(f.y(mark.tpr))}" r="5" fill="#fff" stroke="${COLORS.genuine}" stroke-width="2"/>`,
    );
    parts.push(
      text(
        MARGIN.left + f.w - 12,
        keyY,
        `${mark.label}: detection ${mark.tpr.toFixed(2)} at FPR ${mark.fpr.toFixed(3)}`,
        { size: 12, anchor: "end", color: COLORS.genuine },
      ),
    );
  });
  return render(parts);
}

/** Counts of scores in 20 equal bins over [0, 1]; a score of exactly 1 falls in the last. */
export function histogram(scores: readonly number[], bins = HISTOGRAM_BINS): number[] {
  const counts = new Array<number>(bins).fill(0);
  for (const score of scores) counts[Math.min(bins - 1, Math.max(0, Math.floor(score * bins)))]!++;
  return counts;
}

function niceMax(count: number): { max: number; step: number } {
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => count / s <= 6) ?? Math.ceil(count / 6);
  return { max: Math.max(step, Math.ceil(count / step) * step), step };
}

/** Genuine and forged score histograms side by side in each bin, with threshold lines. */
export function drawScoreHistogram(input: {
  genuine: number[];
  forged: number[];
  lines: ThresholdLine[];
  subtitle: string;
}): Plot {
  const genuine = histogram(input.genuine);
  const forged = histogram(input.forged);
  // Headroom above the tallest bar keeps it clear of the threshold labels.
  const { max, step } = niceMax(Math.ceil(Math.max(1, ...genuine, ...forged) * 1.1));
  const ticks = Array.from({ length: max / step + 1 }, (_, i) => i * step);
  const f = frame(max);
  const parts = axes(`forgeryScore by label (${input.subtitle})`, "forgeryScore", "documents", max, ticks, (v) =>
    String(v),
  );
  const binWidth = f.w / HISTOGRAM_BINS;
  const bar = binWidth * 0.42;
  for (let i = 0; i < HISTOGRAM_BINS; i++) {
    const x0 = MARGIN.left + i * binWidth + binWidth * 0.08;
    for (const [offset, count, color] of [
      [0, genuine[i]!, COLORS.genuine],
      [bar, forged[i]!, COLORS.forged],
    ] as const) {
      if (count === 0) continue;
      parts.push(
        `<rect x="${fixed(x0 + offset)}" y="${fixed(f.y(count))}" width="${fixed(bar)}" height="${fixed(f.y(0) - f.y(count))}" fill="${color}" fill-opacity="0.8"/>`,
      );
    }
  }
  input.lines.forEach((line, i) => {
    if (!Number.isFinite(line.score)) return;
    const x = f.x(clamp01(line.score));
    parts.push(
      `<line x1="${fixed(x)}" y1="${MARGIN.top}" x2="${fixed(x)}" y2="${fixed(MARGIN.top + f.h)}" stroke="${COLORS.axis}" stroke-dasharray="4 3"/>`,
    );
    parts.push(text(x + 4, MARGIN.top + 14 + i * 15, line.label, { size: 11, anchor: "start" }));
  });
  parts.push(
    ...legend(
      [
        { label: `genuine (${input.genuine.length})`, color: COLORS.genuine },
        { label: `forged (${input.forged.length})`, color: COLORS.forged },
      ],
      MARGIN.left + f.w - 130,
      MARGIN.top + 22,
    ),
  );
  return render(parts);
}
