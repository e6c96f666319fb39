// How the external families print a payslip or a bill: amounts grouped and pointed the
// German (1.234,56), French (1 234,56) or English (1,234.56) way, dates as each country
// writes them, and labels in the document's language. (Statements come in their own
// layout's language and money style, finance/statement-layout.ts.)
import type { FinanceDocument } from "../finance/model.ts";

export const LOCALES = ["de", "fr", "en"] as const;
export type Locale = (typeof LOCALES)[number];

const SEPARATORS: Record<Locale, { group: string; decimal: string }> = {
  de: { group: ".", decimal: "," },
  fr: { group: " ", decimal: "," },
  en: { group: ",", decimal: "." },
};

/** The model prints amounts as 1,234.56 (money()); here in the locale's form. */
export function localAmount(text: string, locale: Locale): string {
  const m = /^(-?)(\d{1,3}(?:,\d{3})*)\.(\d{2})$/.exec(text);
  if (!m) return text;
  const { group, decimal } = SEPARATORS[locale];
  return `${m[1]}${(m[2] as string).replace(/,/g, group)}${decimal}${m[3]}`;
}

/** Dates the model writes dd/mm/yyyy; Germans write dots. */
function localDates(text: string, locale: Locale): string {
  return locale === "de" ? text.replace(/\b(\d{2})\/(\d{2})\/(\d{4})\b/g, "$1.$2.$3") : text;
}

// Every label the model prints on a payslip or bill, in German and French; the model's own
// English otherwise. The words are those real payroll offices and utilities print.
const LABELS: Record<Exclude<Locale, "en">, Record<string, string>> = {
  de: {
    "BULLETIN DE PAIE / PAYSLIP": "ENTGELTABRECHNUNG",
    "FACTURE / INVOICE": "RECHNUNG",
    Employee: "Mitarbeiter",
    "Pay period": "Abrechnungsmonat",
    "Payment date": "Auszahlung am",
    Item: "Lohnart",
    Earnings: "Bezüge",
    Deductions: "Abzüge",
    "Base salary": "Grundgehalt",
    Overtime: "Überstunden",
    "Transport allowance": "Fahrtkostenzuschuss",
    "Social security": "Sozialversicherung",
    "Unemployment insurance": "Arbeitslosenversicherung",
    "Income tax withheld": "Lohnsteuer",
    "Pension scheme": "Rentenversicherung",
    "Gross pay": "Bruttobezug",
    "Total deductions": "Summe Abzüge",
    "Net pay": "Auszahlungsbetrag",
    Customer: "Kunde",
    "Supply address": "Lieferadresse",
    "Account number": "Kundennummer",
    "Invoice date": "Rechnungsdatum",
    "Amount (EUR)": "Betrag (EUR)",
    Subscription: "Grundpreis",
    "Consumption peak hours": "Verbrauch HT",
    "Consumption off-peak hours": "Verbrauch NT",
    "Network fee": "Netzentgelt",
    "Local taxes": "Abgaben",
    Subtotal: "Summe netto",
    "VAT 20%": "MwSt. 20 %",
    "Total due": "Gesamtbetrag",
  },
  fr: {
    "BULLETIN DE PAIE / PAYSLIP": "BULLETIN DE PAIE",
    "FACTURE / INVOICE": "FACTURE",
    Employee: "Salarié",
    "Pay period": "Période de paie",
    "Payment date": "Date de paiement",
    Item: "Rubrique",
    Earnings: "Gains",
    Deductions: "Retenues",
    "Base salary": "Salaire de base",
    Overtime: "Heures supplémentaires",
    "Transport allowance": "Indemnité transport",
    "Social security": "Sécurité sociale",
    "Unemployment insurance": "Assurance chômage",
    "Income tax withheld": "Prélèvement à la source",
    "Pension scheme": "Retraite complémentaire",
    "Gross pay": "Salaire brut",
    "Total deductions": "Total des retenues",
    "Net pay": "Net à payer",
    Customer: "Client",
    "Supply address": "Adresse de fourniture",
    "Account number": "Numéro de compte",
    "Invoice date": "Date de facture",
    "Amount (EUR)": "Montant (EUR)",
    Subscription: "Abonnement",
    "Consumption peak hours": "Consommation heures pleines",
    "Consumption off-peak hours": "Consommation heures creuses",
    "Network fee": "Acheminement",
    "Local taxes": "Taxes locales",
    Subtotal: "Sous-total",
    "VAT 20%": "TVA 20 %",
    "Total due": "Total à payer",
  },
};

function label(text: string, locale: Locale): string {
  return locale === "en" ? text : (LABELS[locale][text] ?? text);
}

const cellText = (text: string, locale: Locale) => localDates(localAmount(text, locale), locale);

/** A payslip or bill in the locale: labels translated, amounts and dates in local form. */
export function localize(doc: FinanceDocument, locale: Locale): FinanceDocument {
  return {
    ...doc,
    title: label(doc.title, locale),
    meta: doc.meta.map(([name, cell]) => [label(name, locale), { ...cell, text: cellText(cell.text, locale) }]),
    columns: doc.columns.map((c) => ({ ...c, header: label(c.header, locale) })),
    rows: doc.rows.map((row) => row.map((cell) => ({ ...cell, text: label(cellText(cell.text, locale), locale) }))),
    summary: doc.summary.map(([name, cell]) => [label(name, locale), { ...cell, text: cellText(cell.text, locale) }]),
  };
}
