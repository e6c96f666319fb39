// Approximate substring search: whether a phrase appears in a text with at most one letter
// read wrong, lost or added. OCR of a blurred photo misreads a letter or two of a long title
// ("BUULETIN DE PAIE"), which an exact pattern then misses. Written here because the
// edit-distance packages compare whole strings, not a phrase anywhere inside a text (Sellers'
// algorithm: the dynamic programme of the edit distance with a free start in the text).

/** Whether `phrase` occurs in `text` within one edit (substitution, insertion or deletion). */
export function containsWithinOneEdit(text: string, phrase: string): boolean {
  const m = phrase.length;
  if (m === 0) return true;
  if (text.length < m - 1) return false;
  // One edit spoils at most one half of the phrase, so the other stands in the text as it is:
  // a text without either half is passed over without the dynamic programme.
  const half = Math.floor(m / 2);
  if (!text.includes(phrase.slice(0, half)) && !text.includes(phrase.slice(half))) return false;
  // column[i]: the least edits that match phrase[0..i) ending at the current text position.
  let column = Array.from({ length: m + 1 }, (_, i) => i);
  if (column[m]! <= 1) return true;
  for (const c of text) {
    const next = [0];
    for (let i = 1; i <= m; i++) {
      next.push(Math.min(column[i - 1]! + (phrase[i - 1] === c ? 0 : 1), column[i]! + 1, next[i - 1]! + 1));
    }
    if (next[m]! <= 1) return true;
    column = next;
  }
  return false;
}
