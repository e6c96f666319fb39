// Labelled values of the visual zone: "Surname / Nom" above or beside "ERIKSSON", "Date
// of birth" beside "12 JAN 1985". Labels are matched folded (accents off, upper case) in
// the languages identity documents most often print: English, French, German, Spanish,
// Italian, Portuguese, Dutch, Polish and Turkish. The recogniser's alphabet has no Ğ, Ş,
// dotless I or Ł (sidecar/models/latin_ppocr_keys.txt): "Doğum tarihi" comes back as
// "Dogum tarihi", "Ważności" as "Waznosci", and the labels are written so. A label of three
// or four letters that is a word elsewhere (Turkish ADI, Dutch NAAM) is left out: on the
// cards that print them, an English label stands beside. So is Turkish and Azerbaijani
// SOYADI (surname), which those cards print beside "Surname". A value is the text after a colon
// on the label's line, else the nearest line below the label, else the next cell right.
// Labels are read as OCR reads a photographed card: a wide letter split or merged ("Sumame"),
// and in a label line beside another label, one letter wrong, lost or added ("Dateofbinth"),
// or a letter the recogniser doubted read as its runner-up ("Non" as "Nom").
import { foldWideLetters } from "./look-alikes.ts";
import {
  characterReadings,
  fold,
  isConfident,
  isLetter,
  isReadSurely,
  rowsOf,
  type TextLine,
  type TextPage,
} from "./text.ts";

export type FieldKind = "surname" | "givenNames" | "documentNumber" | "birthDate" | "expiryDate" | "issueDate";

export interface LabelledValue {
  kind: FieldKind;
  page: number;
  text: string;
  line: TextLine;
  /**
   * The value was read confidently, and its label: a line of labels only by its words (see
   * labelledValues), a label with its value on one line as that line was read.
   */
  confident: boolean;
}

// Order matters: "given names" must win over the "name" inside it. EU driving licences
// (Directive 2006/126/EC) number their fields instead of naming them: 4a. is the date of
// issue, 4b. the date of expiry, printed before the value without a colon. A number's "N°"
// loses its degree sign to OCR, or has it read as "*": before a colon a lone N still says it
// ("CARTE NATIONALE D'IDENTITÉ N: ..."), and the thin I after "D'" is often lost (DENTITE).
// OCR of a photo also drops the spaces and the apostrophe ("CARTENATIONALEDIDENTITEN:"), where
// no word boundary is left before IDENTITE, and may lose the whole "°:" so that the number
// follows the N directly: the French card's title is then matched whole, its N followed by the
// number to the end of the line. Portuguese prints the number's sign as "N.º", which folds to
// N.O ("N.º DOCUMENTO").
// The apostrophe is any one mark that is neither letter, digit nor space: not \W, which the
// label patterns' folding (W read as V) would turn into a plain V.
const FRENCH_CARD_TITLE = String.raw`CARTE\s*NATIONALE\s*D[^A-Z0-9\s]?\s*I?DENTIT[EÉ]\s*N`;
/**
 * A document number glued to the end of a line, looked for only within a number's length of it
 * so that a hostile line is not read to its end from every N.
 */
