// Text of real-looking documents as OCR or a PDF text layer gives it, one row a line, in
// the six languages the classifier reads. Each names the type it must get and, for
// financial papers, the kind its basis must name.
import type { DocumentType } from "../../../src/analysis/flags";

export interface Sample {
  name: string;
  type: DocumentType;
  /** The financial paper the basis names ("invoice", "payslip"...). */
  kind?: string;
  text: string;
}

const sample = (name: string, type: DocumentType, kind: string | undefined, ...rows: string[]): Sample => ({ name, type, ...(kind ? { kind } : {}), text: rows.join("\n") });

export const INVOICES: Sample[] = [
  sample("an English invoice", "financial", "invoice",
    "Brightline Design Ltd", "14 Carver Street, Sheffield S1 4FS", "VAT Reg No. GB 284 1173 62", "INVOICE", "Invoice No: INV-2025-0412", "Invoice date: 03/11/2025",
    "Bill to: Harbour Cafe Ltd", "Description  Qty  Unit price  Amount", "Logo design  1  450.00  450.00", "Business cards (500)  2  35.00  70.00",
    "Subtotal  520.00", "VAT 20%  104.00", "Total due  £624.00", "Payment terms: 30 days"),
  sample("a tax invoice read without spaces", "financial", "invoice",
    "TAXINVOICE", "ABN 51 824 753 556", "Invoicenumber 10023", "Qty Description UnitPrice Total", "3 A4 paper ream 6.50 19.50", "GST 1.95", "AmountDue $21.45"),
  sample("a German Rechnung", "financial", "invoice",
    "Elektro Huber GmbH · Lindenstraße 4 · 80331 München", "Rechnung", "Rechnungsnummer: RE-2025-1187", "Rechnungsdatum: 12.11.2025",
    "USt-IdNr.: DE 812 345 678", "Pos.  Bezeichnung  Menge  Einzelpreis  Gesamt", "1  Installation Steckdosen  6  45,00  270,00",
    "Nettobetrag  270,00 €", "zzgl. 19 % MwSt.  51,30 €", "Gesamtbetrag  321,30 €", "Zahlbar bis 26.11.2025 ohne Abzug"),
  sample("a French facture", "financial", "invoice",
    "Atelier Morel SARL", "SIRET 812 456 789 00021", "N° TVA intracommunautaire FR 45 812456789", "FACTURE N° F-2025-0318", "Date de facture : 05/10/2025",
    "Désignation  Quantité  Prix unitaire HT  Total HT", "Réparation porte  1  180,00  180,00", "Total HT  180,00 €", "TVA 20 %  36,00 €", "Montant TTC  216,00 €", "Échéance : 04/11/2025"),
  sample("a Dutch factuur", "financial", "invoice",
    "Bakker Installatietechniek B.V.", "KvK 58213749", "BTW-nummer NL8542.11.873.B01", "FACTUUR", "Factuurnummer 2025-0771", "Factuurdatum 18-09-2025",
    "Omschrijving  Aantal  Stukprijs  Bedrag", "Onderhoud cv-ketel  1  89,00  89,00", "Subtotaal  89,00", "BTW 21%  18,69", "Totaal te betalen  € 107,69", "Vervaldatum 02-10-2025"),
  sample("a Spanish factura", "financial", "invoice",
    "Reformas Ortega S.L.", "CIF B-86321457", "FACTURA", "Número de factura: 2025/0456", "Fecha de factura: 21/10/2025",
    "Concepto  Cantidad  Precio unitario  Importe", "Pintura salón  1  640,00  640,00", "Base imponible  640,00 €", "IVA 21%  134,40 €", "Total a pagar  774,40 €"),
  sample("an Italian fattura", "financial", "invoice",
    "Studio Tecnico Rinaldi", "Partita IVA 01234567890", "FATTURA N. 118/2025", "Data fattura: 07/11/2025",
    "Descrizione  Quantità  Prezzo unitario  Importo", "Consulenza tecnica  4  75,00  300,00", "Imponibile  300,00", "IVA 22%  66,00", "Totale documento  € 366,00"),
];

