// CTC greedy decoding for PP-OCR recognition output, as PaddleOCR's CTCLabelDecode does it:
// class 0 is the CTC blank, then the dictionary's characters in file order, then a space
// (use_space_char=True). The best class per time step is taken, repeats merged and blanks
// dropped; a line's confidence is the mean probability of the characters it kept.

export interface Decoded {
  text: string;
  confidence: number;
}

/** Class labels for a PaddleOCR dictionary file (one character per line). */
export function ctcLabels(dictionary: Uint8Array): string[] {
  const lines = new TextDecoder("utf-8", { fatal: true }).decode(dictionary).split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return ["", ...lines, " "];
}

/** Decodes one sequence of `steps` rows of `labels.length` probabilities starting at `offset`. */
export function ctcGreedy(probs: Float32Array, offset: number, steps: number, labels: readonly string[]): Decoded {
  const classes = labels.length;
  let text = "";
  let sum = 0;
  let kept = 0;
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestP = probs[row]!;
    for (let c = 1; c < classes; c++) {
      const p = probs[row + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      text += labels[best];
      sum += bestP;
      kept++;
    }
    previous = best;
  }
  return { text, confidence: kept === 0 ? 0 : sum / kept };
}
