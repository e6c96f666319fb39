// Bank-statement pages as printed lines (see pages.ts), for the OCR and pixel forensics tests
// and their benchmarks.
import { Rng } from "../../scripts/corpus/rng.ts";
import type { PrintedLine } from "./pages.ts";

/** An A4 statement whose every line is known, so recognition can be scored against it. */
export const KNOWN_STATEMENT: PrintedLine[] = [
  { text: "Northwind Savings Bank", font: "Helvetica", size: 20, x: 60, y: 80 },
  { text: "Account holder: Anna Maria Eriksson", font: "Helvetica", size: 12, x: 60, y: 130 },
  { text: "Statement date: 14 March 2024", font: "Helvetica", size: 12, x: 60, y: 155 },
  { text: "Account number 8841 2290 5531", font: "Helvetica", size: 12, x: 60, y: 180 },
  { text: "Opening balance 2,718.40", font: "Helvetica", size: 12, x: 60, y: 230 },
  { text: "Salary payment ACME Ltd 3,150.00", font: "Helvetica", size: 12, x: 60, y: 255 },
  { text: "Rent transfer 1,850.00", font: "Helvetica", size: 12, x: 60, y: 280 },
  { text: "Closing balance 1,234.56", font: "Helvetica", size: 12, x: 60, y: 305 },
  { text: "01/03/2024 Card payment Tesco Stores -45.20", font: "Helvetica", size: 9, x: 60, y: 330 },
  { text: "IBAN GB29 NWBK 6016 1331 9268 19", font: "Helvetica", size: 9, x: 60, y: 345 },
  { text: "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", font: "Courier", size: 12, x: 60, y: 380 },
  { text: "L898902C36UTO7408122F1204159ZE184226B<<<<<10", font: "Courier", size: 12, x: 60, y: 400 },
];

/** The x of the amounts column in a seeded statement, in points. */
export const AMOUNT_X = 400;

export const seededAmount = (rng: Rng) =>
  `${rng.int(1, 4999).toLocaleString("en-GB")}.${String(rng.int(0, 99)).padStart(2, "0")}`;
const PAYEES = [
  "Card payment Tesco Stores",
  "Direct debit British Gas",
  "Transfer to savings",
  "Salary ACME Ltd",
  "Card payment Shell",
  "Standing order Rent",
];

/**
 * An A4 bank statement from `seed`: header, account facts, and rows of dated transactions with
 * amounts in a column.
 */
export function seededStatement(seed: number): PrintedLine[] {
  const rng = new Rng(seed);
  const lines: PrintedLine[] = [
    { text: "Northwind Savings Bank", font: "Helvetica", size: 20, x: 60, y: 80 },
    {
      text: `Account holder: ${rng.pick(["Anna Eriksson", "John Smith", "Maria Garcia", "Wei Chen"])}`,
      font: "Helvetica",
      size: 12,
      x: 60,
      y: 125,
    },
    {
      text: `Account number ${rng.int(1000, 9999)} ${rng.int(1000, 9999)} ${rng.int(1000, 9999)}`,
      font: "Helvetica",
      size: 12,
      x: 60,
      y: 145,
    },
    { text: `Statement date: ${rng.int(1, 28)} March 2024`, font: "Helvetica", size: 12, x: 60, y: 165 },
  ];
  for (let row = 0; row < 22; row++) {
    const y = 210 + row * 22;
    lines.push({
      text: `${String(rng.int(1, 28)).padStart(2, "0")}/03/2024  ${rng.pick(PAYEES)}`,
      font: "Helvetica",
      size: 10,
      x: 60,
      y,
    });
    lines.push({ text: seededAmount(rng), font: "Helvetica", size: 10, x: AMOUNT_X, y });
  }
  lines.push({ text: `Closing balance ${seededAmount(rng)}`, font: "Helvetica", size: 12, x: 60, y: 720 });
  lines.push({ text: "IBAN GB29 NWBK 6016 1331 9268 19", font: "Courier", size: 10, x: 60, y: 745 });
  return lines;
}
