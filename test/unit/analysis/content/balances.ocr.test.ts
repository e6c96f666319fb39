import { describe, expect, test } from "bun:test";
import { checkBalances } from "../../../../src/analysis/content/balances.ts";
import { type CharacterReading, rowsOf } from "../../../../src/analysis/content/text.ts";
import {
  columnStatement,
  documentOf,
  type LineSpec,
  lineStatement,
  MARCH_MOVEMENTS,
  money,
  page,
  readingsOf,
  runningBalances,
} from "./fixtures.ts";
import { TWELVE_MOVEMENTS } from "./statement-layouts.ts";

const now = new Date("2024-06-01T00:00:00Z");
const flagsOf = (result: ReturnType<typeof checkBalances>) => result.evidence.map((e) => e.flag);
const genuine = () => columnStatement({ opening: 123_456, movements: MARCH_MOVEMENTS, totals: true });
const cellOf = (lines: LineSpec[], text: string) => lines.find((l) => l.text === text)!;

/** The cells of the genuine statement's salary row, as rowsOf groups them. */
const salaryRowOf = (lines: LineSpec[]) =>
  rowsOf(page(lines))
    .find((r) => r.cells.some((c) => c.text === "02/03/2024"))!
    .cells.map((c) => c.text);
const SALARY_ROW = ["02/03/2024", "Salary ACME LTD", money(254_000), money(123_456 + 254_000)];

