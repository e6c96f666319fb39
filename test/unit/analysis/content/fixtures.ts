// Documents made in the tests: MRZs with check digits computed here (ICAO 9303 7-3-1),
// and pages of text lines laid out the way OCR or a PDF text layer delivers them.
import type { CharacterReading, DocumentText, TextLine } from "../../../../src/analysis/content/text.ts";

function checkDigit(text: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const value = c === "<" ? 0 : c >= "0" && c <= "9" ? Number(c) : c.charCodeAt(0) - 55;
    sum += value * weights[i % 3]!;
  }
  return String(sum % 10);
}

const pad = (text: string, length: number) => (text + "<".repeat(length)).slice(0, length);

export interface Person {
  code?: string;
  state?: string;
  surname: string;
  given: string;
  number: string;
  nationality?: string;
  birth: string;
  sex?: string;
  expiry: string;
  optional?: string;
}

const nameField = (p: Person, length: number) => pad(`${p.surname}<<${p.given.replace(/ /g, "<")}`, length);

export function td3(p: Person): string[] {
  const number = pad(p.number, 9);
  const personal = pad(p.optional ?? "", 14);
  const personalCheck = p.optional ? checkDigit(personal) : "<";
  const upper = `${pad(p.code ?? "P", 2)}${p.state ?? "UTO"}${nameField(p, 39)}`;
  const body = `${number}${checkDigit(number)}${p.nationality ?? p.state ?? "UTO"}${p.birth}${checkDigit(p.birth)}${p.sex ?? "F"}${p.expiry}${checkDigit(p.expiry)}${personal}${personalCheck}`;
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
  return [upper, body + composite];
}

export function td2(p: Person): string[] {
  const number = pad(p.number, 9);
  const optional = pad(p.optional ?? "", 7);
  const upper = `${pad(p.code ?? "I", 2)}${p.state ?? "UTO"}${nameField(p, 31)}`;
  const body = `${number}${checkDigit(number)}${p.nationality ?? p.state ?? "UTO"}${p.birth}${checkDigit(p.birth)}${p.sex ?? "F"}${p.expiry}${checkDigit(p.expiry)}${optional}`;
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 35));
  return [upper, body + composite];
}

export function td1(p: Person): string[] {
  const number = pad(p.number, 9);
  const first = `${pad(p.code ?? "I", 2)}${p.state ?? "UTO"}${number}${checkDigit(number)}${pad(p.optional ?? "", 15)}`;
  const second = `${p.birth}${checkDigit(p.birth)}${p.sex ?? "F"}${p.expiry}${checkDigit(p.expiry)}${p.nationality ?? p.state ?? "UTO"}${pad("", 11)}`;
  const composite = checkDigit(first.slice(5, 30) + second.slice(0, 7) + second.slice(8, 15) + second.slice(18, 29));
  return [first, second + composite, nameField(p, 30)];
}

/**
 * France's national identity card of 1988-2021: two lines of 36 under French rules. `number`
 * is the card's 12 characters (issue year and month, department, sequence); `admin` the
 * issuing office's code. The composite covers the first line and the second up to it.
 */
export function frenchId(p: {
  surname: string;
  given: string;
  number: string;
  birth: string;
  sex?: string;
  admin?: string;
}): string[] {
  const first = `IDFRA${pad(p.surname, 25)}${p.admin ?? "921001"}`;
  const body = `${p.number}${checkDigit(p.number)}${pad(p.given.replace(/ /g, "<<"), 14)}${p.birth}${checkDigit(p.birth)}${p.sex ?? "F"}`;
  return [first, body + checkDigit(first + body)];
}

export interface LineSpec {
  text: string;
  x?: number;
  y: number;
  width?: number;
  confidence?: number;
  characters?: CharacterReading[];
  /** The slope the text detector's turned rectangle gave the line. */
  slope?: number;
}

/**
 * The recogniser's per-character view of `text`: every character read at 0.99 with a
 * faint runner-up, except those `at` describes (by index) otherwise.
 */
export function readingsOf(text: string, at: Record<number, CharacterReading> = {}): CharacterReading[] {
  return [...text].map(
    (c, i) => at[i] ?? { probability: 0.99, alternatives: [{ character: c === "8" ? "3" : "8", probability: 0.003 }] },
  );
}

/** One page of lines; each line is 20 px tall and ~10 px per character wide. */
export function page(lines: LineSpec[], source: "pdf" | "ocr" = "ocr", pageNumber = 1): DocumentText["pages"][number] {
  return {
    page: pageNumber,
    width: 1000,
    height: 1400,
    lines: lines.map(
      (l): TextLine => ({
        text: l.text,
        box: [l.x ?? 40, l.y, l.width ?? l.text.length * 10, 20],
        confidence: source === "pdf" ? 1 : (l.confidence ?? 0.98),
        source,
        ...(l.characters ? { characters: l.characters } : {}),
        ...(l.slope !== undefined && source === "ocr" ? { slope: l.slope } : {}),
      }),
    ),
  };
}

export const documentOf = (...pages: DocumentText["pages"]): DocumentText => ({ pages });

export interface Movement {
  date: string;
  text: string;
  /** Signed cents: negative money out. */
  cents: number;
}

export type MoneyFormat = "uk" | "de";

export function money(cents: number, format: MoneyFormat = "uk"): string {
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, format === "uk" ? "," : ".");
  return `${whole}${format === "uk" ? "." : ","}${String(abs % 100).padStart(2, "0")}`;
}

