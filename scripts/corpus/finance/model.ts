// Bank statements, payslips and utility bills as data whose numbers add up, and the
// generic page layout both PDF generators draw them from.
import { addDays, formatDate } from "../clock.ts";
import { fullName, type Person } from "../identity/person.ts";
import type { Rng } from "../rng.ts";
import { formatSigned, formatUnsigned } from "./money-style.ts";
import { classicLayout, type StatementLayout } from "./statement-layout.ts";

type FinanceKind = "bank_statement" | "payslip" | "utility_bill";

export interface Cell {
  text: string;
  /** Name under which the value is labelled and can be forged, e.g. `row4.balance`. */
  field?: string;
}

export interface Column {
  header: string;
  width: number; // fraction of the table width
  align: "left" | "right";
}

/** What a generator draws, top to bottom. Amounts are strings as printed. */
export interface FinanceDocument {
  kind: FinanceKind;
  issuer: string[];
  title: string;
  recipient: string[];
  meta: Array<[string, Cell]>;
  columns: Column[];
  rows: Cell[][];
  /** Indices of `rows` that start a new page, where the table's header is drawn again. */
  pageBreaks: number[];
  summary: Array<[string, Cell]>;
  footer: string[];
  /** Cent values behind the printed amounts, for forgeries that keep totals consistent. */
  ledger: Ledger;
}

export type Ledger =
  | { kind: "bank_statement"; opening: number; moves: number[]; descriptions: string[]; layout: StatementLayout }
  | { kind: "payslip"; earnings: number[]; deductions: number[] }
  | { kind: "utility_bill"; items: number[]; vatRate: number };

