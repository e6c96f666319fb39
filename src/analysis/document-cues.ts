// The words and layouts that say what kind of document a text is, in English, German,
// French, Dutch, Spanish and Italian, and the titles of identity documents in most other
// European languages too. Each cue names the kind it speaks for; the decision
// between kinds is document-type.ts's. Text is matched folded (accents off, capitals),
// row by row, so a label and its amount read as separate OCR boxes still meet.
import { containsWithinOneEdit } from "./content/near-match.ts";
import { fold } from "./content/text.ts";

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
  | "statement"
  | "letter";

interface Cue {
  kind: CueKind;
  weight: number;
  label: string;
  pattern: RegExp;
  /** Its long phrases, letters only, found again within one OCR misread (nearHits). */
  near: string[];
}

/** A cue found in a text: what it matched and the row it stood in. */
export interface FoundCue {
  kind: CueKind;
  weight: number;
  label: string;
  word: string;
  /** The row, folded. */
  row: string;
  /** The row's place among the rows read. */
  index: number;
  /** The row is a sentence, not a heading, label or item. */
  prose: boolean;
}

/** Words shorter than this hide inside others ("RECU" in "RECURRING") and must stand alone. */
const SHORT_WORD = 6;

/**
 * One pattern for some words or phrases. OCR of photos and scans often drops the spaces
 * between words ("Accountnumber", "FACTURE/INVOICE"), so a space in a phrase matches any
 * run of spaces and punctuation, or none. Long words match anywhere, even glued to the
 * next; short ones only between non-letters.
 */
const words = (...phrases: string[]): Phrases => {
  const alternatives = phrases.map((phrase) => {
    const body = phrase.split(" ").join("[^A-Z0-9\\n]*");
    return lettersOf(phrase).length < SHORT_WORD ? `(?<![A-Z])${body}(?![A-Z])` : body;
  });
  return { pattern: new RegExp(`(?:${alternatives.join("|")})`, "gd"), phrases };
};

interface Phrases {
  pattern: RegExp;
  phrases: string[];
}

const lettersOf = (text: string) => text.replace(/[^A-Z0-9]/g, "");

/**
 * An amount as printed: 12.50, 1.234,56, 12,50 €; or in thousands without cents, as rupiah and yen
 * are (34,000). Not a date (12.08.1964, 2025.10.01).
 */
const AMOUNT = "(?<![.,]\\d)\\d[.,](?:\\d\\d|\\d{3})(?![.,]?\\d)";

/**
 * Words that count only on a row that also holds an amount: "CASH 20.00" on a till receipt, not
 * "cash" in a letter.
 */
const withAmount = (...phrases: string[]): RegExp =>
  new RegExp(`^(?=.*${AMOUNT}).*?(${words(...phrases).pattern.source})`, "gd");

/** A volume of water or gas: "12 m³", folded to M3 (a bare M3 is a Manchester postcode). */
const CUBIC_METRES = /\d\s?(M3)(?![A-Z0-9])/dg;
/**
 * The data row of a passport's or card's zone, however much of it was read: document
 * number, check digit, nationality, birth date, check digit, sex, expiry. It says an
 * identity document is in hand, not which: a title must say that.
 */
const ZONE_DATA = /(?<![A-Z0-9<])[A-Z0-9<]{9}[0-9O][A-Z<]{3}[0-9O]{6}[0-9O][MFX<][0-9O]{6}[0-9O]/dg;

/** A line's bandwidth: "300 Mbps", "1 Gbit/s". */
const BANDWIDTH = /\d\s?([MG]BPS|[MG]BIT\/S)(?![A-Z])/dg;

/**
 * Below this weight a cue is a word many papers use: it counts once a row, and not in a sentence.
 */
const SPECIFIC = 2;

/**
 * Phrases at least this long are also found with one letter misread: one edit cannot make
 * another word of the six languages into one of them.
 */
const NEAR_MIN_LETTERS = 12;

const cue = (kind: CueKind, weight: number, label: string, match: RegExp | Phrases): Cue =>
  match instanceof RegExp
    ? { kind, weight, label, pattern: match, near: [] }
    : {
        kind,
        weight,
        label,
        pattern: match.pattern,
        // Only cues that name a paper by themselves: a common word misread proves nothing.
        near: weight >= SPECIFIC ? match.phrases.map(lettersOf).filter((p) => p.length >= NEAR_MIN_LETTERS) : [],
      };

