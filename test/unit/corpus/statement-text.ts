// Reads a bank statement PDF back through its text layer, the way the analysis does, and
// runs the balance check over it: whatever layout and locale the generator drew, the
// check must understand the table.
import { checkBalances } from "../../../src/analysis/content/balances.ts";
import { startBudget } from "../../../src/analysis/detector.ts";
import { openPdf } from "../../../src/analysis/pdf/open.ts";
import { readPages, toDocumentTextPages } from "../../../src/analysis/pdf/page-content.ts";

export interface BalanceCheck {
  transactions: number;
  /** Whether the table was understood well enough to judge. */
  judged: boolean;
  /** Checks that do not add up. */
  mismatches: number;
}

export function checkStatementBalances(pdf: Uint8Array, now: Date): BalanceCheck {
  const { doc, pageCount } = openPdf(pdf);
  try {
    const { pages } = readPages(doc, pageCount, pageCount, startBudget(60_000));
    const result = checkBalances({ pages: toDocumentTextPages(pages) }, { now });
    return {
      transactions: Number(result.facts.transactions),
      judged: result.facts.judged === true,
      mismatches: result.evidence.length,
    };
  } finally {
    doc.destroy();
  }
}
