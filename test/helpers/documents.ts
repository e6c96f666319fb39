// Identity documents made by the tests themselves: a passport data page (labelled visual
// zone and a TD3 machine-readable zone in Courier, check digits computed here by ICAO 9303's
// 7-3-1 rule) drawn with mupdf and rendered to an image, as a phone scan would deliver it.
import sharp from "sharp";
import { type PrintedLine, renderPrinted } from "./pages.ts";

export interface Passport {
  state: string;
  surname: string;
  givenNames: string;
  number: string;
  nationality: string;
  /** YYMMDD */
  birth: string;
  sex: "M" | "F";
  /** YYMMDD */
  expiry: string;
}

export const PASSPORT: Passport = {
  state: "GBR",
  surname: "ERIKSSON",
  givenNames: "ANNA MARIA",
  number: "L898902C3",
  nationality: "GBR",
  birth: "850112",
  sex: "F",
  expiry: "310415",
};

const VALUES: Record<string, number> = Object.fromEntries(
  [..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((c, i) => [c, i]),
);

/** ICAO 9303 check digit: weights 7, 3, 1 repeating; letters A=10..Z=35, filler 0. */
const checkDigit = (field: string): string =>
  String([...field].reduce((sum, c, i) => sum + (VALUES[c] ?? 0) * [7, 3, 1][i % 3]!, 0) % 10);

const pad = (text: string, length: number) => text.padEnd(length, "<").slice(0, length);

/** The two TD3 lines with correct check digits. */
export function td3(p: Passport): [string, string] {
  const name = pad(`${p.surname}<<${p.givenNames.replaceAll(" ", "<")}`, 39);
  const line1 = `P<${p.state}${name}`;
  const number = pad(p.number, 9);
  const personal = pad("", 14);
  const composite = `${number}${checkDigit(number)}${p.birth}${checkDigit(p.birth)}${p.expiry}${checkDigit(p.expiry)}${personal}${checkDigit(personal)}`;
  const line2 = `${number}${checkDigit(number)}${p.nationality}${p.birth}${checkDigit(p.birth)}${p.sex}${p.expiry}${checkDigit(p.expiry)}${personal}${checkDigit(personal)}${checkDigit(composite)}`;
  return [line1, line2];
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
/** "850112" → "12 JAN 1985" (years before 50 are 20xx). */
const visualDate = (yymmdd: string) => {
  const yy = Number(yymmdd.slice(0, 2));
  return `${yymmdd.slice(4, 6)} ${MONTHS[Number(yymmdd.slice(2, 4)) - 1]} ${yy < 50 ? 2000 + yy : 1900 + yy}`;
};

/** A TD3 data page is 125 x 88 mm. */
export const PASSPORT_PAGE = { widthPt: 354, heightPt: 249 };

export interface PassportPageOptions {
  /** The visual zone's values where they differ from the MRZ's. */
  visual?: Partial<Passport>;
  /** Replaces the MRZ lines (e.g. a broken check digit). */
  mrz?: [string, string];
  /** A photo (any image sharp reads) for the portrait zone left of the fields. */
  portrait?: string | Uint8Array;
}

/** The portrait zone of the page, in points: left of the fields, above the MRZ. */
export const PORTRAIT_ZONE = { x: 14, y: 42, width: 84, height: 108 };

/**
 * Photos of people, from Wikimedia Commons (CC BY-SA) as DocXPand ships them: see SOURCES.md there.
 */
export const PHOTOS_DIR = new URL("../../scripts/corpus/assets/docxpand/photos/", import.meta.url).pathname;

export function passportLines(p: Passport, options: PassportPageOptions = {}): PrintedLine[] {
  const v = { ...p, ...options.visual };
  const [line1, line2] = options.mrz ?? td3(p);
  const label = (text: string, x: number, y: number): PrintedLine => ({ text, font: "Helvetica", size: 6, x, y });
  const value = (text: string, x: number, y: number): PrintedLine => ({ text, font: "Helvetica", size: 9, x, y });
  return [
    { text: "PASSPORT", font: "Helvetica", size: 12, x: 120, y: 24 },
    label("Surname", 110, 50),
    value(v.surname, 110, 61),
    label("Given names", 110, 76),
    value(v.givenNames, 110, 87),
    label("Passport No.", 250, 50),
    value(v.number, 250, 61),
    label("Nationality", 110, 102),
    value(v.nationality, 110, 113),
    label("Date of birth", 110, 128),
    value(visualDate(v.birth), 110, 139),
    label("Sex", 250, 128),
    value(v.sex, 250, 139),
    label("Date of expiry", 110, 154),
    value(visualDate(v.expiry), 110, 165),
    { text: line1, font: "Courier", size: 12.5, x: 12, y: 212 },
    { text: line2, font: "Courier", size: 12.5, x: 12, y: 232 },
  ];
}

/** The page rendered at `dpi` and saved as PNG or JPEG. */
export async function passportImage(
  format: "png" | "jpeg",
  p: Passport = PASSPORT,
  options: PassportPageOptions = {},
  dpi = 250,
): Promise<Uint8Array> {
  const image = renderPrinted(passportLines(p, options), { ...PASSPORT_PAGE, dpi });
  let encoder = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  if (options.portrait) {
    const px = (pt: number) => Math.round((pt * dpi) / 72);
    const photo = await sharp(options.portrait)
      .resize(px(PORTRAIT_ZONE.width), px(PORTRAIT_ZONE.height), { fit: "cover" })
      .toBuffer();
    encoder = sharp(
      await encoder
        .composite([{ input: photo, left: px(PORTRAIT_ZONE.x), top: px(PORTRAIT_ZONE.y) }])
        .png()
        .toBuffer(),
    );
  }
  return new Uint8Array(await (format === "png" ? encoder.png() : encoder.jpeg({ quality: 92 })).toBuffer());
}

/** One statement row: date, payee and signed amount in cents. */
interface Movement {
  date: string;
  payee: string;
  cents: number;
}

const MOVEMENTS: Movement[] = [
  { date: "02/03/2024", payee: "Salary ACME Ltd", cents: 254_000 },
  { date: "04/03/2024", payee: "Rent transfer", cents: -120_000 },
  { date: "09/03/2024", payee: "Card payment Tesco Stores", cents: -8_642 },
  { date: "28/03/2024", payee: "Direct debit British Gas", cents: -6_499 },
];

const money = (cents: number) => {
  const abs = Math.abs(cents);
  return `${Math.floor(abs / 100).toLocaleString("en-GB")}.${String(abs % 100).padStart(2, "0")}`;
};

/**
 * A bank statement's text lines as a statement generator prints them, one row per line with
 * its running balance. `printed` replaces the amounts shown (not the balances): a forger's
 * edit of one amount that leaves the arithmetic behind.
 */
export function statementLines(
  opening = 123_456,
  movements = MOVEMENTS,
  printed: Partial<Record<number, number>> = {},
): string[] {
  let balance = opening;
  const rows = movements.map((m, i) => {
    balance += m.cents;
    const shown = printed[i] ?? m.cents;
    return `${m.date}  ${m.payee}  ${shown < 0 ? "-" : "+"}${money(shown)}  ${money(balance)}`;
  });
  return [
    "Northwind Savings Bank",
    "Account statement",
    "Account number 8841 2290 5531",
    "Statement period 01/03/2024 to 31/03/2024",
    `Opening balance ${money(opening)}`,
    ...rows,
    `Closing balance ${money(balance)}`,
  ];
}
