// Builds ICAO 9303 machine readable zones (TD1, TD2, TD3). The `mrz` package parses and
// validates but does not compose, so composing lives here; the tests validate every
// genuine MRZ with `mrz`.
import type { Person } from "./person.ts";

export type MrzFormat = "TD1" | "TD2" | "TD3";

const WEIGHTS = [7, 3, 1] as const;

function charValue(c: string): number {
  if (c >= "0" && c <= "9") return c.charCodeAt(0) - 48;
  if (c >= "A" && c <= "Z") return c.charCodeAt(0) - 55;
  if (c === "<") return 0;
  throw new Error(`not an MRZ character: ${JSON.stringify(c)}`);
}

/** ICAO 9303 part 3, 4.9: weights 7-3-1 over the character values, modulo 10. */
export function checkDigit(s: string): string {
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += charValue(s[i] as string) * (WEIGHTS[i % 3] as number);
  return String(sum % 10);
}

/** Upper-case, accents removed, anything else becomes a filler. */
function mrzText(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "<");
}

function pad(s: string, n: number): string {
  return (s + "<".repeat(n)).slice(0, n);
}

function nameField(p: Person, n: number): string {
  return pad(`${mrzText(p.surname)}<<${mrzText(p.givenNames.join(" "))}`, n);
}

/** YYMMDD */
export function mrzDate(d: Date): string {
  const yy = String(d.getUTCFullYear() % 100).padStart(2, "0");
  const mm = String(d.getUTCMonth() + 1).padStart(2, "0");
  const dd = String(d.getUTCDate()).padStart(2, "0");
  return yy + mm + dd;
}

export interface MrzData {
  documentCode: string; // "P", "I"
  issuingState: string; // 3 letters, "<"-padded
  documentNumber: string; // up to 9
  nationality: string;
  birthDate: Date;
  sex: "M" | "F" | "<";
  expiryDate: Date;
  optional: string;
}

export function composeMrz(format: MrzFormat, p: Person, d: MrzData): string[] {
  const docNo = pad(d.documentNumber, 9);
  const docCd = checkDigit(docNo);
  const dob = mrzDate(d.birthDate);
  const exp = mrzDate(d.expiryDate);
  const code = pad(d.documentCode, 2);
  if (format === "TD3") {
    const opt = pad(d.optional, 14);
    const optCd = /^<+$/.test(opt) ? "<" : checkDigit(opt);
    const l2 = `${docNo}${docCd}${d.nationality}${dob}${checkDigit(dob)}${d.sex}${exp}${checkDigit(exp)}${opt}${optCd}`;
    const composite = checkDigit(l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 43));
    return [`${code}${d.issuingState}${nameField(p, 39)}`, l2 + composite];
  }
  if (format === "TD2") {
    const opt = pad(d.optional, 7);
    const l2 = `${docNo}${docCd}${d.nationality}${dob}${checkDigit(dob)}${d.sex}${exp}${checkDigit(exp)}${opt}`;
    const composite = checkDigit(l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, 35));
    return [`${code}${d.issuingState}${nameField(p, 31)}`, l2 + composite];
  }
  const l1 = `${code}${d.issuingState}${docNo}${docCd}${pad(d.optional, 15)}`;
  const l2head = `${dob}${checkDigit(dob)}${d.sex}${exp}${checkDigit(exp)}${d.nationality}${pad("", 11)}`;
  const composite = checkDigit(l1.slice(5, 30) + l2head.slice(0, 7) + l2head.slice(8, 15) + l2head.slice(18, 29));
  return [l1, l2head + composite, nameField(p, 30)];
}

/** Where each data element sits in the MRZ lines: [line, start, end). */
export const MRZ_FIELDS: Record<
  MrzFormat,
  Record<"documentNumber" | "birthDate" | "expiryDate", [number, number, number]>
> = {
  TD3: { documentNumber: [1, 0, 9], birthDate: [1, 13, 19], expiryDate: [1, 21, 27] },
  TD2: { documentNumber: [1, 0, 9], birthDate: [1, 13, 19], expiryDate: [1, 21, 27] },
  TD1: { documentNumber: [0, 5, 14], birthDate: [1, 0, 6], expiryDate: [1, 8, 14] },
};