describe("a photographed statement whose rows slope", () => {
  // 2.5 px down per 100 px right: the balance column sits ~20 px lower than its date, two
  // thirds of a row.
  const tilted = (lines: LineSpec[]) => lines.map((l) => ({ ...l, y: l.y + Math.round(0.025 * (l.x ?? 40)) }));

  test("is read row by row once the slope is taken out", () => {
    expect(salaryRowOf(tilted(genuine()))).toEqual(SALARY_ROW);
  });

  test("adds up and raises nothing", () => {
    const result = checkBalances(documentOf(page(tilted(genuine()))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.checked).toBe(8);
  });
});

describe("a statement photographed turned by five degrees", () => {
  // Rows rise 9 px per 100 px right, beyond what a search from level looks for: the balance
  // column stands about three rows above the date it belongs to. The text detector's turned
  // rectangles say how each line lies.
  const turned = (lines: LineSpec[], slope?: number) =>
    lines.map((l) => ({ ...l, y: l.y - Math.round(0.09 * (l.x ?? 40)), ...(slope !== undefined ? { slope } : {}) }));

  test("is read row by row at the slope its lines were detected at", () => {
    expect(salaryRowOf(turned(genuine(), -0.09))).toEqual(SALARY_ROW);
    expect(flagsOf(checkBalances(documentOf(page(turned(genuine(), -0.09))), { now }))).toEqual([]);
  });

  test("shows a raised salary on its row", () => {
    const raised = columnStatement({
      opening: 123_456,
      movements: MARCH_MOVEMENTS.map((m, i) => (i === 0 ? { ...m, cents: 294_000 } : m)),
      balances: runningBalances(123_456, MARCH_MOVEMENTS),
    });
    expect(flagsOf(checkBalances(documentOf(page(turned(raised, -0.09))), { now }))).toContain("balance_mismatch");
  });
});

describe("a photographed statement in perspective", () => {
  // Rows fall 6 px per 100 px at the top of the table and 2 px at the bottom, as on a page
  // photographed from below its middle: no one slope sets every row level.
  const movements = [
    ...TWELVE_MOVEMENTS,
    ...TWELVE_MOVEMENTS.map((m) => ({ ...m, date: m.date.replace(".03.", ".04.") })),
  ];
  const keystone = (lines: LineSpec[]) =>
    lines.map((l) => ({ ...l, y: l.y + Math.round((0.06 - (0.04 * (l.y - 200)) / 760) * (l.x ?? 40)) }));
  const statement = (balances?: number[]) =>
    keystone(columnStatement({ opening: 123_456, movements, ...(balances ? { balances } : {}) }));

  test("is read row by row, each row at its own slope", () => {
    const rows = rowsOf(page(statement()));
    const dated = rows.filter((r) => /^\d\d\.\d\d\.2024$/.test(r.cells[0]!.text));
    expect(dated).toHaveLength(24);
    for (const row of dated) expect(row.cells).toHaveLength(4);
  });

  test("adds up when genuine, and finds a balance changed near its top", () => {
    const genuine = checkBalances(documentOf(page(statement())), { now });
    expect(flagsOf(genuine)).toEqual([]);
    expect(genuine.facts.checked).toBe(25);
    const balances = runningBalances(123_456, movements);
    balances[1]! += 100_000;
    // The changed balance breaks the row it stands on and the next.
    expect(flagsOf(checkBalances(documentOf(page(statement(balances))), { now }))).toEqual([
      "balance_mismatch",
      "balance_mismatch",
    ]);
  });
});

describe("amounts OCR did not read do not make a sum look wrong", () => {
  test("a dated row whose amounts went unread breaks the running balance and the column totals", () => {
    const lines = genuine().filter(
      (l) => l.text !== money(-120_000) && l.text !== money(runningBalances(123_456, MARCH_MOVEMENTS)[1]!),
    );
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.transactions).toBe(5);
  });

  test("a row whose date OCR garbled (0403/2024) is read by the header's columns", () => {
    const lines = genuine();
    cellOf(lines, "04/03/2024").text = "0403/2024";
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.transactions).toBe(5);
    expect(result.facts.checked).toBe(8);

    const balances = runningBalances(123_456, MARCH_MOVEMENTS);
    balances[1]! += 100_000;
    const forged = columnStatement({ opening: 123_456, movements: MARCH_MOVEMENTS, balances, totals: true });
    cellOf(forged, "04/03/2024").text = "0403/2024";
    expect(flagsOf(checkBalances(documentOf(page(forged)), { now }))).toEqual(["balance_mismatch", "balance_mismatch"]);
  });

  test("a row whose date OCR garbled, with no header to place its figures, breaks the running balance", () => {
    const lines = lineStatement({
      opening: 123_456,
      movements: MARCH_MOVEMENTS,
      format: "uk",
      sign: (c, t) => (c < 0 ? `-${t}` : t),
    });
    lines[2]!.text = lines[2]!.text.replace("04/03/2024", "0403/2024").replace(/[\d,]+\.\d\d$/, "9,999.99");
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual([]);
  });

  test("a header read as Deblt still names the debit column, so debits are not taken for credits", () => {
    const lines = genuine().filter((l) => !l.text.startsWith("Total"));
    cellOf(lines, "Paid out").text = "Deblt";
    cellOf(lines, "Paid in").text = "Credit";
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.checked).toBe(6);
  });

  test("two transactions read as one row are left unjudged", () => {
    const lines = genuine();
    cellOf(lines, "04/03/2024").y = 260;
    cellOf(lines, "04/03/2024").x = 40;
    cellOf(lines, "02/03/2024").width = 60;
    cellOf(lines, "04/03/2024").x = 110;
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual([]);
  });

  test("a comma read as a point in 1,234.56 is read, but as a guess that never accuses", () => {
    const lines = genuine();
    const balance = cellOf(lines, money(123_456 + 254_000));
    balance.text = balance.text.replace(",", ".");
    const misread = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(misread)).toEqual([]);
    expect(misread.facts.checked).toBe(8);

    const wrong = genuine();
    const forged = cellOf(wrong, money(123_456 + 254_000));
    forged.text = "4.777.56";
    expect(flagsOf(checkBalances(documentOf(page(wrong)), { now }))).toEqual([]);
  });

  test("a bill item whose label went unread leaves the total unjudged", () => {
    const lines: LineSpec[] = [
      { text: "DESCRIPTION", y: 100 },
      { text: "Standing charge", y: 130 },
      { text: "12.40", x: 700, y: 130 },
      { text: "30.10", x: 700, y: 160 },
      { text: "Local taxes", y: 190 },
      { text: "5.00", x: 700, y: 190 },
      { text: "Subtotal", x: 500, y: 220 },
      { text: "99.99", x: 700, y: 220 },
    ];
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.checked).toBe(0);
  });

  // Rows 30 px apart, boxes 20 px high: OCR at 1600 pixels boxes a line in two thirds of its
  // pitch. The subtotal set one blank line apart (2.2 pitches) is layout; two lines apart
  // (3.2 pitches) is a line the reading may have missed.
  const bill = (subtotalY: number, subtotal: string): LineSpec[] => [
    { text: "DESCRIPTION", y: 100 },
    { text: "Standing charge", y: 130 },
    { text: "12.40", x: 700, y: 130 },
    { text: "Energy used", y: 160 },
    { text: "30.10", x: 700, y: 160 },
    { text: "Local taxes", y: 190 },
    { text: "5.00", x: 700, y: 190 },
    { text: "Subtotal", x: 500, y: subtotalY },
    { text: subtotal, x: 700, y: subtotalY },
    { text: "VAT 20%", x: 500, y: subtotalY + 30 },
    { text: "10.00", x: 700, y: subtotalY + 30 },
    { text: "Total due", x: 500, y: subtotalY + 60 },
    { text: (Number(subtotal) + 10).toFixed(2), x: 700, y: subtotalY + 60 },
  ];

  test("a subtotal one blank line below tightly boxed items is judged, however tight the boxes", () => {
    expect(checkBalances(documentOf(page(bill(256, "47.50"))), { now }).facts).toMatchObject({
      checked: 2,
      mismatches: 0,
    });
    const forged = checkBalances(documentOf(page(bill(256, "99.99"))), { now });
    expect(forged.evidence.map((e) => [e.flag, e.measured])).toEqual([["balance_mismatch", "99.99"]]);
  });

  test("a German subtotal read without its space (Summenetto) is judged", () => {
    const german = (subtotal: string) =>
      bill(256, subtotal).map((l) => (l.text === "Subtotal" ? { ...l, text: "Summenetto" } : l));
    expect(checkBalances(documentOf(page(german("47.50"))), { now }).facts).toMatchObject({
      checked: 2,
      mismatches: 0,
    });
    const forged = checkBalances(documentOf(page(german("99.99"))), { now });
    expect(forged.evidence.map((e) => [e.flag, e.measured])).toEqual([["balance_mismatch", "99.99"]]);
  });

  test("a subtotal two blank lines below its items is left unjudged: a line may have gone unread", () => {
    const result = checkBalances(documentOf(page(bill(286, "99.99"))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts).toMatchObject({ checked: 1, mismatches: 0 }); // the total due alone
  });
});