const CUES: Cue[] = [
  // Identity documents: titles, and the labels of their fields.
  cue(
    "passport",
    2,
    "passport title",
    words(
      "PASSPORT",
      "PASSEPORT",
      "REISEPASS",
      "PASAPORTE",
      "PASSAPORTO",
      "PASPOORT",
      // Other European languages: the title is printed in the issuer's language beside English
      // or French, and a photo's OCR may read only the first.
      "PASSAPORTE",
      "PASZPORT",
      "PASAPORT",
      "PASPORT",
      "CESTOVNI PAS",
      "CESTOVNY PAS",
      "PUTOVNICA",
      "POTNI LIST",
      "UTLEVEL",
    ),
  ),
  cue(
    "drivers_license",
    3,
    "driving licence title",
    words(
      "DRIVING LICENCE",
      "DRIVING LICENSE",
      "DRIVER S LICENSE",
      "DRIVER LICENSE",
      "FUHRERSCHEIN",
      "PERMIS DE CONDUIRE",
      "PERMISO DE CONDUCCION",
      "PERMISO DE CONDUCIR",
      "PATENTE DI GUIDA",
      "RIJBEWIJS",
    ),
  ),
  cue(
    "id",
    3,
    "identity card title",
    words(
      "IDENTITY CARD",
      "NATIONAL IDENTITY",
      "CARTE NATIONALE",
      "CARTE D IDENTITE",
      "PERSONALAUSWEIS",
      "DOCUMENTO NACIONAL DE IDENTIDAD",
      "CARTA D IDENTITA",
      "IDENTITEITSKAART",
      // Other European languages, as the cards print them (accents folded).
      "CARTAO DE CIDADAO",
      "BILHETE DE IDENTIDADE",
      "DOWOD OSOBISTY",
      "OBCANSKY PRUKAZ",
      "OBCIANSKY PREUKAZ",
      "SZEMELYI IGAZOLVANY",
      "CARTE DE IDENTITATE",
      "OSOBNA ISKAZNICA",
      "OSEBNA IZKAZNICA",
      "LICNA KARTA",
      "LETERNJOFTIM",
      "HENKILOKORTTI",
      "IDENTITETSKORT",
      "ISIKUTUNNISTUS",
      "PERSONAS APLIECIBA",
      "ASMENS TAPATYBES KORTELE",
      "KIMLIK KARTI",
      // Residence permits are identity cards of the same format (ICAO TD1).
      "RESIDENCE PERMIT",
      "PERMANENT RESIDENT",
      "AADHAAR",
      "UNIQUE IDENTIFICATION AUTHORITY",
      "AUFENTHALTSTITEL",
      "TITRE DE SEJOUR",
      "VERBLIJFSVERGUNNING",
      "PERMISO DE RESIDENCIA",
      "TARJETA DE RESIDENCIA",
      "PERMESSO DI SOGGIORNO",
    ),
  ),
  cue(
    "identity_field",
    1,
    "identity field label",
    words(
      "SURNAME",
      "GIVEN NAME",
      "FORENAMES",
      "DATE OF BIRTH",
      "DOB",
      "PLACE OF BIRTH",
      "COUNTRY OF BIRTH",
      "YEAR OF BIRTH",
      "NATIONALITY",
      "DATE OF EXPIRY",
      "DATE OF ISSUE",
      "SEX",
      "HGT",
      "EYES",
      "CARD EXPIRES",
      "VORNAMEN",
      "GEBURTSDATUM",
      "GEBURTSTAG",
      "GEBURTSORT",
      "STAATSANGEHORIGKEIT",
      "GULTIG BIS",
      "GESCHLECHT",
      "PRENOMS",
      "DATE DE NAISSANCE",
      "LIEU DE NAISSANCE",
      "NATIONALITE",
      "DATE D EXPIRATION",
      "DATE DE DELIVRANCE",
      "SEXE",
      "ACHTERNAAM",
      "VOORNAMEN",
      "GEBOORTEDATUM",
      "GEBOORTEPLAATS",
      "NATIONALITEIT",
      "GELDIG TOT",
      "GESLACHT",
      "APELLIDOS",
      "FECHA DE NACIMIENTO",
      "NACIONALIDAD",
      "FECHA DE CADUCIDAD",
      "VALIDO HASTA",
      "SEXO",
      "COGNOME",
      "DATA DI NASCITA",
      "LUOGO DI NASCITA",
      "CITTADINANZA",
      "NAZIONALITA",
      "DATA DI SCADENZA",
      "SESSO",
    ),
  ),
  cue("identity_field", 3, "machine-readable zone", ZONE_DATA),
  // European and American licences number their fields alike; 4a, 4b, 4c, 4d (issue,
  // expiry, authority, number) are a licence's own.
  cue("drivers_license", 1, "licence field number", /(?<![A-Z0-9])4[ABCD](?=[.\d\s]|ISS|EXP|NUMBER|DLN)/dg),

  // Supply of energy, water and telecommunications: what makes a bill a utility bill.
  cue(
    "utility",
    2,
    "supply",
    words(
      "ELECTRICITY",
      "NATURAL GAS",
      "GAS SUPPLY",
      "GAS CHARGES",
      "GAS USAGE",
      "GAS USED",
      "GAS BILL",
      "WATER SUPPLY",
      "WATER SERVICES",
      "WATER CHARGES",
      "WATER USAGE",
      "WATER BILL",
      "SEWERAGE",
      "WASTEWATER",
      "BROADBAND",
      "LINE RENTAL",
      "CALL CHARGES",
      "DATA USAGE",
      "ROAMING",
      "STROMRECHNUNG",
      "STROMLIEFERUNG",
      "STROMVERBRAUCH",
      "GASRECHNUNG",
      "ERDGAS",
      "WASSERRECHNUNG",
      "ABWASSER",
      "TELEFONRECHNUNG",
      "MOBILFUNK",
      "FESTNETZ",
      "STADTWERKE",
      "ENERGIEVERSORGUNG",
      "ELECTRICITE",
      "GAZ NATUREL",
      "FACTURE D EAU",
      "ASSAINISSEMENT",
      "FACTURE MOBILE",
      "FORFAIT MOBILE",
      "ELEKTRICITEIT",
      "ENERGIEREKENING",
      "AARDGAS",
      "WATERREKENING",
      "JAARAFREKENING",
      "ELECTRICIDAD",
      "FACTURA DE LUZ",
      "GAS NATURAL",
      "FACTURA DEL AGUA",
      "FACTURA DE AGUA",
      "TELEFONIA",
      "FIBRA OPTICA",
      "ENERGIA ELETTRICA",
      "BOLLETTA",
      "GAS NATURALE",
      "SERVIZIO IDRICO",
    ),
  ),
  cue(
    "utility",
    2,
    "metering",
    words(
      "KWH",
      "MWH",
      "METER READING",
      "METER NUMBER",
      "METER SERIAL",
      "STANDING CHARGE",
      "SUPPLY ADDRESS",
      "SUPPLY POINT",
      "MPAN",
      "MPRN",
      "ZAHLERSTAND",
      "ZAHLERNUMMER",
      "LIEFERSTELLE",
      "VERBRAUCHSSTELLE",
      "ARBEITSPREIS",
      "GRUNDPREIS",
      "MARKTLOKATION",
      "RELEVE DE COMPTEUR",
      "INDEX RELEVE",
      "COMPTEUR",
      "POINT DE LIVRAISON",
      "PUISSANCE SOUSCRITE",
      "ADRESSE DE FOURNITURE",
      "HEURES PLEINES",
      "HEURES CREUSES",
      "METERSTAND",
      "VASTRECHT",
      "LEVERINGSADRES",
      "EAN CODE",
      "NORMAALTARIEF",
      "DALTARIEF",
      "ENKELTARIEF",
      "LECTURA",
      "CONTADOR",
      "POTENCIA CONTRATADA",
      "PUNTO DE SUMINISTRO",
      "LETTURA",
      "CONTATORE",
      "POTENZA IMPEGNATA",
      "PUNTO DI FORNITURA",
      "CODICE POD",
      "CODICE PDR",
    ),
  ),
  cue("utility", 2, "cubic metres", CUBIC_METRES),
  cue("utility", 2, "bandwidth", BANDWIDTH),
  cue(
    "utility",
    1,
    "supply terms",
    words(
      "CONSUMPTION",
      "TARIFF",
      "BILLING PERIOD",
      "UTILITY",
      "NETWORK FEE",
      "ENERGY",
      "ELECTRIC",
      "SEWER",
      "SERVICE ADDRESS",
      "THERMS",
      "GALLONS",
      "CCF",
      "WIRELESS",
      "MONTHLY CHARGES",
      "PLAN CHARGES",
      "USAGE CHARGES",
      "OUTSIDE ALLOWANCE",
      "DATA USED",
      "INTERNET ACCESS",
      "INTERNET SERVICE",
      "MINUTES",
      "FIBRE",
      "FIBER",
      "VERBRAUCH",
      "TARIF",
      "NETZENTGELT",
      "ENERGIE",
      "GRUNDGEBUHR",
      "VERBINDUNGEN",
      "RUFNUMMER",
      "GLASFASER",
      "CONSOMMATION",
      "ABONNEMENT",
      "ACHEMINEMENT",
      "HORS FORFAIT",
      "COMMUNICATIONS",
      "APPELS",
      "VERBRUIK",
      "TARIEF",
      "NETBEHEER",
      "BELLEN",
      "GLASVEZEL",
      "CONSUMO",
      "TARIFA",
      "PERIODO DE FACTURACION",
      "ENERGIA",
      "SUMINISTRO",
      "LLAMADAS",
      "TARIFFA",
      "PERIODO DI FATTURAZIONE",
      "FORNITURA",
      "TRAFFICO",
      "CANONE",
      "LINEA FISSA",
      "FIBRA",
    ),
  ),

  // Invoices: a title, the seller's tax number, invoice fields, line items, what is due.
  cue("invoice", 2, "invoice title", words("INVOICE", "FACTURE", "FACTUUR", "FACTURA", "FATTURA")),
  // An Abrechnung is a settlement (of pay, of a year's energy), not an invoice.
  cue("invoice", 2, "invoice title", /(?<!AB)RECHNUNG/dg),
  cue(
    "invoice",
    1,
    "tax number",
    words(
      "VAT NO",
      "VAT REG",
      "VAT NUMBER",
      "UST ID",
      "UST IDNR",
      "STEUERNUMMER",
      "STEUER NR",
      "TVA INTRA",
      "N TVA",
      "NUMERO DE TVA",
      "SIRET",
      "BTW NR",
      "BTW NUMMER",
      "BTW ID",
      "KVK",
      "NIF",
      "CIF",
      "PARTITA IVA",
      "P IVA",
      "CODICE FISCALE",
    ),
  ),
  // A field that names the invoice says as much as its title.
  cue(
    "invoice",
    2,
    "invoice field",
    words(
      "INVOICE NUMBER",
      "INVOICE NO",
      "INVOICE DATE",
      "RECHNUNGSNUMMER",
      "RECHNUNGSDATUM",
      "NUMERO DE FACTURE",
      "DATE DE FACTURE",
      "FACTUURNUMMER",
      "FACTUURDATUM",
      "NUMERO DE FACTURA",
      "FECHA DE FACTURA",
      "NUMERO FATTURA",
      "DATA FATTURA",
    ),
  ),
  cue(
    "invoice",
    1,
    "payment terms",
    words(
      "DUE DATE",
      "PAYMENT TERMS",
      "BILL TO",
      "LEISTUNGSZEITRAUM",
      "ZAHLBAR BIS",
      "FALLIG",
      "DATE D ECHEANCE",
      "ECHEANCE",
      "VERVALDATUM",
      "VENCIMIENTO",
      "SCADENZA PAGAMENTO",
      "SCADENZA FATTURA",
    ),
  ),
  cue(
    "invoice",
    1,
    "line items",
    words(
      "UNIT PRICE",
      "QUANTITY",
      "QTY",
      "DESCRIPTION",
      "PRICE",
      "EINZELPREIS",
      "MENGE",
      "BEZEICHNUNG",
      "BESCHREIBUNG",
      "PREIS",
      "PRIX UNITAIRE",
      "QUANTITE",
      "DESIGNATION",
      "PRIX",
      "STUKPRIJS",
      "AANTAL",
      "OMSCHRIJVING",
      "PRIJS",
      "PRECIO UNITARIO",
      "CANTIDAD",
      "DESCRIPCION",
      "PRECIO",
      "PREZZO UNITARIO",
      "QUANTITA",
      "DESCRIZIONE",
      "PREZZO",
    ),
  ),
  cue(
    "invoice",
    1,
    "amount due",
    words(
      "TOTAL DUE",
      "AMOUNT DUE",
      "BALANCE DUE",
      "AMOUNT PAYABLE",
      "SUBTOTAL",
      "GESAMTBETRAG",
      "RECHNUNGSBETRAG",
      "ZU ZAHLEN",
      "ZAHLBETRAG",
      "NETTOBETRAG",
      "ZWISCHENSUMME",
      "MONTANT TTC",
      "TOTAL TTC",
      "TOTAL HT",
      "SOUS TOTAL",
      "NET A PAYER",
      "MONTANT A PAYER",
      "TOTAL A PAYER",
      "TE BETALEN",
      "TOTAAL",
      "SUBTOTAAL",
      "TOTAL A PAGAR",
      "IMPORTE TOTAL",
      "BASE IMPONIBLE",
      "TOTALE",
      "IMPORTO",
      "IMPONIBILE",
      "DA PAGARE",
    ),
  ),
  cue("invoice", 1, "tax on an amount", withAmount("VAT", "MWST", "UST", "TVA", "BTW", "IVA", "GST", "TAX")),
  cue("invoice", 1, "total", withAmount("TOTAL", "SUMME", "SUMA", "AMOUNT", "BETRAG", "MONTANT", "BEDRAG", "IMPORTE")),

  // Till receipts: a title, how it was paid, the change given.
  cue(
    "receipt",
    2,
    "receipt title",
    words(
      "RECEIPT",
      "KASSENBON",
      "KASSENBELEG",
      "QUITTUNG",
      "RECU",
      "TICKET DE CAISSE",
      "KASSABON",
      "KASSATICKET",
      "RECIBO",
      "TICKET DE COMPRA",
      "FACTURA SIMPLIFICADA",
      "RICEVUTA",
      "SCONTRINO",
      // The slip a card terminal prints.
      "CUSTOMER COPY",
      "CARDHOLDER COPY",
      "KUNDENBELEG",
      "TICKET CLIENT",
      "TICKET CB",
      "COPIA CLIENTE",
    ),
  ),
  cue(
    "receipt",
    1,
    "payment at the till",
    withAmount(
      "CASH",
      "CARD",
      "VISA",
      "MASTERCARD",
      "AMEX",
      "APPLE PAY",
      "GOOGLE PAY",
      "PAYPAL",
      "KREDITKARTE",
      "BAR",
      "BARGELD",
      "EC KARTE",
      "ESPECES",
      "CARTE BANCAIRE",
      "CB",
      "CONTANT",
      "PINNEN",
      "PIN",
      "EFECTIVO",
      "TARJETA",
      "CONTANTI",
      "CARTA",
      "BANCOMAT",
    ),
  ),
  cue(
    "receipt",
    1,
    "change given",
    withAmount("CHANGE", "RUCKGELD", "GEGEBEN", "RENDU", "MONNAIE", "WISSELGELD", "CAMBIO", "RESTO"),
  ),

  // Orders bought online: their confirmation is the receipt.
  cue(
    "receipt",
    1,
    "order",
    words(
      "ORDER NUMBER",
      "ORDER DATE",
      "ORDER TOTAL",
      "ORDER SUMMARY",
      "ITEMS ORDERED",
      "PAYMENT METHOD",
      "GRAND TOTAL",
      "BESTELLNUMMER",
      "BESTELLDATUM",
      "ZAHLUNGSART",
      "NUMERO DE COMMANDE",
      "MODE DE PAIEMENT",
      "BESTELNUMMER",
      "BETAALMETHODE",
      "NUMERO DE PEDIDO",
      "METODO DE PAGO",
      "NUMERO D ORDINE",
      "METODO DI PAGAMENTO",
    ),
  ),
  cue(
    "receipt",
    1,
    "payment confirmation",
    words(
      "PAYMENT RECEIPT",
      "PAYMENT CONFIRMATION",
      "TRANSACTION ID",
      "ZAHLUNGSBESTATIGUNG",
      "TRANSAKTIONSNUMMER",
      "CONFIRMATION DE PAIEMENT",
      "BETALINGSBEWIJS",
      "JUSTIFICANTE DE PAGO",
      "CONFERMA DI PAGAMENTO",
    ),
  ),
  cue(
    "receipt",
    1,
    "thanks for the visit",
    words(
      "THANK YOU FOR SHOPPING",
      "THANK YOU FOR YOUR VISIT",
      "THANKS FOR SHOPPING",
      "DANKE FUR IHREN EINKAUF",
      "VIELEN DANK FUR IHREN EINKAUF",
      "MERCI DE VOTRE VISITE",
      "REMERCIE DE VOTRE",
      "BEDANKT VOOR UW BEZOEK",
      "BEDANKT EN TOT ZIENS",
      "GRACIAS POR SU VISITA",
      "GRACIAS POR SU COMPRA",
      "GRAZIE PER LA VISITA",
      "GRAZIE E ARRIVEDERCI",
    ),
  ),
  cue(
    "receipt",
    1,
    "tip",
    withAmount("TIP", "GRATUITY", "SERVICE CHARGE", "TRINKGELD", "POURBOIRE", "FOOI", "PROPINA", "MANCIA"),
  ),

  // Tax forms and tax assessments.
  cue(
    "tax_form",
    3,
    "tax form",
    words(
      "FORM 1099",
      "1099 MISC",
      "1099 NEC",
      "1099 INT",
      "1099 DIV",
      "WAGE AND TAX STATEMENT",
      "FORM 1040",
      "END OF YEAR CERTIFICATE",
      "DETAILS OF EMPLOYEE LEAVING WORK",
      "SELF ASSESSMENT",
      "TAX RETURN",
      "STEUERBESCHEINIGUNG",
      "STEUERBESCHEID",
      "EINKOMMENSTEUERBESCHEID",
      "EINKOMMENSTEUERERKLARUNG",
      "AVIS D IMPOT",
      "AVIS D IMPOSITION",
      "IMPOT SUR LE REVENU",
      "DECLARATION DE REVENUS",
      "AANSLAG INKOMSTENBELASTING",
      "AANGIFTE INKOMSTENBELASTING",
      "JAAROPGAAF",
      "JAAROPGAVE",
      "DECLARACION DE LA RENTA",
      "MODELO 100",
      "CERTIFICADO DE RETENCIONES",
      "CERTIFICAZIONE UNICA",
      "MODELLO 730",
      "DICHIARAZIONE DEI REDDITI",
    ),
  ),
  // US forms printed with their hyphen ("W2" alone is a London postcode), the bare names of the
  // British ones.
  cue(
    "tax_form",
    2,
    "tax form number",
    /(?<![A-Z0-9])(?:W-2G?|W-4|W-9|1098(?:-[A-Z])?|P11D|P60|P45|SA302)(?![A-Z0-9])/dg,
  ),
  cue(
    "tax_form",
    1,
    "tax authority",
    words(
      "INTERNAL REVENUE SERVICE",
      "HMRC",
      "HM REVENUE",
      "FEDERAL INCOME TAX",
      "TAXABLE INCOME",
      "TAX CALCULATION",
      "TAX YEAR",
      "FINANZAMT",
      "EINKOMMENSTEUER",
      "DIRECTION GENERALE DES FINANCES PUBLIQUES",
      "REVENU FISCAL",
      "BELASTINGDIENST",
      "FISCAAL LOON",
      "AGENCIA TRIBUTARIA",
      "AGENZIA DELLE ENTRATE",
    ),
  ),

  // Payslips.
  cue(
    "payslip",
    2,
    "payslip title",
    words(
      "PAYSLIP",
      "PAY SLIP",
      "PAY STUB",
      "PAYSTUB",
      "PAY ADVICE",
      "PAY STATEMENT",
      "PAYCHECK",
      "DIRECT DEPOSIT ADVICE",
      "SALARY SLIP",
      "SALARY STATEMENT",
      "WAGE SLIP",
      "EARNINGS STATEMENT",
      "STATEMENT OF EARNINGS",
      "GEHALTSABRECHNUNG",
      "LOHNABRECHNUNG",
      "ENTGELTABRECHNUNG",
      "VERDIENSTABRECHNUNG",
      "BEZUGEMITTEILUNG",
      "BULLETIN DE PAIE",
      "BULLETIN DE SALAIRE",
      "FICHE DE PAIE",
      "LOONSTROOK",
      "SALARISSTROOK",
      "LOONSPECIFICATIE",
      "SALARISSPECIFICATIE",
      "RECIBO DE SALARIOS",
      "RECIBO DE SALARIO",
      "BUSTA PAGA",
      "CEDOLINO",
      "PROSPETTO PAGA",
    ),
  ),
  // Standing alone: a "denominación social" names a company on any Spanish paper.
  cue("payslip", 2, "payslip title", /(?<![A-Z])NOMINA(?![A-Z])/dg),
  cue(
    "payslip",
    2,
    "pay",
    words(
      "NET PAY",
      "GROSS PAY",
      "PAY PERIOD",
      "PAY DATE",
      "YEAR TO DATE",
      "TAX CODE",
      "NI NUMBER",
      "NATIONAL INSURANCE",
      "NETTO LOHN",
      "NETTO BEZUG",
      "NETTO VERDIENST",
      "AUSZAHLUNGSBETRAG",
      "BRUTTO LOHN",
      "GESAMT BRUTTO",
      "BRUTTO NETTO",
      "STEUERKLASSE",
      "SOZIALVERSICHERUNG",
      "LOHNSTEUER",
      "SALAIRE BRUT",
      "SALAIRE DE BASE",
      "NET IMPOSABLE",
      "COTISATIONS SALARIALES",
      "NET A PAYER AVANT IMPOT",
      "NET PAYE",
      "TOTAL DES RETENUES",
      "CSG DEDUCTIBLE",
      "BRUTOLOON",
      "NETTOLOON",
      "NETTO SALARIS",
      "BRUTO SALARIS",
      "LOONHEFFING",
      "VAKANTIEGELD",
      "NETTO UITBETALING",
      "SALARIO BASE",
      "DEVENGOS",
      "LIQUIDO A PERCIBIR",
      "TOTAL DEVENGADO",
      "SEGURIDAD SOCIAL",
      "IRPF",
      "COTIZACION",
      "RETRIBUZIONE",
      "NETTO IN BUSTA",
      "NETTO DEL MESE",
      "NETTO A PAGARE",
      "TOTALE COMPETENZE",
      "TOTALE TRATTENUTE",
      "IRPEF",
      "INPS",
      "LORDO",
    ),
  ),
  cue(
    "payslip",
    1,
    "employment",
    words(
      "SALARY",
      "PAYROLL",
      "EARNINGS",
      "DEDUCTIONS",
      "EMPLOYER",
      "EMPLOYEE",
      "YTD",
      "ARBEITGEBER",
      "ARBEITNEHMER",
      "GEHALT",
      "BEZUGE",
      "EMPLOYEUR",
      "SALARIE",
      "WERKGEVER",
      "WERKNEMER",
      "TRABAJADOR",
      "DATORE DI LAVORO",
      "DIPENDENTE",
    ),
  ),

  // Bank statements.
  cue(
    "statement",
    2,
    "statement title",
    words(
      "BANK STATEMENT",
      "ACCOUNT STATEMENT",
      "STATEMENT OF ACCOUNT",
      "STATEMENT PERIOD",
      "KONTOAUSZUG",
      "RELEVE DE COMPTE",
      "RELEVE BANCAIRE",
      "REKENINGAFSCHRIFT",
      "DAGAFSCHRIFT",
      "EXTRACTO BANCARIO",
      "EXTRACTO DE CUENTA",
      "ESTRATTO CONTO",
    ),
  ),
  cue(
    "statement",
    2,
    "balances",
    words(
      "OPENING BALANCE",
      "CLOSING BALANCE",
      "BEGINNING BALANCE",
      "ENDING BALANCE",
      "BALANCE BROUGHT FORWARD",
      "BALANCE CARRIED FORWARD",
      "PREVIOUS BALANCE",
      "NEW BALANCE",
      "CHECKING SUMMARY",
      "SAVINGS SUMMARY",
      "ACCOUNT SUMMARY",
      "CREDIT LIMIT",
      "MINIMUM PAYMENT",
      "ALTER KONTOSTAND",
      "NEUER KONTOSTAND",
      "ALTER SALDO",
      "NEUER SALDO",
      "ANCIEN SOLDE",
      "NOUVEAU SOLDE",
      "SOLDE CREDITEUR",
      "SOLDE DEBITEUR",
      "BEGINSALDO",
      "EINDSALDO",
      "VORIG SALDO",
      "NIEUW SALDO",
      "SALDO INICIAL",
      "SALDO FINAL",
      "SALDO ANTERIOR",
      "SALDO INIZIALE",
      "SALDO FINALE",
      "SALDO CONTABILE",
    ),
  ),
  cue(
    "statement",
    1,
    "account",
    words(
      "IBAN",
      "SORT CODE",
      "TOTAL DEBITS",
      "TOTAL CREDITS",
      "ACCOUNT HOLDER",
      "VALUE DATE",
      "CHECKING ACCOUNT",
      "SAVINGS ACCOUNT",
      "AVAILABLE BALANCE",
      "TRANSACTION DETAIL",
      "DEPOSITS AND ADDITIONS",
      "WITHDRAWALS",
      "KONTOINHABER",
      "KONTOSTAND",
      "BUCHUNGSTAG",
      "WERTSTELLUNG",
      "VERWENDUNGSZWECK",
      "SOLL HABEN",
      "TITULAIRE",
      "DATE DE VALEUR",
      "DATE VALEUR",
      "REKENINGHOUDER",
      "BOEKDATUM",
      "RENTEDATUM",
      "AF BIJ",
      "TITULAR",
      "FECHA VALOR",
      "FECHA OPERACION",
      "MOVIMIENTOS",
      "CARGO ABONO",
      "INTESTATARIO",
      "DATA VALUTA",
      "DATA CONTABILE",
      "MOVIMENTI",
      "DARE AVERE",
    ),
  ),

  // A letter's salutation or closing, at the start of its row. A letter that quotes a
  // surname or mentions a passport is no identity document; a bill with a covering letter
  // is still a bill, so this weighs nothing for papers.
  cue(
    "letter",
    0,
    "letter",
    new RegExp(
      `^\\s*(?:${[
        "DEAR",
        "YOURS SINCERELY",
        "YOURS FAITHFULLY",
        "KIND REGARDS",
        "SEHR GEEHRTE",
        "MIT FREUNDLICHEN GRUSSEN",
        "MADAME",
        "MONSIEUR",
        "CORDIALEMENT",
        "VEUILLEZ AGREER",
        "GEACHTE",
        "MET VRIENDELIJKE GROET",
        "ESTIMADO",
        "ESTIMADA",
        "ATENTAMENTE",
        "GENTILE",
        "EGREGIO",
        "CORDIALI SALUTI",
        "DISTINTI SALUTI",
      ]
        .map((phrase) => phrase.split(" ").join("\\s+"))
        .join("|")})(?![A-Z])`,
      "gd",
    ),
  ),
];