export const RECEIPTS: Sample[] = [
  sample("an English till receipt", "financial", "receipt",
    "TESCO", "Superstore Leeds", "VAT No: 220 4302 31", "MILK 2L  1.45", "BREAD WHOLEMEAL  1.10", "BANANAS  0.89", "CHEDDAR  3.25",
    "TOTAL  6.69", "CASH  10.00", "CHANGE  3.31", "THANK YOU FOR SHOPPING"),
  sample("a German Kassenbon", "financial", "receipt",
    "REWE Markt GmbH", "Kassenbon", "Vollmilch  1,19 A", "Brötchen 6x  1,74 A", "Kaffee  5,99 A", "SUMME EUR  8,92",
    "Gegeben BAR  10,00", "Rückgeld  1,08", "MwSt 7%  0,58"),
  sample("a French ticket de caisse", "financial", "receipt",
    "CARREFOUR MARKET", "TICKET DE CAISSE", "BAGUETTE  1,10", "BEURRE DOUX  2,35", "YAOURT NATURE X4  1,89", "TOTAL  5,34",
    "CB  5,34", "TVA 5,5%  0,28", "MERCI DE VOTRE VISITE"),
  sample("a Dutch kassabon", "financial", "receipt",
    "Albert Heijn 1432", "KASSABON", "AH halfvolle melk  1,09", "Volkoren brood  2,29", "Kaas jong belegen  4,49",
    "TOTAAL  7,87", "PINNEN  7,87", "BTW 9%  0,65"),
  sample("a Spanish ticket", "financial", "receipt",
    "MERCADONA S.A.", "FACTURA SIMPLIFICADA", "LECHE ENTERA  0,95", "PAN BARRA  0,60", "TOMATE  1,45", "TOTAL (€)  3,00",
    "EFECTIVO  5,00", "CAMBIO  2,00", "IVA 4%  0,12"),
  sample("an Italian scontrino", "financial", "receipt",
    "COOP ITALIA", "DOCUMENTO COMMERCIALE", "di vendita o prestazione", "LATTE INTERO  1,29", "PANE  1,80", "CAFFE 250G  3,49",
    "TOTALE COMPLESSIVO  6,58", "CONTANTI  10,00", "RESTO  3,42", "DI CUI IVA  0,60"),
];

export const TAX_FORMS: Sample[] = [
  sample("a W-2", "financial", "tax form",
    "Form W-2 Wage and Tax Statement 2024", "Department of the Treasury—Internal Revenue Service", "a Employee's social security number 123-45-6789",
    "b Employer identification number (EIN) 12-3456789", "1 Wages, tips, other compensation 58,250.00", "2 Federal income tax withheld 7,412.00"),
  sample("a 1099-NEC", "financial", "tax form",
    "Form 1099-NEC", "Nonemployee Compensation", "PAYER'S TIN 98-7654321", "RECIPIENT'S TIN ***-**-4321", "1 Nonemployee compensation $12,400.00", "Internal Revenue Service"),
  sample("a P60", "financial", "tax form",
    "P60 End of Year Certificate", "Tax year to 5 April 2025", "Employee's details", "National Insurance number QQ123456C",
    "Pay in this employment £34,500.00", "Tax deducted £4,386.00", "HM Revenue & Customs"),
  sample("a German Lohnsteuerbescheinigung", "financial", "tax form",
    "Ausdruck der elektronischen Lohnsteuerbescheinigung für 2024", "Finanzamt München", "Bruttoarbeitslohn  48.200,00", "Einbehaltene Lohnsteuer  7.915,00"),
  sample("a French avis d'impôt", "financial", "tax form",
    "DIRECTION GÉNÉRALE DES FINANCES PUBLIQUES", "AVIS D'IMPÔT 2025", "IMPÔT SUR LE REVENU", "Revenus de 2024", "Revenu fiscal de référence  31 420", "Montant de votre impôt  2 148 €"),
  sample("a Dutch aanslag", "financial", "tax form",
    "Belastingdienst", "Aanslag inkomstenbelasting 2024", "Belastbaar inkomen uit werk en woning  € 41.250", "Te betalen  € 1.184"),
  sample("a Spanish renta", "financial", "tax form",
    "Agencia Tributaria", "Declaración de la Renta 2024", "Modelo 100", "Rendimientos del trabajo  28.400,00", "Resultado de la declaración  -312,00"),
  sample("an Italian Certificazione Unica", "financial", "tax form",
    "CERTIFICAZIONE UNICA 2025", "Agenzia delle Entrate", "Dati relativi al dipendente", "Redditi di lavoro dipendente  32.150,00", "Ritenute IRPEF  6.870,00"),
];