/**
 * The salary raised far beyond any misread (2,540.00 to 16,788.70), balances left as printed, its
 * row read at `confidence`.
 */
const raisedSalaryReadAt = (confidence: number): LineSpec[] =>
  columnStatement({
    opening: 123_456,
    movements: MARCH_MOVEMENTS.map((m, i) => (i === 0 ? { ...m, cents: 1_678_870 } : m)),
    balances: runningBalances(123_456, MARCH_MOVEMENTS),
    confidence: (row) => (row === 0 ? confidence : 0.98),
  });

describe("a forged amount far beyond any misread", () => {
  test("is reported when its row was read confidently", () => {
    const result = checkBalances(documentOf(page(raisedSalaryReadAt(0.92))), { now });
    expect(flagsOf(result)).toContain("balance_mismatch");
  });

  test("read with middling confidence is not read surely: it lowers coverage and accuses nothing", () => {
    const result = checkBalances(documentOf(page(raisedSalaryReadAt(0.85))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.uncertain).toBeGreaterThan(0);
    expect(result.coverage).toBeLessThan(1);
  });
});

describe("one digit changed by a forger, on a row OCR read at 0.95", () => {
  // The salary's 5 turned into a 3 (2,540.00 to 2,340.00), balances left as printed: the
  // difference is one digit, what a misread could also leave.
  const salaryWith = (characters?: (text: string) => LineSpec["characters"]): LineSpec[] => {
    const lines = columnStatement({
      opening: 123_456,
      movements: MARCH_MOVEMENTS.map((m, i) => (i === 0 ? { ...m, cents: 234_000 } : m)),
      balances: runningBalances(123_456, MARCH_MOVEMENTS),
      confidence: (row) => (row === 0 ? 0.95 : 0.98),
    });
    const salary = cellOf(lines, money(234_000));
    if (characters) for (const line of lines) line.characters = characters(line.text);
    expect(salary.text).toBe("2,340.00");
    return lines;
  };

  test("is reported when the recogniser read that digit beyond doubt and never thought of a 5", () => {
    const result = checkBalances(documentOf(page(salaryWith((text) => readingsOf(text)))), { now });
    expect(flagsOf(result)).toContain("balance_mismatch");
  });

  // The recogniser's reading of the changed digit (the 3), every other character read surely.
  const changedDigitRead = (reading: CharacterReading) => (text: string) =>
    readingsOf(text, text === "2,340.00" ? { 2: reading } : {});

  test.each([
    ["5 was the digit's runner-up", { probability: 0.93, alternatives: [{ character: "5", probability: 0.06 }] }],
    [
      "a letter was its only runner-up listed: the unlisted could be digits",
      { probability: 0.89, alternatives: [{ character: "B", probability: 0.08 }] },
    ],
  ])("is left unjudged when %s", (_, reading) => {
    const result = checkBalances(documentOf(page(salaryWith(changedDigitRead(reading)))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.uncertain).toBeGreaterThan(0);
  });

  test("is left unjudged when the digit itself was read unsurely", () => {
    const unsure = changedDigitRead({ probability: 0.6, alternatives: [{ character: "8", probability: 0.3 }] });
    expect(flagsOf(checkBalances(documentOf(page(salaryWith(unsure))), { now }))).toEqual([]);
  });

  test("is reported when the digit's doubt was a letter, which no amount holds (a recaptured statement's 8 or B)", () => {
    const letter = changedDigitRead({
      probability: 0.89,
      alternatives: [
        { character: "B", probability: 0.08 },
        { character: "8", probability: 0.004 },
        { character: "#", probability: 0.001 },
      ],
    });
    expect(flagsOf(checkBalances(documentOf(page(salaryWith(letter))), { now }))).toContain("balance_mismatch");
  });

  test("is left unjudged when the recogniser said nothing of its characters", () => {
    expect(flagsOf(checkBalances(documentOf(page(salaryWith())), { now }))).toEqual([]);
  });
});

describe("a raised salary on a row whose decimal mark the photo left in doubt", () => {
  // The salary raised from 2,540.00 to 2,940.00, balances left as printed. OCR read its cell at
  // 0.89 (the mean of its characters) only because it could not tell the decimal point from
  // another mark: every digit was read at 0.99.
  const POINT = 5; // "2,940.00"[5]
  const withMark = (alternative: string): LineSpec[] => {
    const lines = columnStatement({
      opening: 123_456,
      movements: MARCH_MOVEMENTS.map((m, i) => (i === 0 ? { ...m, cents: 294_000 } : m)),
      balances: runningBalances(123_456, MARCH_MOVEMENTS),
    });
    for (const line of lines) line.characters = readingsOf(line.text);
    const salary = cellOf(lines, money(294_000));
    expect(salary.text[POINT]).toBe(".");
    salary.characters = readingsOf(salary.text, {
      [POINT]: { probability: 0.2, alternatives: [{ character: alternative, probability: 0.75 }] },
    });
    salary.confidence = salary.characters.reduce((sum, c) => sum + c.probability, 0) / salary.text.length;
    expect(salary.confidence).toBeLessThan(0.9);
    return lines;
  };

  test("is reported when the doubt was only between a point and a comma", () => {
    expect(flagsOf(checkBalances(documentOf(page(withMark(","))), { now }))).toContain("balance_mismatch");
  });

  test("is left unjudged when the mark might have been something else", () => {
    const result = checkBalances(documentOf(page(withMark(":"))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.uncertain).toBeGreaterThan(0);
  });
});

describe("a payslip with its totals in one column at the right", () => {
  const slip = (baseSalary: string): LineSpec[] => [
    { text: "ITEM", x: 40, y: 100 },
    { text: "EARNINGS", x: 480, y: 100 },
    { text: "DEDUCTIONS", x: 680, y: 100 },
    { text: "Basesalary", y: 130 },
    { text: baseSalary, x: 560 - baseSalary.length * 10, y: 130 },
    { text: "Overtime", y: 160 },
    { text: "307.58", x: 500, y: 160 },
    { text: "Social security", y: 190 },
    { text: "244.52", x: 700, y: 190 },
    { text: "Income tax withheld", y: 220 },
    { text: "326.02", x: 700, y: 220 },
    { text: "Grosspay", y: 260 },
    { text: "3,501.20", x: 680, y: 260 },
    { text: "Totaldeductions", y: 290 },
    { text: "570.54", x: 700, y: 290 },
    { text: "Netpay", y: 320 },
    { text: "2,930.66", x: 680, y: 320 },
  ];

  test("sums each column under its header, labels read without spaces, and raises nothing", () => {
    const result = checkBalances(documentOf(page(slip("3,193.62"))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.checked).toBe(3);
  });

  test("an earning whose amount OCR garbled leaves gross pay unjudged", () => {
    const lines = slip("3,193.62").map((l) => (l.text === "3,193.62" ? { ...l, text: "3,.193.62" } : l));
    const result = checkBalances(documentOf(page(lines)), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.checked).toBe(1);
  });

  test("a raised base salary breaks gross pay", () => {
    const result = checkBalances(documentOf(page(slip("4,193.62"))), { now });
    expect(result.evidence.map((e) => [e.flag, e.measured])).toEqual([["balance_mismatch", "3501.20"]]);
  });
});

describe("a value OCR read below 0.75 confidence", () => {
  test("is a guess: however far off, it lowers coverage and accuses nothing (two stacked lines read as one)", () => {
    const result = checkBalances(documentOf(page(raisedSalaryReadAt(0.6))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.coverage).toBeLessThan(1);
  });
});
