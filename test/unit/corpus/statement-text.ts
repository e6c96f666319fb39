// Reads a bank statement PDF back through mupdf's text extraction, the way an analyst's tool
// would, and checks that its balances add up.
import * as mupdf from "mupdf";

const AMOUNT = /-?\d{1,3}(?:,\d{3})*\.\d{2}/g;
const DATE = /^\d{2}\/\d{2}\/\d{4}/;

function cents(s: string): number {
  return Math.round(Number(s.replace(/,/g, "")) * 100);
}

interface Line {
  y: number;
  text: string;
}

function textLines(pdf: Uint8Array): Line[] {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  const json = JSON.parse(doc.loadPage(0).toStructuredText("preserve-whitespace").asJSON()) as {
    blocks: Array<{ lines?: Array<{ bbox: { y: number }; text: string }> }>;
  };
  const lines = json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ y: Math.round(l.bbox.y), text: l.text }));
  // Cells drawn separately come back as separate lines: join those on one baseline, left to right.
  const rows = new Map<number, string[]>();
  for (const l of lines) {
    const key = [...rows.keys()].find((k) => Math.abs(k - l.y) <= 2) ?? l.y;
    rows.set(key, [...(rows.get(key) ?? []), l.text]);
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([y, t]) => ({ y, text: t.join(" ") }));
}

export interface BalanceCheck {
  rows: number;
  /** Rows whose balance is not the previous balance plus or minus the row's amount. */
  brokenRows: number;
  /** Opening + credits - debits = closing, and the last row's balance = closing. */
  totalsAgree: boolean;
}

export function checkStatementBalances(pdf: Uint8Array): BalanceCheck {
  const lines = textLines(pdf);
  const summary = (label: string) => {
    const line = lines.find((l) => l.text.includes(label));
    const amount = line?.text.match(AMOUNT)?.at(-1);
    if (!amount) throw new Error(`no "${label}" on the statement`);
    return cents(amount);
  };
  const opening = summary("Opening balance");
  let previous = opening;
  let broken = 0;
  let rows = 0;
  for (const l of lines.filter((x) => DATE.test(x.text.trim()))) {
    const amounts = (l.text.match(AMOUNT) ?? []).map(cents);
    if (amounts.length < 2) continue;
    rows++;
    const amount = amounts[amounts.length - 2] as number;
    const balance = amounts[amounts.length - 1] as number;
    if (balance !== previous + amount && balance !== previous - amount) broken++;
    previous = balance;
  }
  const closing = summary("Closing balance");
  const totalsAgree = opening + summary("Total credits") - summary("Total debits") === closing && previous === closing;
  return { rows, brokenRows: broken, totalsAgree };
}