export const PAYSLIPS: Sample[] = [
  sample("a US pay stub", "financial", "payslip",
    "Northwind Traders Inc.", "EARNINGS STATEMENT", "Pay period 10/01/2025 - 10/15/2025", "Pay date 10/17/2025", "Earnings  Rate  Hours  This period  Year to date",
    "Regular  32.00  80.00  2,560.00  48,640.00", "Deductions", "Federal Income Tax  301.12", "Social Security  158.72", "Net Pay  1,912.34"),
  sample("a UK payslip", "financial", "payslip",
    "PAYSLIP", "Employee: J. Patel  Tax code 1257L  NI number QQ123456C", "Basic salary  2,916.67", "PAYE tax  370.20", "Employee NI  146.26", "Net pay  2,400.21", "YTD gross  20,416.69"),
  sample("a German Gehaltsabrechnung", "financial", "payslip",
    "Gehaltsabrechnung Oktober 2025", "Arbeitgeber: Brandt Logistik GmbH", "Steuerklasse 1", "Gehalt  3.850,00", "Gesamtbrutto  3.850,00",
    "Lohnsteuer  512,41", "Solidaritätszuschlag  0,00", "Krankenversicherung AN  313,78", "Nettoverdienst  2.542,16", "Auszahlungsbetrag  2.542,16"),
  sample("a French bulletin de salaire", "financial", "payslip",
    "BULLETIN DE SALAIRE", "Employeur : Lefèvre Transports SAS", "Période du 01/10/2025 au 31/10/2025", "Salaire de base  2 450,00",
    "Cotisations salariales  532,65", "Net imposable  1 985,30", "Net à payer avant impôt sur le revenu  1 917,35"),
  sample("a Dutch loonstrook", "financial", "payslip",
    "Salarisstrook september 2025", "Werkgever: De Vries Bouw B.V.", "Brutoloon  3.400,00", "Loonheffing  612,40", "Vakantiegeld  272,00", "Nettoloon  2.581,20"),
  sample("a Spanish nómina", "financial", "payslip",
    "RECIBO DE SALARIOS", "Empresa: Construcciones Ruiz S.A.", "Trabajador: Lucía Fernández", "DEVENGOS", "Salario base  1.650,00",
    "Total devengado  1.820,00", "Seguridad Social  115,57", "Líquido a percibir  1.498,71"),
  sample("an Italian busta paga", "financial", "payslip",
    "CEDOLINO PAGA Ottobre 2025", "Datore di lavoro: Ferri Meccanica S.r.l.", "Dipendente: Marco Conti", "Retribuzione base  1.980,00",
    "Totale competenze  2.110,00", "Totale trattenute  512,30", "Netto in busta  1.597,70"),
];

