// The words and layouts that say what kind of document a text is, in English, German,
// French, Dutch, Spanish and Italian. Each cue names the kind it speaks for; the decision
// between kinds is document-type.ts's. Text is matched folded (accents off, capitals),
// row by row, so a label and its amount read as separate OCR boxes still meet.

/** What a cue is evidence of: an identity document, its field labels, or a kind of paper. */
export type CueKind =
  | "passport"
  | "id"
  | "drivers_license"
  | "identity_field"
  | "utility"
  | "invoice"
  | "receipt"
  | "tax_form"
  | "payslip"
  | "statement";

export interface Cue {
  kind: CueKind;
  weight: number;
  label: string;
  pattern: RegExp;
}

/** A cue found in a text: what it matched and the row it stood in. */
export interface FoundCue {
  kind: CueKind;
  weight: number;
  label: string;
  word: string;
  row: string;
}

/** Words shorter than this hide inside others ("RECU" in "RECURRING") and must stand alone. */
const SHORT_WORD = 6;

/**
 * One pattern for some words or phrases. OCR of photos and scans often drops the spaces
 * between words ("Accountnumber", "FACTURE/INVOICE"), so a space in a phrase matches any
 * run of spaces and punctuation, or none. Long words match anywhere, even glued to the
 * next; short ones only between non-letters.
 */
const words = (...phrases: string[]): RegExp => {
  const alternatives = phrases.map((phrase) => {
    const body = phrase.split(" ").join("[^A-Z0-9\\n]*");
    return phrase.replace(/[^A-Z0-9]/g, "").length < SHORT_WORD ? `(?<![A-Z])${body}(?![A-Z])` : body;
  });
  return new RegExp(`(?:${alternatives.join("|")})`, "g");
};

/** An amount as printed: 12.50, 1.234,56, 12,50 €. */
const AMOUNT = "\\d[.,]\\d\\d(?!\\d)";

/** Words that count only on a row that also holds an amount: "CASH 20.00" on a till receipt, not "cash" in a letter. */
const withAmount = (...phrases: string[]): RegExp => new RegExp(`^(?=.*${AMOUNT}).*?(${words(...phrases).source})`, "g");

/** A volume of water or gas: "12 m³", folded to M3 (a bare M3 is a Manchester postcode). */
const CUBIC_METRES = /\d\s?(M3)(?![A-Z0-9])/g;

const cue = (kind: CueKind, weight: number, label: string, pattern: RegExp): Cue => ({ kind, weight, label, pattern });

