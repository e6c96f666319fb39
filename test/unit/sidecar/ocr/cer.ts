// Character error rate: edit distance between what was read and what was printed, divided
// by the printed length. Each printed line is scored against the read line closest to it.

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

export interface LineScore {
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