export const STATEMENTS: Sample[] = [
  sample("an English bank statement", "financial", "statement",
    "Lloyds Bank", "Your account statement", "Sort code 30-94-57  Account number 12345678", "Statement period 1 October 2025 to 31 October 2025",
    "Opening balance  1,204.55", "02 Oct  EDF ENERGY DD  -82.15  1,122.40", "15 Oct  SALARY ACME LTD  2,400.00  3,522.40", "Closing balance  3,522.40"),
  sample("a German Kontoauszug", "financial", "statement",
    "Sparkasse Köln Bonn", "Kontoauszug 10/2025", "IBAN DE89 3705 0198 0001 2345 67", "Alter Kontostand  1.980,12",
    "01.10.  Lastschrift Stadtwerke Köln Strom  -64,00", "15.10.  Gehalt Oktober  2.540,00", "Neuer Kontostand  4.456,12"),
  sample("a French relevé de compte", "financial", "statement",
    "Crédit Agricole", "RELEVÉ DE COMPTE", "Titulaire : M. Pierre Durand", "IBAN FR76 3000 4000 0312 3456 7890 143", "Ancien solde au 30/09/2025  845,20",
    "03/10  PRLV EDF  -71,50", "Nouveau solde au 31/10/2025  2 613,70"),
  sample("a Dutch rekeningafschrift", "financial", "statement",
    "ING", "Rekeningafschrift", "Rekeninghouder: J. de Jong", "IBAN NL91 INGB 0001 2345 67", "Beginsaldo  1.230,00", "Af  Bij", "Eindsaldo  1.912,45"),
  sample("a Spanish extracto", "financial", "statement",
    "BBVA", "EXTRACTO DE CUENTA", "Titular: Ana Martínez López", "IBAN ES91 2100 0418 4502 0005 1332", "Saldo anterior  2.105,30", "Cargo  Abono", "Saldo final  1.887,10"),
  sample("an Italian estratto conto", "financial", "statement",
    "Intesa Sanpaolo", "ESTRATTO CONTO", "Intestatario: Giulia Romano", "IBAN IT60 X054 2811 1010 0000 0123 456", "Saldo iniziale  3.450,00", "Dare  Avere", "Saldo finale  3.012,75"),
];

export const UTILITY_BILLS: Sample[] = [
  sample("an English electricity bill", "utility_bill", undefined,
    "Octopus Energy", "Your electricity bill", "Account number A-1B2C3D4E", "Billing period 1 Sep 2025 - 30 Sep 2025", "Meter reading 43120 (actual)",
    "Electricity used 242 kWh at 24.50p/kWh  59.29", "Standing charge 30 days at 53.35p  16.01", "VAT at 5%  3.77", "Amount due  £79.07"),
  sample("an English broadband bill", "utility_bill", undefined,
    "BT", "Your bill", "Account number GP12345678", "Broadband and calls", "Line rental  21.99", "Call charges  4.35", "Total  26.34"),
  sample("a mobile phone bill", "utility_bill", undefined,
    "Vodafone", "Your monthly bill", "Monthly plan  25.00", "Data usage 12.4 GB", "Roaming charges  3.00", "Total amount due  £28.00"),
  sample("a German Stromrechnung", "utility_bill", undefined,
    "Stadtwerke Leipzig GmbH", "Stromrechnung 2025", "Rechnungsnummer 4711-2025", "Zählernummer 1ESY1160123456", "Zählerstand alt 12.345 neu 14.870",
    "Verbrauch 2.525 kWh", "Arbeitspreis 32,10 ct/kWh  810,53", "Grundpreis  142,80", "Rechnungsbetrag  953,33 €"),
  sample("a French facture d'électricité", "utility_bill", undefined,
    "EDF", "Facture d'électricité et de gaz", "Point de livraison 14 chiffres", "Relevé de compteur du 12/10/2025", "Consommation  312 kWh",
    "Abonnement  12,44 €", "Puissance souscrite 6 kVA", "Montant TTC  74,18 €"),
  sample("a French water bill", "utility_bill", undefined,
    "Veolia Eau", "Facture d'eau", "Index relevé 1 204 m³", "Consommation 34 m³", "Assainissement  58,40", "Total TTC  121,90 €"),
  sample("a Dutch energierekening", "utility_bill", undefined,
    "Eneco", "Jaarafrekening energie", "EAN-code 871687120000012345", "Meterstand 20.410", "Verbruik elektriciteit 2.840 kWh", "Vastrecht  72,00", "Te betalen  € 146,20"),
  sample("a Spanish factura de luz", "utility_bill", undefined,
    "Iberdrola", "FACTURA DE LUZ", "Periodo de facturación: 01/09/2025 - 30/09/2025", "Potencia contratada 4,6 kW", "Lectura del contador 18.240",
    "Consumo 276 kWh", "IVA 21%  12,34", "Total a pagar  71,12 €"),
  sample("a Spanish telephone bill", "utility_bill", undefined,
    "Movistar", "FACTURA", "Telefonía móvil y fibra óptica", "Cuota mensual  45,00", "Consumo datos  0,00", "IVA 21%  9,45", "Total factura  54,45 €"),
  sample("an Italian bolletta luce", "utility_bill", undefined,
    "Enel Energia", "BOLLETTA LUCE", "Codice POD IT001E12345678", "Lettura contatore 5.420", "Consumo fatturato 215 kWh", "Potenza impegnata 3 kW", "Totale da pagare  € 64,30"),
];

