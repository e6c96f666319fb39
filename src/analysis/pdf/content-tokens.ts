// Operations of a content stream as they are written, not as they draw. mupdf's JavaScript
// binding runs content streams into devices but does not expose its operator parser, and
// how a string is written (hex or literal, letter case, a TJ array's shape) never reaches
// a device, so this is a small lexer of the content-stream syntax (ISO 32000-1, 7.2 and
// 7.8.2). Hostile input: bounded operations, operands and nesting; never throws.

export interface PdfString {
  type: "string";
  hex: boolean;
  /** As written between the delimiters (hex digits, or the literal's raw bytes as latin1). */
  raw: string;
}

export type Operand =
  | number
  | PdfString
  | { type: "name"; name: string }
  | { type: "array"; items: Operand[] }
  | { type: "other" };

export interface Operation {
  op: string;
  operands: Operand[];
}

export interface TokenLimits {
  maxOperations: number;
  /** Operands kept before an operator; more are dropped (no operator takes more than 6). */
  maxOperands: number;
  maxArrayItems: number;
}

const DEFAULT_TOKEN_LIMITS: TokenLimits = { maxOperations: 200_000, maxOperands: 16, maxArrayItems: 2_000 };

const WHITE = new Set([0, 9, 10, 12, 13, 32]);
const DELIMITER = new Set([...Buffer.from("()<>[]{}/%")]);
const isRegular = (b: number) => !WHITE.has(b) && !DELIMITER.has(b);

const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const BACKSLASH = 92;
const LESS = 60;
const GREATER = 62;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const SLASH = 47;
const PERCENT = 37;

/** A number as content streams write one: no exponent, no radix. */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

const latin1 = (bytes: Uint8Array, from: number, to: number): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("latin1");

/** Reads a content stream's operations; stops quietly at the limits or at the end. */
export function readOperations(bytes: Uint8Array, limits: TokenLimits = DEFAULT_TOKEN_LIMITS): Operation[] {
  const ops: Operation[] = [];
  let pos = 0;
  const end = bytes.length;
  let operands: Operand[] = [];
  // Open arrays, innermost last; operands go to the innermost one.
  const arrays: Operand[][] = [];

  const push = (operand: Operand) => {
    const target = arrays.at(-1);
    if (target) {
      if (target.length < limits.maxArrayItems) target.push(operand);
    } else if (operands.length < limits.maxOperands) operands.push(operand);
  };

  while (pos < end && ops.length < limits.maxOperations) {
    const b = bytes[pos]!;
    if (WHITE.has(b)) {
      pos++;
    } else if (b === PERCENT) {
      while (pos < end && bytes[pos] !== 10 && bytes[pos] !== 13) pos++;
    } else if (b === OPEN_PAREN) {
      const start = ++pos;
      let depth = 1;
      while (pos < end) {
        const c = bytes[pos]!;
        if (c === BACKSLASH) pos += 2;
        else {
          if (c === OPEN_PAREN) depth++;
          else if (c === CLOSE_PAREN && --depth === 0) break;
          pos++;
        }
      }
      push({ type: "string", hex: false, raw: latin1(bytes, start, Math.min(pos, end)) });
      pos++;
    } else if (b === LESS && bytes[pos + 1] === LESS) {
      // A dictionary operand (inline image parameters, marked-content properties): only its
      // presence matters.
      let depth = 0;
      while (pos < end) {
        if (bytes[pos] === LESS && bytes[pos + 1] === LESS) {
          depth++;
          pos += 2;
        } else if (bytes[pos] === GREATER && bytes[pos + 1] === GREATER) {
          pos += 2;
          if (--depth === 0) break;
        } else pos++;
      }
      push({ type: "other" });
    } else if (b === LESS) {
      const start = ++pos;
      while (pos < end && bytes[pos] !== GREATER) pos++;
      push({ type: "string", hex: true, raw: latin1(bytes, start, pos).replace(/[\0\t\n\f\r ]+/g, "") });
      pos++;
    } else if (b === OPEN_BRACKET) {
      pos++;
      const items: Operand[] = [];
      push({ type: "array", items });
      arrays.push(items);
      if (arrays.length > 8) return ops;
    } else if (b === CLOSE_BRACKET) {
      pos++;
      arrays.pop();
    } else if (b === SLASH) {
      const start = ++pos;
      while (pos < end && isRegular(bytes[pos]!)) pos++;
      push({ type: "name", name: latin1(bytes, start, pos) });
    } else if (isRegular(b)) {
      const start = pos;
      while (pos < end && isRegular(bytes[pos]!)) pos++;
      const word = latin1(bytes, start, pos);
      if (NUMBER.test(word)) push(Number(word));
      else if (word === "true" || word === "false" || word === "null") push({ type: "other" });
      else {
        arrays.length = 0;
        ops.push({ op: word, operands });
        operands = [];
        if (word === "ID") pos = skipInlineImage(bytes, pos);
      }
    } else {
      pos++;
    }
  }
  return ops;
}

/** Past an inline image's data: up to an "EI" standing alone between white space. */
function skipInlineImage(bytes: Uint8Array, from: number): number {
  for (let i = from + 1; i + 1 < bytes.length; i++) {
    if (
      bytes[i] === 69 &&
      bytes[i + 1] === 73 &&
      WHITE.has(bytes[i - 1]!) &&
      (i + 2 >= bytes.length || WHITE.has(bytes[i + 2]!))
    )
      return i + 2;
  }
  return bytes.length;
}