const GLUED_NUMBER = String.raw`\s*([A-Z0-9]{6,24})\s*$`;
const LABELS: [FieldKind, RegExp][] = [
  [
    "givenNames",
    /\b(GIVEN\s*NAMES?|FORENAMES?|FIRST\s*NAMES?|PRENOMS?|VORNAMEN?|NOMBRES?|NOMES?|NOMI|IMIONA|VOORNAMEN)\b/,
  ],
  [
    "surname",
    /\b(SURNAMES?|LAST\s*NAME|FAMILY\s*NAME|NOM|APELLIDOS?|APELIDOS?|NACHNAME|COGNOME|NAZWISKO|ACHTERNAAM|NAME)\b/,
  ],
  [
    "documentNumber",
    new RegExp(
      String.raw`\b((DOCUMENT|PASSPORT|PASSEPORT|PASAPORTE|PASSAPORTE|PASSAPORTO|CARD|CARTE|IDENTITE|DENTITE|IDENTITY|DOKUMENTEN|PASS|LICEN[CS]E|SERI|BELGE)\s*[-.]?\s*(NO\b\.?|NR\b\.?|N\s*[°*]|N(?=\s*:)|NUMBER|NUMMER|NUMERO|#)|(N\.?O|NR|N°|NUMERO|NUMER)\.?\s*(DU|DE|DEL|DO|OF)?\s*(PASSEPORT|PASAPORTE|PASSAPORTE|DOCUMENTO?|DOKUMENTU|PASSPORT|LA\s*CARTE))` +
        String.raw`|${FRENCH_CARD_TITLE}(\s*[°*]|(?=\s*:)|(?=${GLUED_NUMBER}))`,
    ),
  ],
  [
    "birthDate",
    /\b(DATE\s*OF\s*BIRTH|BIRTH\s*DATE|DATE\s*DE\s*NAISSANCE|NE\s*\(?E?\)?\s*LE\b|GEBURTSDATUM|GEBURTSTAG|GEBOREN\s*AM|FECHA\s*DE\s*NACIMIENTO|DATA\s*DI\s*NASCITA|NAT[OA]\s*IL\b|D\.?\s*O\.?\s*B\b\.?|DATA\s*(DE\s*)?NASC(IMENTO\b|\b\.?)|GEBOORTEDATUM|DATA\s*URODZENIA|DOGUM\s*TARIHI)/,
  ],
  [
    "expiryDate",
    /\b(DATE\s*OF\s*EXPIRY|EXPIRY(\s*DATE)?|EXPIRATION(\s*DATE)?|EXPIRES|DATE\s*D.EXPIRATION|GULTIG\s*BIS|VALID\s*(UNTIL|THRU|THROUGH|TO)|FECHA\s*DE\s*(CADUCIDAD|EXPIRACION)|SCADENZA|(DATA\s*DE\s*)?VALIDADE|GELDIG\s*TOT|(TERMIN|DATA)\s*WAZNOSCI|SON\s*GECERLILIK(\s*TARIHI)?|GECERLILIK\s*TARIHI)\b|^\s*4\s*B\s*[.,]/,
  ],
  [
    "issueDate",
    /\b(DATE\s*OF\s*ISSUE|ISSUE\s*DATE|ISSUED(\s*ON)?|DATE\s*DE\s*DELIVRANCE|AUSSTELLUNGSDATUM|FECHA\s*DE\s*EXPEDICION|DATA\s*DI\s*RILASCIO|DATA\s*DE\s*EMISSAO|DATUM\s*VAN\s*AFGIFTE|AFGIFTEDATUM|DATA\s*WYDANIA|VERILIS\s*TARIHI|DUZENLENME\s*TARIHI)\b|^\s*4\s*A\s*[.,]/,
  ],
];

/**
 * A line as its labels are matched: folded (text.ts), then the wide letters OCR splits or merges
 * folded as well (RN read as M, W as V), so "Sumame" is SURNAME. The patterns above are written
 * plainly and folded alike below: their letters are upper case, their escapes (\s, \b) lower.
 */
const labelForm = (text: string) => foldWideLetters(fold(text));
const foldPattern = (re: RegExp) => new RegExp(foldWideLetters(re.source), re.flags);
const FOLDED_LABELS: [FieldKind, RegExp][] = LABELS.map(([kind, re]) => [kind, foldPattern(re)]);

const ANY_LABEL = new RegExp(FOLDED_LABELS.map(([, re]) => re.source).join("|"));
const EVERY_LABEL = new RegExp(ANY_LABEL.source, "g");

/**
 * Labels of fields this reader does not compare (sex, nationality, place of birth, height,
 * signature, address), at the start of a folded line. A line that starts with one is that
 * field, never the value of the label above it: on a recaptured card OCR reads "Sexe : F"
 * as "SexeF", and the given-names label above it must not take "SexeF" as its value. The
 * lookahead keeps SEXTON a name.
 */
const OTHER_FIELD = foldPattern(
  /^\s*(SEX[EO]?(?=[\s:./]|[FMX]?\b)|SESSO|GESCHLECHT|GESLACHT|CINSIYET|NATIONALIT|STAATSANGEH|NACIONALIDAD|NAZIONALITA|NATIONALITEIT|OBYWATELSTWO|UYRUK|UYRUGU|PLACE\s*OF\s*BIRTH|LIEU\s*DE\s*NAISSANCE|GEBURTSORT|GEBOORTEPLAATS|LUGAR\s*DE\s*NACIMIENTO|LUOGO\s*DI\s*NASCITA|LOCAL\s*DE\s*NASCIMENTO|MIEJSCE\s*URODZENIA|DOGUM\s*YERI|HEIGHT|TAILLE|GROSSE|LENGTE|ESTATURA|STATURA|ALTURA|SIGNATURE|UNTERSCHRIFT|HANDTEKENING|FIRMA|ASSINATURA|PODPIS|IMZA|ADDRESS|ADRES(SE)?|DOMICILIO|WOHNORT|MORADA)/,
);