/** Item rows of a till receipt: a short name and a price at the end of a short row. */
const PRICED_ROW = /^.{1,26}\s-?[€$£]?\d{1,4}[.,]\d\d\s?[A-Z*€$£]{0,2}$/;
const MIN_PRICED_ROWS = 3;

/** Words in lower case that make a row a sentence: labels and headings are short or capitalised. */
const PROSE_WORDS = 5;
export const isProse = (row: string): boolean => (row.match(/(?<!\p{L})\p{Ll}\p{L}{2,}/gu)?.length ?? 0) >= PROSE_WORDS;

interface Hit {
  cue: Cue;
  start: number;
  end: number;
}

/** Where a cue's words stand in a row (the captured word of a row-wide pattern). */
const hitsIn = (row: string): Hit[] =>
  CUES.flatMap((cue) =>
    [...row.matchAll(cue.pattern)].map((match) => {
      const [start, end] = match.indices?.[1] ?? match.indices![0]!;
      return { cue, start, end };
    }),
  );

/**
 * The hits of a row that stand on their own, longest first: "RECHNUNG" inside
 * "STROMRECHNUNG" is the same word counted twice.
 */
const ownHits = (row: string): Hit[] => {
  const kept: Hit[] = [];
  for (const hit of hitsIn(row).sort((a, b) => b.end - b.start - (a.end - a.start))) {
    if (!kept.some((k) => hit.start >= k.start && hit.end <= k.end)) kept.push(hit);
  }
  return kept.sort((a, b) => a.start - b.start);
};

