// Dates that cannot be right: no such day (31 FEB, month 13), issued after expiry, born
// after issue, a statement period that ends before it starts, a transaction outside the
// statement period, an issue, birth, period or transaction date after the analysis date.
// How long an issuer makes a document valid, and on which day it ends, is national law
// that ICAO 9303 does not set: neither is judged (genuine licences broke such rules).
// Each is moderate evidence alone (a typo is possible); a date OCR may have misread (a
// line not read near-certainly, a look-alike letter in it) lowers coverage instead.
import type { DetectorResult, Evidence } from "../report.ts";
import { Tally } from "./arithmetic.ts";
import { labelledValues, type FieldKind } from "./fields.ts";
import {
  compareDates,
  dayNumber,
  findDates,
  fromUtc,
  inferOrder,
  readings,
  toIsoDate,
  type CalendarDate,
  type DateMatch,
  type DateOrder,
} from "./read-date.ts";
import { repairDigits, touchesRepair } from "./read-digits.ts";
import { readStatement } from "./statement.ts";
import { digitsReadSurely, isSure, type DocumentText, type TextLine } from "./text.ts";
import type { DetectorName } from "../manifest.ts";

export const DATES_DETECTOR = "dates" satisfies DetectorName;
const STRENGTH = 0.4;
/** A date up to a day ahead is a time zone, not the future. */
const FUTURE_SLACK_DAYS = 1;

const PERIOD = /\b(period|from|between|du|vom|periodo|del)\b/iu;
/** What joins the two ends of a period: "to", a dash, "until", "au", "bis", "al". */
const PERIOD_JOIN = /^\s*(to|-|–|—|until|till|through|thru|au|bis|al|and)\s*$/iu;

export interface DateCheckOptions {
  now: Date;
}

/** A date as read from one line, with whether it may be accused. */
interface ReadDate {
  match: DateMatch;
  line: TextLine;
  page: number;
  certain: boolean;
}

function readDates(line: TextLine, page: number): ReadDate[] {
  const { text, repaired } = repairDigits(line.text, line.source);
  return findDates(text).map((match) => ({
    match,
    line,
    page,
    certain:
      (isSure(line) || digitsReadSurely(line, match.index, match.text.length)) &&
      !touchesRepair(repaired, match.index, match.text.length),
  }));
}