function kindOf(folded: string): FieldKind | null {
  for (const [kind, re] of FOLDED_LABELS) if (re.test(folded)) return kind;
  return null;
}

const hasContent = (text: string) => /[\p{L}\p{N}]{2,}/u.test(text);

/** A label alone, as a whole run of letters. */
const WHOLE_LABEL = new RegExp(`^(?:${ANY_LABEL.source})$`);
/**
 * Fewer letters than this are not taken for a misread label: NOT is no NOM. More than the
 * longest label ("FECHA DE EXPEDICION") and a few spaces cannot be one, and the search, which
 * builds a string per edit, stays bounded on a hostile line.
 */
const MIN_MISREAD_LABEL = 6;
const MAX_MISREAD_LABEL = 32;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * Whether a run of letters (and spaces) is a label with one letter read wrong, lost or
 * added: in a bilingual label line one language's label read exactly and the other's as
 * "DATEOFBINTH" is still a label line, not a label beside its value.
 */
function misreadLabel(run: string): boolean {
  const letters = run.replace(/\s/g, "").length;
  if (!/^[A-Z\s]+$/.test(run) || letters < MIN_MISREAD_LABEL || run.length > MAX_MISREAD_LABEL) return false;
  for (let i = 0; i <= run.length; i++) {
    const [head, tail] = [run.slice(0, i), run.slice(i)];
    if (tail && WHOLE_LABEL.test(head + tail.slice(1))) return true;
    for (const c of LETTERS)
      if (WHOLE_LABEL.test(head + c + tail) || (tail && WHOLE_LABEL.test(head + c + tail.slice(1)))) return true;
  }
  return false;
}

/** A runner-up this probable, for a letter not read surely, is a letter the line may hold. */
const PLAUSIBLE_LETTER = 0.2;
/**
 * Other readings of a line tried at most: a label line has a few unsure letters; a hostile one is
 * bounded.
 */
const MAX_READINGS = 11;

/**
 * A line's text as read with one letter the recogniser was unsure of replaced by its runner-up
 * letter, one reading per such letter: on a photographed passport "Nom/Surname" read
 * "Non/Surname", the last n at 0.57 with m at 0.38. Three letters are too few to take "NON" for
 * a label misread by one letter on its spelling alone (misreadLabel); the recogniser's own doubt
 * says it may be NOM.
 */
function doubtedReadings(line: TextLine): string[] {
  const texts: string[] = [];
  const readings = characterReadings(line) ?? [];
  for (let i = 0; i < readings.length && texts.length < MAX_READINGS; i++) {
    const reading = readings[i]!;
    if (isReadSurely(reading)) continue;
    const letter = reading.alternatives.find((alt) => isLetter(alt.character) && alt.probability >= PLAUSIBLE_LETTER);
    if (letter) texts.push(line.text.slice(0, i) + letter.character + line.text.slice(i + 1));
  }
  return texts;
}

/**
 * Whether a label's line holds words besides its labels ("Prénom(s) Julie Louise"): with no
 * colon to say where the label ends, that rest may be the value or a label in a language not
 * listed ("Surname/Nom/Efternamn"), so the value is not taken from this line, and the line
 * below is another field's. The field is left unread rather than guessed. Only labels are
 * matched within one misread letter, on a line that holds a label read exactly: that is few
 * lines, and the search is a few hundred pattern tests per run of letters.
 */
const holdsMoreThanLabels = (folded: string) =>
  folded
    .replace(EVERY_LABEL, " ")
    .replace(/\(S\)/g, " ")
    .split(/[^\p{L}\p{N}\s]+/u)
    .map((run) => run.trim())
    .some((run) => hasContent(run) && !misreadLabel(run));

/**
 * OCR often reads a value and the next field's "Label: value" beside it as one line
 * ("TAYLOR-VAN DIJK Sexe: M"): a value holds no colon, so it ends before the word that
 * carries one, and a line that starts with such a word is another field, not a value.
 */