/** A month of a current account: salary, rent, card payment, transfer in, direct debit. */
export const MARCH_MOVEMENTS: Movement[] = [
  { date: "02/03/2024", text: "Salary ACME LTD", cents: 254_000 },
  { date: "04/03/2024", text: "Rent", cents: -120_000 },
  { date: "09/03/2024", text: "Card payment SUPERMARKET", cents: -8_642 },
  { date: "15/03/2024", text: "Transfer from savings", cents: 50_000 },
  { date: "28/03/2024", text: "Direct debit ENERGY CO", cents: -6_499 },
];

/** Running balances a genuine statement would print. */
export function runningBalances(opening: number, movements: Movement[]): number[] {
  let balance = opening;
  return movements.map((m) => (balance += m.cents));
}

const rightAligned = (text: string, right: number, y: number, confidence?: number): LineSpec => ({
  text,
  x: right - text.length * 10,
  y,
  confidence,
});

/**
 * A statement as OCR reads it: one line per table cell under a "Paid out / Paid in /
 * Balance" header, with opening and closing rows. `balances` overrides the printed ones.
 */
export function columnStatement(options: {
  opening: number;
  movements: Movement[];
  balances?: number[];
  closing?: number;
  totals?: boolean;
  confidence?: (row: number) => number;
}): LineSpec[] {
  const balances = options.balances ?? runningBalances(options.opening, options.movements);
  const conf = options.confidence ?? (() => 0.98);
  const lines: LineSpec[] = [
    { text: "Statement of account", y: 40 },
    { text: "Date", x: 40, y: 200 },
    { text: "Description", x: 150, y: 200 },
    { text: "Paid out", x: 520, y: 200 },
    { text: "Paid in", x: 680, y: 200 },
    { text: "Balance", x: 850, y: 200 },
    { text: "Balance brought forward", x: 150, y: 230 },
    rightAligned(money(options.opening), 920, 230),
  ];
  options.movements.forEach((m, i) => {
    const y = 260 + i * 30;
    const confidence = conf(i);
    lines.push({ text: m.date, x: 40, y, confidence }, { text: m.text, x: 150, y, confidence });
    lines.push(rightAligned(money(m.cents), m.cents < 0 ? 600 : 760, y, confidence));
    lines.push(rightAligned(money(balances[i]!), 920, y, confidence));
  });
  const bottom = 260 + options.movements.length * 30;
  const closing = options.closing ?? balances[balances.length - 1]!;
  lines.push({ text: "Balance carried forward", x: 150, y: bottom }, rightAligned(money(closing), 920, bottom));
  if (options.totals) {
    const out = options.movements.filter((m) => m.cents < 0).reduce((s, m) => s - m.cents, 0);
    const into = options.movements.filter((m) => m.cents > 0).reduce((s, m) => s + m.cents, 0);
    lines.push({ text: "Total paid out", x: 150, y: bottom + 40 }, rightAligned(money(out), 600, bottom + 40));
    lines.push({ text: "Total paid in", x: 150, y: bottom + 70 }, rightAligned(money(into), 760, bottom + 70));
  }
  return lines;
}

/** A statement as a PDF text layer gives it: one line per row, signed amounts, no header. */
export function lineStatement(options: {
  opening: number;
  movements: Movement[];
  format: MoneyFormat;
  sign: (cents: number, text: string) => string;
  closing?: number;
}): LineSpec[] {
  const balances = runningBalances(options.opening, options.movements);
  const lines: LineSpec[] = [{ text: `Opening balance ${money(options.opening, options.format)}`, y: 100 }];
  options.movements.forEach((m, i) => {
    lines.push({
      text: `${m.date}  ${m.text}  ${options.sign(m.cents, money(m.cents, options.format))}  ${money(balances[i]!, options.format)}`,
      y: 130 + i * 30,
    });
  });
  lines.push({
    text: `Closing balance ${money(options.closing ?? balances[balances.length - 1]!, options.format)}`,
    y: 130 + options.movements.length * 30,
  });
  return lines;
}

const labelled = (label: string, amount: string, y: number, right = 900, extra: LineSpec[] = []): LineSpec[] => [
  { text: label, x: 40, y },
  { text: amount, x: right - amount.length * 10, y },
  ...extra,
];

/** A payslip: earnings to gross pay, deductions to their total, and net pay. */
export const payslip = (net = 203_550): LineSpec[] => [
  { text: "PAYSLIP  Period 03/2024", y: 40 },
  { text: "Payments", x: 40, y: 100 },
  ...labelled("Basic pay", money(250_000), 130),
  ...labelled("Overtime", money(12_500), 160),
  ...labelled("Bonus", money(5_000), 190),
  ...labelled("Gross pay", money(267_500), 220),
  { text: "Deductions", x: 40, y: 280 },
  ...labelled("Income tax", money(38_450), 310),
  ...labelled("National Insurance", money(17_500), 340),
  ...labelled("Pension", money(8_000), 370),
  ...labelled("Total deductions", money(63_950), 400),
  ...labelled("Net pay", money(net), 460),
];

/** A utility bill: charges and VAT to a subtotal, then an unsigned payment and the total due. */
export const bill = (total = 7_524): LineSpec[] => [
  { text: "ENERGY CO  Your bill", y: 40 },
  { text: "Charges", x: 40, y: 100 },
  ...labelled("Electricity 312 kWh", money(5_432), 130),
  ...labelled("Standing charge", money(1_054), 160),
  ...labelled("Subtotal", money(6_486), 190),
  ...labelled("VAT 5%", money(324), 220),
  ...labelled("Total charges", money(6_810), 250),
  ...labelled("Previous balance", money(5_000), 280),
  ...labelled("Payment received", money(5_000), 310),
  ...labelled("Late payment fee", money(714), 340),
  ...labelled("Total amount due", money(total), 370),
];