/**
 * Phrases of the specific cues that a row holds with one letter misread, lost or added, each
 * counted once in the text and not where it was found as printed (`seen`, keyed as findCues
 * keys them). The word shown starts with "~" so that an analyst sees it was read near.
 */
const nearHits = (row: string, prose: boolean, index: number, seen: Set<string>): FoundCue[] => {
  const letters = lettersOf(row);
  const found: FoundCue[] = [];
  for (const cue of CUES) {
    const phrase = cue.near.find((p) => !seen.has(`${cue.label}:${p}`) && containsWithinOneEdit(letters, p));
    if (!phrase) continue;
    seen.add(`${cue.label}:${phrase}`);
    found.push({ kind: cue.kind, weight: cue.weight, label: cue.label, word: `~${phrase}`, row, index, prose });
  }
  return found;
};

/**
 * Every cue in some rows of text, each cue's words counted once each. A lesser cue counts
 * once a row ("TARIFF NUMBER: TARIF_2022" is one tariff) and only outside sentences: "check
 * in 60 minutes before departure" on a flight booking is no telephone bill.
 */
export function findCues(rows: readonly string[]): FoundCue[] {
  const found: FoundCue[] = [];
  const seen = new Set<string>();
  // Each row folded and judged a sentence once, for the exact, near and priced passes.
  const read = rows.map((original, index) => ({ row: fold(original), prose: isProse(original), index }));
  for (const { row, prose, index } of read) {
    const lesser = new Set<string>();
    for (const { cue, start, end } of ownHits(row)) {
      if (cue.weight < SPECIFIC && cue.kind !== "letter" && (prose || lesser.has(cue.label))) continue;
      const word = lettersOf(row.slice(start, end));
      const key = `${cue.label}:${word}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (cue.weight < SPECIFIC) lesser.add(cue.label);
      found.push({ kind: cue.kind, weight: cue.weight, label: cue.label, word, row, index, prose });
    }
  }
  for (const { row, prose, index } of read) found.push(...nearHits(row, prose, index, seen));
  const priced = read.filter(({ row }) => PRICED_ROW.test(row.trim()));
  if (priced.length >= MIN_PRICED_ROWS)
    found.push({
      kind: "receipt",
      weight: 1,
      label: "item rows with prices",
      word: `${priced.length} rows`,
      row: priced[0]!.row,
      index: priced[0]!.index,
      prose: false,
    });
  return found;
}