export const CUES: Cue[] = [
  // Identity documents: titles, and the labels of their fields.
  cue("passport", 2, "passport title", words("PASSPORT", "PASSEPORT", "REISEPASS", "PASAPORTE", "PASSAPORTO", "PASPOORT")),
  cue(
    "drivers_license",
    3,
    "driving licence title",
    words("DRIVING LICENCE", "DRIVING LICENSE", "DRIVERS LICENSE", "DRIVER LICENSE", "FUHRERSCHEIN", "PERMIS DE CONDUIRE", "PERMISO DE CONDUCCION", "PERMISO DE CONDUCIR", "PATENTE DI GUIDA", "RIJBEWIJS"),
  ),
  cue(
    "id",
    3,
    "identity card title",
    words("IDENTITY CARD", "NATIONAL IDENTITY", "CARTE NATIONALE", "CARTE D IDENTITE", "PERSONALAUSWEIS", "DOCUMENTO NACIONAL DE IDENTIDAD", "CARTA D IDENTITA", "IDENTITEITSKAART"),
  ),
  cue(
    "identity_field",
    1,
    "identity field label",
    words(
      "SURNAME", "GIVEN NAMES", "FORENAMES", "DATE OF BIRTH", "PLACE OF BIRTH", "NATIONALITY", "DATE OF EXPIRY", "DATE OF ISSUE",
      "VORNAMEN", "GEBURTSDATUM", "GEBURTSORT", "STAATSANGEHORIGKEIT", "GULTIG BIS",
      "PRENOMS", "DATE DE NAISSANCE", "LIEU DE NAISSANCE", "NATIONALITE", "DATE D EXPIRATION", "DATE DE DELIVRANCE",
      "ACHTERNAAM", "VOORNAMEN", "GEBOORTEDATUM", "GEBOORTEPLAATS", "NATIONALITEIT", "GELDIG TOT",
      "APELLIDOS", "FECHA DE NACIMIENTO", "NACIONALIDAD", "FECHA DE CADUCIDAD", "VALIDO HASTA",
      "COGNOME", "DATA DI NASCITA", "LUOGO DI NASCITA", "CITTADINANZA", "NAZIONALITA", "DATA DI SCADENZA",
    ),
  ),

  // Supply of energy, water and telecommunications: what makes a bill a utility bill.
  cue(
    "utility",
    2,
    "supply",
    words(
      "ELECTRICITY", "NATURAL GAS", "GAS SUPPLY", "WATER SUPPLY", "WATER SERVICES", "WATER CHARGES", "SEWERAGE", "WASTEWATER", "BROADBAND", "LINE RENTAL", "CALL CHARGES", "DATA USAGE", "ROAMING",
      "STROMRECHNUNG", "STROMLIEFERUNG", "STROMVERBRAUCH", "GASRECHNUNG", "ERDGAS", "WASSERRECHNUNG", "ABWASSER", "TELEFONRECHNUNG", "MOBILFUNK", "FESTNETZ", "STADTWERKE", "ENERGIEVERSORGUNG",
      "ELECTRICITE", "GAZ NATUREL", "FACTURE D EAU", "ASSAINISSEMENT", "FACTURE MOBILE", "FORFAIT MOBILE",
      "ELEKTRICITEIT", "ENERGIEREKENING", "AARDGAS", "WATERREKENING", "JAARAFREKENING",
      "ELECTRICIDAD", "FACTURA DE LUZ", "GAS NATURAL", "FACTURA DEL AGUA", "FACTURA DE AGUA", "TELEFONIA", "FIBRA OPTICA",
      "ENERGIA ELETTRICA", "BOLLETTA", "GAS NATURALE", "SERVIZIO IDRICO",
    ),
  ),
  cue(
    "utility",
    2,
    "metering",
    words(
      "KWH", "MWH", "METER READING", "METER NUMBER", "METER SERIAL", "STANDING CHARGE", "SUPPLY ADDRESS", "SUPPLY POINT", "MPAN", "MPRN",
      "ZAHLERSTAND", "ZAHLERNUMMER", "LIEFERSTELLE", "VERBRAUCHSSTELLE", "ARBEITSPREIS", "GRUNDPREIS", "MARKTLOKATION",
      "RELEVE DE COMPTEUR", "INDEX RELEVE", "COMPTEUR", "POINT DE LIVRAISON", "PUISSANCE SOUSCRITE",
      "METERSTAND", "VASTRECHT", "LEVERINGSADRES", "EAN CODE",
      "LECTURA", "CONTADOR", "POTENCIA CONTRATADA", "PUNTO DE SUMINISTRO",
      "LETTURA", "CONTATORE", "POTENZA IMPEGNATA", "PUNTO DI FORNITURA", "CODICE POD", "CODICE PDR",
    ),
  ),
  cue("utility", 2, "cubic metres", CUBIC_METRES),
  cue(
    "utility",
    1,
    "supply terms",
    words(
      "CONSUMPTION", "TARIFF", "BILLING PERIOD", "UTILITY", "NETWORK FEE", "ENERGY",
      "VERBRAUCH", "TARIF", "NETZENTGELT", "ENERGIE",
      "CONSOMMATION", "ABONNEMENT",
      "VERBRUIK", "TARIEF", "NETBEHEER",
      "CONSUMO", "TARIFA", "PERIODO DE FACTURACION", "ENERGIA", "SUMINISTRO",
      "TARIFFA", "PERIODO DI FATTURAZIONE", "FORNITURA",
    ),
  ),

  // Invoices: a title, the seller's tax number, invoice fields, line items, what is due.
  cue("invoice", 2, "invoice title", words("INVOICE", "RECHNUNG", "FACTURE", "FACTUUR", "FACTURA", "FATTURA")),
  cue(
    "invoice",
    1,
    "tax number",
    words("VAT NO", "VAT REG", "VAT NUMBER", "UST ID", "UST IDNR", "STEUERNUMMER", "STEUER NR", "TVA INTRA", "N TVA", "NUMERO DE TVA", "SIRET", "BTW NR", "BTW NUMMER", "BTW ID", "KVK", "NIF", "CIF", "PARTITA IVA", "P IVA", "CODICE FISCALE"),
  ),
  cue(
    "invoice",
    1,
    "invoice field",
    words(
      "INVOICE NUMBER", "INVOICE NO", "INVOICE DATE", "DUE DATE", "PAYMENT TERMS", "BILL TO",
      "RECHNUNGSNUMMER", "RECHNUNGSDATUM", "LEISTUNGSZEITRAUM", "ZAHLBAR BIS", "FALLIG",
      "NUMERO DE FACTURE", "DATE DE FACTURE", "DATE D ECHEANCE", "ECHEANCE",
      "FACTUURNUMMER", "FACTUURDATUM", "VERVALDATUM",
      "NUMERO DE FACTURA", "FECHA DE FACTURA", "VENCIMIENTO",
      "NUMERO FATTURA", "DATA FATTURA", "SCADENZA PAGAMENTO", "SCADENZA FATTURA",
    ),
  ),
  cue(
    "invoice",
    1,
    "line items",
    words("UNIT PRICE", "QUANTITY", "QTY", "EINZELPREIS", "MENGE", "PRIX UNITAIRE", "QUANTITE", "STUKPRIJS", "AANTAL", "PRECIO UNITARIO", "CANTIDAD", "PREZZO UNITARIO", "QUANTITA"),
  ),
  cue(
    "invoice",
    1,
    "amount due",
    words(
      "TOTAL DUE", "AMOUNT DUE", "BALANCE DUE", "AMOUNT PAYABLE", "SUBTOTAL",
      "GESAMTBETRAG", "RECHNUNGSBETRAG", "ZU ZAHLEN", "ZAHLBETRAG", "NETTOBETRAG", "ZWISCHENSUMME",
      "MONTANT TTC", "TOTAL TTC", "TOTAL HT", "NET A PAYER", "MONTANT A PAYER",
      "TE BETALEN", "TOTAAL", "SUBTOTAAL",
      "TOTAL A PAGAR", "IMPORTE TOTAL", "BASE IMPONIBLE",
      "TOTALE", "IMPORTO", "IMPONIBILE", "DA PAGARE",
    ),
  ),
  cue("invoice", 1, "tax on an amount", withAmount("VAT", "MWST", "UST", "TVA", "BTW", "IVA", "SALES TAX")),
  cue("invoice", 1, "total", withAmount("TOTAL", "SUMME", "SUMA")),

  // Till receipts: a title, how it was paid, the change given.
  cue(
    "receipt",
    2,
    "receipt title",
    words("RECEIPT", "KASSENBON", "KASSENBELEG", "QUITTUNG", "RECU", "TICKET DE CAISSE", "KASSABON", "KASSATICKET", "RECIBO", "TICKET DE COMPRA", "FACTURA SIMPLIFICADA", "RICEVUTA", "SCONTRINO"),
  ),
  cue(
    "receipt",
    1,
    "payment at the till",
    withAmount("CASH", "CARD", "VISA", "MASTERCARD", "BAR", "BARGELD", "EC KARTE", "ESPECES", "CARTE BANCAIRE", "CB", "CONTANT", "PINNEN", "PIN", "EFECTIVO", "TARJETA", "CONTANTI", "CARTA", "BANCOMAT"),
  ),
  cue("receipt", 1, "change given", withAmount("CHANGE", "RUCKGELD", "GEGEBEN", "RENDU", "MONNAIE", "WISSELGELD", "CAMBIO", "RESTO")),

  // Tax forms and tax assessments.
  cue(
    "tax_form",
    3,
    "tax form",
    words(
      "FORM 1099", "1099 MISC", "1099 NEC", "1099 INT", "1099 DIV", "WAGE AND TAX STATEMENT", "FORM 1040", "END OF YEAR CERTIFICATE", "DETAILS OF EMPLOYEE LEAVING WORK", "SELF ASSESSMENT", "TAX RETURN",
      "STEUERBESCHEINIGUNG", "STEUERBESCHEID", "EINKOMMENSTEUERBESCHEID", "EINKOMMENSTEUERERKLARUNG",
      "AVIS D IMPOT", "IMPOT SUR LE REVENU", "DECLARATION DE REVENUS",
      "AANSLAG INKOMSTENBELASTING", "AANGIFTE INKOMSTENBELASTING",
      "DECLARACION DE LA RENTA", "MODELO 100", "CERTIFICADO DE RETENCIONES",
      "CERTIFICAZIONE UNICA", "MODELLO 730", "DICHIARAZIONE DEI REDDITI",
    ),
  ),
  // Printed with its hyphen ("W2" alone is a London postcode), or the bare names of the British forms.
  cue("tax_form", 2, "tax form number", /(?<![A-Z0-9])(?:W-2|P60|P45)(?![A-Z0-9])/g),
  cue(
    "tax_form",
    1,
    "tax authority",
    words("INTERNAL REVENUE SERVICE", "HMRC", "FINANZAMT", "DIRECTION GENERALE DES FINANCES PUBLIQUES", "BELASTINGDIENST", "AGENCIA TRIBUTARIA", "AGENZIA DELLE ENTRATE", "FEDERAL INCOME TAX", "TAXABLE INCOME"),
  ),

  // Payslips.
  cue(
    "payslip",
    2,
    "payslip title",
    words(
      "PAYSLIP", "PAY SLIP", "PAY STUB", "PAYSTUB", "PAY ADVICE", "EARNINGS STATEMENT", "STATEMENT OF EARNINGS",
      "GEHALTSABRECHNUNG", "LOHNABRECHNUNG", "ENTGELTABRECHNUNG", "VERDIENSTABRECHNUNG", "BEZUGEMITTEILUNG",
      "BULLETIN DE PAIE", "BULLETIN DE SALAIRE", "FICHE DE PAIE",
      "LOONSTROOK", "SALARISSTROOK", "LOONSPECIFICATIE", "SALARISSPECIFICATIE",
      "NOMINA", "RECIBO DE SALARIOS", "RECIBO DE SALARIO",
      "BUSTA PAGA", "CEDOLINO", "PROSPETTO PAGA",
    ),
  ),
  cue(
    "payslip",
    2,
    "pay",
    words(
      "NET PAY", "GROSS PAY", "PAY PERIOD", "PAY DATE", "YEAR TO DATE", "TAX CODE", "NI NUMBER", "NATIONAL INSURANCE",
      "NETTOLOHN", "NETTOBEZUG", "NETTOVERDIENST", "AUSZAHLUNGSBETRAG", "BRUTTOLOHN", "GESAMTBRUTTO", "STEUERKLASSE", "SOZIALVERSICHERUNG", "LOHNSTEUER",
      "SALAIRE BRUT", "SALAIRE DE BASE", "NET IMPOSABLE", "COTISATIONS SALARIALES", "NET A PAYER AVANT IMPOT",
      "BRUTOLOON", "NETTOLOON", "NETTO SALARIS", "BRUTO SALARIS", "LOONHEFFING", "VAKANTIEGELD",
      "SALARIO BASE", "DEVENGOS", "LIQUIDO A PERCIBIR", "TOTAL DEVENGADO", "SEGURIDAD SOCIAL",
      "RETRIBUZIONE", "NETTO IN BUSTA", "NETTO DEL MESE", "TOTALE COMPETENZE", "TOTALE TRATTENUTE", "IMPONIBILE IRPEF",
    ),
  ),
  cue("payslip", 1, "employment", words("SALARY", "EARNINGS", "DEDUCTIONS", "EMPLOYER", "EMPLOYEE", "YTD", "ARBEITGEBER", "ARBEITNEHMER", "EMPLOYEUR", "SALARIE", "WERKGEVER", "WERKNEMER", "TRABAJADOR", "DATORE DI LAVORO", "DIPENDENTE")),

  // Bank statements.
  cue(
    "statement",
    2,
    "statement title",
    words(
      "BANK STATEMENT", "ACCOUNT STATEMENT", "STATEMENT OF ACCOUNT", "STATEMENT PERIOD",
      "KONTOAUSZUG", "RELEVE DE COMPTE", "RELEVE BANCAIRE", "REKENINGAFSCHRIFT", "DAGAFSCHRIFT",
      "EXTRACTO BANCARIO", "EXTRACTO DE CUENTA", "ESTRATTO CONTO",
    ),
  ),
  cue(
    "statement",
    2,
    "balances",
    words(
      "OPENING BALANCE", "CLOSING BALANCE", "BALANCE BROUGHT FORWARD", "BALANCE CARRIED FORWARD", "PREVIOUS BALANCE", "NEW BALANCE",
      "ALTER KONTOSTAND", "NEUER KONTOSTAND", "ALTER SALDO", "NEUER SALDO",
      "ANCIEN SOLDE", "NOUVEAU SOLDE", "SOLDE CREDITEUR", "SOLDE DEBITEUR",
      "BEGINSALDO", "EINDSALDO", "VORIG SALDO", "NIEUW SALDO",
      "SALDO INICIAL", "SALDO FINAL", "SALDO ANTERIOR",
      "SALDO INIZIALE", "SALDO FINALE", "SALDO CONTABILE",
    ),
  ),
  cue(
    "statement",
    1,
    "account",
    words("IBAN", "SORT CODE", "TOTAL DEBITS", "TOTAL CREDITS", "ACCOUNT HOLDER", "KONTOINHABER", "TITULAIRE", "REKENINGHOUDER", "TITULAR", "INTESTATARIO", "SOLL HABEN", "AF BIJ", "CARGO ABONO", "DARE AVERE"),
  ),
];

/** Item rows of a till receipt: a short name and a price at the end of a short row. */
const PRICED_ROW = new RegExp(`^.{1,26}\\s-?\\d{1,4}[.,]\\d\\d\\s?[A-Z*€$£]{0,2}$`);
const MIN_PRICED_ROWS = 3;

/** Every cue in some rows of folded text, each cue's words counted once each. */
export function findCues(rows: readonly string[]): FoundCue[] {
  const found: FoundCue[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const c of CUES) {
      for (const match of row.matchAll(c.pattern)) {
        const word = (match[1] ?? match[0]).replace(/[^A-Z0-9]/g, "");
        const key = `${c.label}:${word}`;
        if (seen.has(key)) continue;
        seen.add(key);
        found.push({ kind: c.kind, weight: c.weight, label: c.label, word, row });
      }
    }
  }
  const priced = rows.filter((row) => PRICED_ROW.test(row.trim()));
  if (priced.length >= MIN_PRICED_ROWS) found.push({ kind: "receipt", weight: 1, label: "item rows with prices", word: `${priced.length} rows`, row: priced[0]! });
  return found;
}