function valueBeforeNextLabel(text: string): string | null {
  const colon = text.indexOf(":");
  const cut =
    colon < 0
      ? text.trim()
      : text
          .slice(0, colon)
          .replace(/\S*\s*$/, "")
          .trim();
  return hasContent(cut) ? cut : null;
}

/** The labelled values on a page, skipping lines the caller has already explained (the MRZ). */
export function labelledValues(page: TextPage, skip: ReadonlySet<TextLine> = new Set()): LabelledValue[] {
  const lines = page.lines.filter((line) => !skip.has(line));
  const isLabel = (line: TextLine) => {
    const folded = labelForm(line.text);
    return kindOf(folded) !== null || OTHER_FIELD.test(folded);
  };
  const rows = rowsOf({ ...page, lines });
  const values: LabelledValue[] = [];
  for (const label of lines) {
    const folded = labelForm(label.text);
    const kind = kindOf(folded);
    if (!kind) continue;
    const inLine = sameLineValue(label);
    if (
      !inLine &&
      holdsMoreThanLabels(folded) &&
      doubtedReadings(label).every((text) => holdsMoreThanLabels(labelForm(text)))
    )
      continue;
    const value = inLine ?? lineBelow(label, lines, isLabel) ?? cellRight(label, rows, isLabel);
    if (!value) continue;
    values.push({
      kind,
      page: page.page,
      text: value.text,
      line: value.line,
      // A line of labels only is read by its words, each a label read exactly or within the
      // recogniser's own doubt: its mean confidence, lowered by letters read unsurely between
      // two spellings of a label ("Non" or "Nom"), says nothing more of which field it names.
      // A value on the label's own line is read as that line was.
      confident: (inLine === null || isConfident(label)) && isConfident(value.line),
    });
  }
  return values;
}

/** An EU licence's numbered date field, "4a." or "4b.", at the start of a line. */
const NUMBERED_FIELD = /^\s*4\s*[AB]\s*[.,]/i;

/** The French card's number glued to its title, the "°:" between them lost. */
const GLUED_CARD_NUMBER = new RegExp(FRENCH_CARD_TITLE + GLUED_NUMBER, "i");

function sameLineValue(label: TextLine): { text: string; line: TextLine } | null {
  // Only after a colon or a field number: "Surname/Nom/Cognome" with an unknown third
  // language must not become a surname.
  const numbered = NUMBERED_FIELD.exec(label.text);
  const colon = label.text.lastIndexOf(":");
  const glued = numbered || colon >= 0 ? null : GLUED_CARD_NUMBER.exec(label.text);
  if (glued) return { text: glued[1]!, line: label };
  if (!numbered && colon < 0) return null;
  const after = label.text.slice(numbered ? numbered[0].length : colon + 1).trim();
  if (!hasContent(after) || ANY_LABEL.test(labelForm(after))) return null;
  return { text: after, line: label };
}

function lineBelow(label: TextLine, lines: readonly TextLine[], isLabel: (line: TextLine) => boolean) {
  const [x, y, w, h] = label.box;
  const bottom = y + h;
  const candidates = lines.filter((line) => {
    const [lx, ly, lw] = line.box;
    const overlap = Math.min(x + w, lx + lw) - Math.max(x, lx);
    // Below the label's middle: OCR boxes are tall, and a value printed tight under its
    // label starts above the label box's bottom.
    return line !== label && ly >= y + h * 0.5 && ly - bottom <= h * 2.5 && (overlap > 0 || Math.abs(lx - x) <= h);
  });
  // Only the nearest line below can be the value: when it is another field (its label, or
  // "Label: value" with nothing before the colon), the value was not read, and the line
  // after it belongs to yet another field ("Brussels", the place of birth, is no given name).
  const nearest = candidates.sort((a, b) => a.box[1] - b.box[1] || Math.abs(a.box[0] - x) - Math.abs(b.box[0] - x))[0];
  const text = nearest && !isLabel(nearest) ? valueBeforeNextLabel(nearest.text) : null;
  return text === null ? null : { text, line: nearest! };
}

function cellRight(label: TextLine, rows: ReturnType<typeof rowsOf>, isLabel: (line: TextLine) => boolean) {
  const row = rows.find((r) => r.cells.includes(label));
  const next = row?.cells[row.cells.indexOf(label) + 1];
  const text = next && !isLabel(next) ? valueBeforeNextLabel(next.text) : null;
  return text === null ? null : { text, line: next! };
}
