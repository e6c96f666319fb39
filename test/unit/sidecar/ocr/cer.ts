// Character error rate: edit distance between what was read and what was printed, divided
// by the printed length. Each printed line is scored against the read line closest to it.
import { distance as editDistance } from "fastest-levenshtein";

interface LineScore {
  expected: string;
  read: string;
  cer: number;
}

/** Spaces can be ignored: the PP-OCRv4 (Chinese+Latin) model often drops them between words. */
export function scoreLines(expected: string[], read: string[], { ignoreSpaces }: { ignoreSpaces: boolean }) {
  const norm = (s: string) => (ignoreSpaces ? s.replace(/\s+/g, "") : s.trim());
  const lines: LineScore[] = expected.map((line) => {
    const target = norm(line);
    let best = { read: "", distance: target.length };
    for (const candidate of read) {
      const distance = editDistance(norm(candidate), target);
      if (distance < best.distance) best = { read: candidate, distance };
    }
    return { expected: line, read: best.read, cer: best.distance / target.length };
  });
  const errors = lines.reduce((sum, l) => sum + l.cer * norm(l.expected).length, 0);
  const length = expected.reduce((sum, l) => sum + norm(l).length, 0);
  return { lines, overall: errors / length };
}