/** Runs the date checks over a document's text lines. */
export function checkDates(document: DocumentText, options: DateCheckOptions): DetectorResult {
  const today = fromUtc(options.now);
  const all = document.pages.flatMap((page) => page.lines.flatMap((line) => readDates(line, page.page)));
  const order = inferOrder(all.map((d) => d.match));
  const context = { order, referenceYear: today.year };
  const tally = new Tally();
  const evidence: Evidence[] = [];
  const raise = (subject: ReadDate, message: string, measured?: string, threshold?: string) => {
    evidence.push({
      flag: "text_inconsistency",
      detector: DATES_DETECTOR,
      strength: STRENGTH,
      message,
      page: subject.page,
      box: subject.line.box,
      ...(measured ? { measured } : {}),
      ...(threshold ? { threshold } : {}),
    });
  };
  /**
   * Judges one rule over some dates: raised only if it holds for every reading and all were read
   * for certain.
   */
  const rule = (dates: ReadDate[], broken: (...days: CalendarDate[]) => boolean, onBroken: () => void) => {
    if (
      !violatedInEveryReading(
        dates.map((d) => d.match),
        order,
        today.year,
        broken,
      )
    ) {
      tally.add("agrees");
      return;
    }
    if (dates.every((d) => d.certain)) {
      tally.add("differs");
      onBroken();
    } else tally.add("uncertain");
  };

  // No such day. Numeric dates only with a four-digit year: "12.50.00" is a time or a number.
  for (const date of all) {
    if (!date.match.fixed && date.match.twoDigitYear) continue;
    if (date.match.first === 0 && date.match.second === 0) continue;
    if (readingsOf(date.match, context).length > 0) tally.add("agrees");
    // A day its month lacks in either order is what an edited day leaves (31.02); a date
    // that exists once its two parts are swapped is text read or joined wrong ("2024-26-01"
    // from a Dutch statement's row), not a date that cannot be.
    else if (readingsOf({ ...date.match, fixed: false }, { ...context, order: null }).length > 0)
      tally.add("uncertain");
    else if (date.certain) {
      tally.add("differs");
      raise(date, `"${date.match.text}" is not a calendar date`, date.match.text);
    } else tally.add("uncertain");
  }

  const valid = (d: ReadDate) => readingsOf(d.match, context).length > 0;
  const labelled = (kind: FieldKind) =>
    document.pages
      .flatMap((page) =>
        labelledValues(page)
          .filter((v) => v.kind === kind)
          .flatMap((v) =>
            readDates({ ...v.line, text: v.text }, page.page)
              .slice(0, 1)
              .map((d) => ({ ...d, line: v.line })),
          ),
      )
      .filter(valid);
  const [issue] = labelled("issueDate");
  const [expiry] = labelled("expiryDate");
  const [birth] = labelled("birthDate");
  if (issue && expiry)
    rule(
      [issue, expiry],
      (i, e) => compareDates(i!, e!) > 0,
      () => raise(issue, "The issue date is after the expiry date", issue.match.text, expiry.match.text),
    );
  if (birth && issue)
    rule(
      [birth, issue],
      (b, i) => compareDates(b!, i!) > 0,
      () => raise(birth, "The birth date is after the issue date", birth.match.text, issue.match.text),
    );

  const period = statementPeriod(document).filter(valid);
  const [start, end] = period;
  if (start && end)
    rule(
      [start, end],
      (s, e) => compareDates(e!, s!) < 0,
      () => raise(end, "The statement period ends before it starts", end.match.text, start.match.text),
    );

  const statement = readStatement(document);
  const transactions = (statement?.transactions ?? [])
    .map((t) => t.row.cells.flatMap((cell) => readDates(cell, t.row.page))[0])
    .filter((d): d is ReadDate => d !== undefined && valid(d));
  if (start && end) {
    for (const t of transactions) {
      rule(
        [t, start, end],
        (d, s, e) => compareDates(s!, e!) <= 0 && (compareDates(d!, s!) < 0 || compareDates(d!, e!) > 0),
        () =>
          raise(
            t,
            "A transaction is dated outside the statement period",
            t.match.text,
            `${start.match.text} – ${end.match.text}`,
          ),
      );
    }
  }

  // Only a date printed with its four-digit year can be in the future: two digits after a
  // month name are as often its day ("July 1 - July 31" on a Fidelity statement read as
  // July 2031).
  const future = [issue, birth, end, ...transactions].filter(
    (d): d is ReadDate => d !== undefined && !d.match.twoDigitYear,
  );
  for (const d of future) {
    rule(
      [d],
      (x) => dayNumber(x!) - dayNumber(today) > FUTURE_SLACK_DAYS,
      () => raise(d, "A date is after the analysis date", d.match.text, toIsoDate(today)),
    );
  }

  return {
    detector: DATES_DETECTOR,
    evidence,
    facts: {
      dates: all.length,
      order: order ?? "unknown",
      checked: tally.judged,
      uncertain: tally.uncertain,
      inconsistencies: evidence.length,
    },
    coverage: tally.coverage,
    measurements: { uncertainFindings: tally.uncertain },
  };
}

function readingsOf(match: DateMatch, context: { order: DateOrder | null; referenceYear: number }): CalendarDate[] {
  return readings(match, context.order, { referenceYear: context.referenceYear });
}

/**
 * True when a rule is broken under every way the dates can be read together: one order
 * for the whole document when it is known, each order in turn when not.
 */
function violatedInEveryReading(
  matches: DateMatch[],
  order: DateOrder | null,
  referenceYear: number,
  broken: (...days: CalendarDate[]) => boolean,
): boolean {
  const orders: DateOrder[] = order ? [order] : ["dmy", "mdy"];
  const options = { referenceYear };
  let anyReading = false;
  for (const o of orders) {
    const days = matches.map((m) => readings(m, m.fixed ? null : o, options)[0]);
    if (days.some((d) => d === undefined)) continue;
    anyReading = true;
    if (!broken(...(days as CalendarDate[]))) return false;
  }
  return anyReading;
}

/** The first "period … date to date" line: its start and end. */
function statementPeriod(document: DocumentText): ReadDate[] {
  for (const page of document.pages) {
    for (const line of page.lines) {
      const dates = readDates(line, page.page);
      if (dates.length !== 2) continue;
      const [start, end] = dates as [ReadDate, ReadDate];
      const before = line.text.slice(0, start.match.index);
      const between = line.text.slice(start.match.index + start.match.text.length, end.match.index);
      if (PERIOD.test(before) && PERIOD_JOIN.test(between)) return dates;
    }
  }
  return [];
}
