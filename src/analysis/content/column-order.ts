// Which column of a table a figure stands in. Headings name the columns, but a heading may
// be left-aligned or centred over right-aligned figures (office suites and HTML tables set
// them so), and then the nearest heading is often the next column's. The figures themselves
// say where the columns are: those of one column share their right edge. When the figures
// under a header fall into as many right-aligned groups as the header names columns, the
// groups take the headings' names in their left-to-right order; otherwise each figure takes
// the name of the heading nearest to it. A figure inside a line of text ("CB UBER 08.01", a
// date read as 8.01) sets no column, and one far from every column's edge is in none.
import type { Amount } from "./read-amount.ts";

/**
 * Right edges further apart than this, in characters, are two columns: right-aligned
 * columns stand at least a short figure's width (4,55) apart, while one column's edge
 * drifts by less between its figures, even slanted on a photo.
 */
const COLUMN_GAP = 3;
/** A figure further than this from its column's edge, in characters, is in no column. */
const OFF_EDGE = 2;

export type Placer<C extends string> = (amount: Amount) => C | null;

function nearest<C extends string>(headings: Partial<Record<C, number>>, amount: Amount): C | null {
  let best: C | null = null;
  let distance = Infinity;
  for (const [name, x] of Object.entries(headings) as [C, number][]) {
    const d = Math.min(Math.abs(x - amount.x), Math.abs(x - amount.right));
    if (d < distance) {
      best = name;
      distance = d;
    }
  }
  return best;
}

/** A figure that fills its own cell of the table, not one inside a line of text. */
const standsAlone = (figure: Amount) => figure.text === figure.line.text.trim();

/**
 * Groups of figures sharing a right edge, left to right, each as the span of its edges: a
 * photographed page slants a column, so its edge drifts a little from row to row.
 */
function rightEdges(figures: readonly Amount[]): { from: number; to: number }[] {
  const sorted = [...figures].sort((a, b) => a.right - b.right);
  const edges: { from: number; to: number }[] = [];
  let previous: Amount | undefined;
  for (const figure of sorted) {
    if (!previous || figure.right - previous.right > COLUMN_GAP * Math.max(figure.charWidth, previous.charWidth))
      edges.push({ from: figure.right, to: figure.right });
    else edges[edges.length - 1]!.to = figure.right;
    previous = figure;
  }
  return edges;
}

/**
 * How to place a figure under `headings` (each heading's x), knowing the `figures` that
 * stand under them.
 */
export function placeUnder<C extends string>(
  headings: Partial<Record<C, number>>,
  figures: readonly Amount[],
): Placer<C> {
  const names = (Object.entries(headings) as [C, number][]).sort((a, b) => a[1] - b[1]).map(([name]) => name);
  const edges = rightEdges(figures.filter(standsAlone));
  if (edges.length !== names.length) return (amount) => nearest(headings, amount);
  const off = (edge: { from: number; to: number }, amount: Amount) =>
    Math.max(0, edge.from - amount.right, amount.right - edge.to);
  return (amount) => {
    let best = 0;
    for (let i = 1; i < edges.length; i++) if (off(edges[i]!, amount) < off(edges[best]!, amount)) best = i;
    return off(edges[best]!, amount) <= OFF_EDGE * amount.charWidth ? names[best]! : null;
  };
}
