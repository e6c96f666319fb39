// CTC greedy decoding for PP-OCR recognition output, as PaddleOCR's CTCLabelDecode does it:
// class 0 is the CTC blank, then the dictionary's characters in file order, then a space
// (use_space_char=True). The best class per time step is taken, repeats merged and blanks
// dropped; a line's confidence is the mean probability of the characters it kept, and each
// character keeps its runners-up, so a reader of the text can tell a sure digit from a guess.

export interface Decoded {
  text: string;
  confidence: number;
  /** One per character of `text` (by code point). */
  characters: CharacterReading[];
}

export interface CharacterReading {
  /** Probability of the character kept, at the step of its run where it peaked. */
  probability: number;
  /** The likeliest other characters at that step (never the blank), most likely first. */
  alternatives: { character: string; probability: number }[];
}

/** Alternatives kept per character: a misread digit's true value is nearly always among them. */
const ALTERNATIVES = 3;

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
  const characters: CharacterReading[] = [];
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
      characters.push({ probability: bestP, alternatives: alternativesAt(probs, row, classes, best, labels) });
    } else if (best !== 0 && bestP > characters.at(-1)!.probability) {
      // The same character over several steps: describe it where it was read most clearly.
      characters[characters.length - 1] = {
        probability: bestP,
        alternatives: alternativesAt(probs, row, classes, best, labels),
      };
    }
    previous = best;
  }
  return { text, confidence: characters.length === 0 ? 0 : sum / characters.length, characters };
}

function alternativesAt(
  probs: Float32Array,
  row: number,
  classes: number,
  chosen: number,
  labels: readonly string[],
): CharacterReading["alternatives"] {
  const top: { character: string; probability: number }[] = [];
  for (let c = 1; c < classes; c++) {
    if (c === chosen) continue;
    const p = probs[row + c]!;
    if (top.length === ALTERNATIVES && p <= top[ALTERNATIVES - 1]!.probability) continue;
    top.push({ character: labels[c]!, probability: p });
    top.sort((a, b) => b.probability - a.probability);
    if (top.length > ALTERNATIVES) top.pop();
  }
  return top;
}