export const IDENTITY: Sample[] = [
  sample("a British passport page read without its zone", "passport", undefined,
    "UNITED KINGDOM OF GREAT BRITAIN AND NORTHERN IRELAND", "PASSPORT", "Surname", "SMITH", "Given names", "JOHN DAVID", "Nationality", "BRITISH CITIZEN", "Date of birth", "12 MAR 1985"),
  sample("a German passport", "passport", undefined,
    "BUNDESREPUBLIK DEUTSCHLAND", "REISEPASS / PASSPORT", "Name/Surname", "MUSTERMANN", "Vornamen/Given names", "ERIKA", "Geburtsdatum/Date of birth", "12.08.1964"),
  sample("a French identity card", "id", undefined,
    "RÉPUBLIQUE FRANÇAISE", "CARTE NATIONALE D'IDENTITÉ", "Nom", "MARTIN", "Prénoms", "CAMILLE", "Date de naissance", "01 02 1990"),
  sample("a Spanish DNI", "id", undefined,
    "ESPAÑA", "DOCUMENTO NACIONAL DE IDENTIDAD", "APELLIDOS", "GARCÍA LÓPEZ", "NOMBRE", "MARÍA", "FECHA DE NACIMIENTO", "15 04 1988", "VALIDEZ 01 06 2031"),
  sample("an Italian identity card", "id", undefined,
    "REPUBBLICA ITALIANA", "CARTA D'IDENTITÀ", "COGNOME", "ROSSI", "NOME", "LUCA", "LUOGO E DATA DI NASCITA", "ROMA 03.07.1979", "SCADENZA 03.07.2030"),
  sample("a Dutch driving licence", "drivers_license", undefined, "RIJBEWIJS", "KONINKRIJK DER NEDERLANDEN", "1. DE VRIES", "2. PIETER", "3. 14.02.1982 AMSTERDAM", "9. AM B"),
];

/** Papers none of the six, and papers that only mention what the others are. */
export const NEGATIVES: Sample[] = [
  sample("an invoice for passport photos", "financial", "invoice",
    "Snappy Photo Studio", "INVOICE", "Invoice No: 2231", "Passport photos (4)  8.00", "Passport photo retouching  2.00", "Total due  £10.00"),
  sample("an invoice with a row of filler", "financial", "invoice",
    "Rechnung", "Rechnungsnummer 5561", "PAYMENT<<<<<<<<<<<<<<<<<<<<<<<<<<<<<", "I<<<<<<<<<<<<<<<<<<<<<<<<<<<<<", "Gesamtbetrag  49,00 €"),
  sample("a letter about a passport appointment", "unknown", undefined,
    "Dear Ms Clarke,", "Thank you for booking your appointment with us on 14 November 2025.", "Please bring your current passport and two recent photographs",
    "together with a copy of this letter.", "Yours sincerely,", "Customer Services"),
  sample("a letter about a new tenancy", "unknown", undefined,
    "Dear Mr Okafor,", "We are pleased to confirm that your tenancy at 4 Elm Grove begins on 1 December 2025.", "Your keys can be collected from our office",
    "between 9am and 5pm on weekdays.", "Kind regards,", "Greenway Lettings"),
  sample("a German letter of reference", "unknown", undefined,
    "Sehr geehrte Damen und Herren,", "hiermit bestätigen wir, dass Frau Anna Weber seit dem 1. März 2019 bei uns beschäftigt ist.", "Mit freundlichen Grüßen", "Personalabteilung"),
  sample("a supermarket receipt with bottled water", "financial", "receipt",
    "LIDL", "WATER 6X1.5L  2.49", "ENERGY DRINK  1.19", "CRISPS  0.99", "TOTAL  4.67", "CARD  4.67"),
];