function money(cents: number): string {
  const neg = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const units = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${neg ? "-" : ""}${units}.${String(abs % 100).padStart(2, "0")}`;
}

const BANKS = [
  ["Banque Galathée", "12 place de la Bourse", "75002 Paris"],
  ["Crédit du Pilea", "4 rue du Marché", "69002 Lyon"],
  ["Birdyland Sparkasse", "Marktplatz 3", "50667 Köln"],
  ["Lemon Savings Bank", "1 Harbour Street", "Rotterdam"],
];
const EMPLOYERS = [
  "Atelier Moreau SARL",
  "Nordlicht Logistik GmbH",
  "Blue Harbour Consulting",
  "Clinique Saint-Roch",
  "Vega Retail SA",
];
const SUPPLIERS = [
  ["Énergie Galathée", "Service clients", "BP 4410, 75008 Paris"],
  ["Stadtwerke Birdyland", "Kundenservice", "Postfach 120, 50670 Köln"],
  ["AquaPilea", "Water services", "22 quai du Rhône, 69007 Lyon"],
];
const PAYEES = [
  "CARREFOUR MARKET",
  "SNCF INTERNET",
  "AMAZON EU",
  "PHARMACIE CENTRALE",
  "BOULANGERIE PAUL",
  "TOTAL ENERGIES",
  "NETFLIX.COM",
  "ORANGE MOBILE",
  "LIDL",
  "IKEA",
  "DECATHLON",
  "UBER TRIP",
  "FNAC",
  "RESTAURANT LE ZINC",
];

function iban(rng: Rng): string {
  return `FR76 ${rng.digits(4)} ${rng.digits(4)} ${rng.digits(4)} ${rng.digits(4)} ${rng.digits(4)} ${rng.digits(3)}`;
}

/** `layoutOf` draws the table's layout from each transaction's day; by default one English page. */
export function bankStatement(
  rng: Rng,
  p: Person,
  today: Date,
  layoutOf: (days: number[]) => StatementLayout = classicLayout,
): FinanceDocument {
  const bank = rng.pick(BANKS);
  const start = addDays(today, -rng.int(35, 70));
  const n = rng.int(14, 30);
  const opening = rng.int(150_000, 900_000);
  const days = Array.from({ length: n }, (_, i) => Math.floor((i * 30) / n));
  const layout = layoutOf(days);
  const moves: number[] = [];
  const descriptions: string[] = [];
  const salaryAt = rng.int(2, n - 3);
  for (let i = 0; i < n; i++) {
    if (i === salaryAt) {
      moves.push(rng.int(180_000, 520_000));
      descriptions.push(`VIR SALAIRE ${rng.pick(EMPLOYERS).toUpperCase()}`);
    } else if (rng.chance(0.12)) {
      moves.push(rng.int(1_000, 60_000));
      descriptions.push(`VIR RECU ${rng.letters(3)}${rng.digits(5)}`);
    } else {
      moves.push(-rng.int(250, 18_000));
      // The card payment's day and month, as the locale writes them (04.03 reads like an amount).
      descriptions.push(
        `CB ${rng.pick(PAYEES)} ${formatDate(addDays(start, days[i] as number), layout.dateSeparator).slice(0, 5)}`,
      );
    }
  }
  const ledger = { kind: "bank_statement" as const, opening, moves, descriptions, layout };
  return layoutStatement(
    bank,
    p,
    iban(rng),
    start,
    days.map((d) => addDays(start, d)),
    ledger,
  );
}

function layoutStatement(
  bank: string[],
  p: Person,
  account: string,
  start: Date,
  dates: Date[],
  ledger: Ledger & { kind: "bank_statement" },
): FinanceDocument {
  const a = amountFields(ledger);
  const { layout } = ledger;
  const words = layout.words;
  const cell = (field: string): Cell => ({ text: a[field] as string, field });
  const blank: Cell = { text: "" };
  const signed = layout.movements === "signed";
  const movementCells = (i: number, m: number): Cell[] =>
    signed
      ? [cell(`row${i}.amount`)]
      : [m < 0 ? cell(`row${i}.debit`) : blank, m >= 0 ? cell(`row${i}.credit`) : blank];
  const forwardRow = (label: string, field: string): Cell[] => [
    blank,
    { text: label },
    ...(signed ? [blank] : [blank, blank]),
    cell(field),
  ];
  const rows: Cell[][] = [];
  const pageBreaks: number[] = [];
  ledger.moves.forEach((m, i) => {
    const page = layout.pageBreaks.indexOf(i);
    if (page >= 0) {
      rows.push(forwardRow(words.carried, `carried${page}`));
      pageBreaks.push(rows.length);
      rows.push(forwardRow(words.brought, `brought${page}`));
    }
    const balance = layout.balanceShown[i] ? cell(`row${i}.balance`) : blank;
    rows.push([
      { text: formatDate(dates[i] as Date, layout.dateSeparator) },
      { text: ledger.descriptions[i] as string },
      ...movementCells(i, m),
      balance,
    ]);
  });
  const end = dates[dates.length - 1] as Date;
  const money = (header: string): Column => ({ header, width: signed ? 0.175 : 0.14, align: "right" });
  return {
    kind: "bank_statement",
    issuer: bank,
    title: words.title,
    recipient: [fullName(p).toUpperCase(), p.address[0], p.address[1]],
    meta: [
      [words.holder, { text: fullName(p).toUpperCase(), field: "holder" }],
      ["IBAN", { text: account, field: "iban" }],
      [words.period, { text: `${formatDate(start, layout.dateSeparator)} - ${formatDate(end, layout.dateSeparator)}` }],
      [words.currency, { text: layout.money.currency }],
    ],
    columns: [
      { header: words.date, width: 0.13, align: "left" },
      { header: words.description, width: signed ? 0.52 : 0.45, align: "left" },
      ...(signed ? [money(words.amount)] : [money(words.debit), money(words.credit)]),
      money(words.balance),
    ],
    rows,
    pageBreaks,
    summary: [
      [words.opening, cell("opening_balance")],
      [words.totalDebits, cell("total_debits")],
      [words.totalCredits, cell("total_credits")],
      [words.closing, cell("closing_balance")],
    ],
    footer: [
      `${bank[0]} - ${bank[1]}, ${bank[2]}. Please check this statement and report any discrepancy within 30 days.`,
      `Balances are shown ${layout.balanceShown.every(Boolean) ? "after each transaction" : "at the end of each day"}. Amounts in ${layout.money.currency}.`,
    ],
    ledger,
  };
}

export function payslip(rng: Rng, p: Person, today: Date): FinanceDocument {
  const employer = rng.pick(EMPLOYERS);
  const base = rng.int(190_000, 560_000);
  const earnings = [base, rng.chance(0.5) ? rng.int(5_000, 40_000) : 0, rng.int(0, 15_000)];
  const gross = earnings.reduce((a, b) => a + b, 0);
  const deductions = [
    Math.round(gross * 0.069),
    Math.round(gross * 0.024),
    Math.round(gross * 0.092),
    Math.round(gross * 0.015),
  ];
  const ledger: Ledger = { kind: "payslip", earnings, deductions };
  return layoutPayslip(
    employer,
    p,
    today,
    `${rng.digits(3)} ${rng.digits(3)} ${rng.digits(3)} ${rng.digits(5)}`,
    ledger,
  );
}

const EARNING_LABELS = ["Base salary", "Overtime", "Transport allowance"];
const DEDUCTION_LABELS = ["Social security", "Unemployment insurance", "Income tax withheld", "Pension scheme"];

function layoutPayslip(
  employer: string,
  p: Person,
  today: Date,
  siret: string,
  ledger: Ledger & { kind: "payslip" },
): FinanceDocument {
  const a = amountFields(ledger);
  const cell = (field: string): Cell => ({ text: a[field] as string, field });
  const rows: Cell[][] = [
    ...ledger.earnings.map((_, i) => [{ text: EARNING_LABELS[i] as string }, cell(`earning${i}`), { text: "" }]),
    ...ledger.deductions.map((_, i) => [{ text: DEDUCTION_LABELS[i] as string }, { text: "" }, cell(`deduction${i}`)]),
  ];
  const month = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  return {
    kind: "payslip",
    issuer: [employer, `SIRET ${siret}`],
    title: "BULLETIN DE PAIE / PAYSLIP",
    recipient: [fullName(p), p.address[0], p.address[1]],
    meta: [
      ["Employee", { text: fullName(p), field: "employee" }],
      ["Pay period", { text: `${String(month.getUTCMonth() + 1).padStart(2, "0")}/${month.getUTCFullYear()}` }],
      ["Payment date", { text: formatDate(addDays(today, -3), "/") }],
    ],
    columns: [
      { header: "Item", width: 0.5, align: "left" },
      { header: "Earnings", width: 0.25, align: "right" },
      { header: "Deductions", width: 0.25, align: "right" },
    ],
    rows,
    pageBreaks: [],
    summary: [
      ["Gross pay", cell("gross")],
      ["Total deductions", cell("total_deductions")],
      ["Net pay", cell("net")],
    ],
    footer: ["Keep this payslip without time limit.", `${employer} - payroll department`],
    ledger,
  };
}

const ITEM_LABELS = [
  "Subscription",
  "Consumption peak hours",
  "Consumption off-peak hours",
  "Network fee",
  "Local taxes",
];

export function utilityBill(rng: Rng, p: Person, today: Date): FinanceDocument {
  const supplier = rng.pick(SUPPLIERS);
  const items = ITEM_LABELS.map(() => rng.int(300, 9_000));
  const ledger: Ledger = { kind: "utility_bill", items, vatRate: 20 };
  return layoutUtilityBill(supplier, p, today, `${rng.digits(10)}`, ledger);
}

function layoutUtilityBill(
  supplier: string[],
  p: Person,
  today: Date,
  accountNo: string,
  ledger: Ledger & { kind: "utility_bill" },
): FinanceDocument {
  const a = amountFields(ledger);
  const cell = (field: string): Cell => ({ text: a[field] as string, field });
  return {
    kind: "utility_bill",
    issuer: supplier,
    title: "FACTURE / INVOICE",
    recipient: [fullName(p), p.address[0], p.address[1]],
    meta: [
      ["Customer", { text: fullName(p), field: "customer" }],
      ["Supply address", { text: `${p.address[0]}, ${p.address[1]}`, field: "supply_address" }],
      ["Account number", { text: accountNo }],
      ["Invoice date", { text: formatDate(today, "/") }],
    ],
    columns: [
      { header: "Description", width: 0.7, align: "left" },
      { header: "Amount (EUR)", width: 0.3, align: "right" },
    ],
    rows: ledger.items.map((_, i) => [{ text: ITEM_LABELS[i] as string }, cell(`item${i}`)]),
    pageBreaks: [],
    summary: [
      ["Subtotal", cell("subtotal")],
      [`VAT ${ledger.vatRate}%`, cell("vat")],
      ["Total due", cell("total")],
    ],
    footer: ["Payment by direct debit on the 15th of next month.", `${supplier[0]} - ${supplier[1]} - ${supplier[2]}`],
    ledger,
  };
}

/** Every printed amount that follows from the ledger, by field name. */
export function amountFields(ledger: Ledger): Record<string, string> {
  const out: Record<string, string> = {};
  if (ledger.kind === "bank_statement") {
    const { layout } = ledger;
    const unsigned = (cents: number) => formatUnsigned(cents, layout.money);
    const signed = (cents: number) => formatSigned(cents, layout.money);
    let balance = ledger.opening;
    ledger.moves.forEach((m, i) => {
      const page = layout.pageBreaks.indexOf(i);
      if (page >= 0) out[`carried${page}`] = out[`brought${page}`] = signed(balance);
      balance += m;
      if (layout.movements === "signed") out[`row${i}.amount`] = signed(m);
      else out[m < 0 ? `row${i}.debit` : `row${i}.credit`] = unsigned(Math.abs(m));
      if (layout.balanceShown[i]) out[`row${i}.balance`] = signed(balance);
    });
    out.opening_balance = signed(ledger.opening);
    out.total_debits = unsigned(ledger.moves.filter((m) => m < 0).reduce((a, b) => a - b, 0));
    out.total_credits = unsigned(ledger.moves.filter((m) => m >= 0).reduce((a, b) => a + b, 0));
    out.closing_balance = signed(balance);
  } else if (ledger.kind === "payslip") {
    ledger.earnings.forEach((e, i) => {
      out[`earning${i}`] = money(e);
    });
    ledger.deductions.forEach((d, i) => {
      out[`deduction${i}`] = money(d);
    });
    const gross = ledger.earnings.reduce((a, b) => a + b, 0);
    const ded = ledger.deductions.reduce((a, b) => a + b, 0);
    out.gross = money(gross);
    out.total_deductions = money(ded);
    out.net = money(gross - ded);
  } else {
    ledger.items.forEach((c, i) => {
      out[`item${i}`] = money(c);
    });
    const sub = ledger.items.reduce((a, b) => a + b, 0);
    const vat = Math.round((sub * ledger.vatRate) / 100);
    out.subtotal = money(sub);
    out.vat = money(vat);
    out.total = money(sub + vat);
  }
  return out;
}
