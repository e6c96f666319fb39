// Fonts per page and per line. A value retyped by an editor rarely comes back in the
// document's own font: it lands in a fallback font or a different size
// (pdf_font_inconsistency), or in a system font the file does not carry at all
// (pdf_font_substitution, weighed apart). (A second subset of the same font is listed in the
// facts only: genuine producers embed those too.)
import type { DetectorResult, Evidence } from "../report.ts";
import type { PageContent, PageLine } from "./page-content.ts";
import { intersectionArea, rectOfBox } from "./rect.ts";
import type { DetectorName } from "../manifest.ts";

export const PDF_FONTS_DETECTOR = "pdf-fonts" satisfies DetectorName;

// Type3 fonts are drawn glyph by glyph by the producer (mupdf names them "Type3 (n 0 R)"):
// no editor retypes a figure in one.
const SYMBOL_FONTS = /symbol|dingbat|wingding|webding|^type3 \(/i;
const SUBSET_TAG = /^[A-Z]{6}\+/;

/** Words that name a face's weight, width, style or the foundry's packaging, not its family. */
const STYLE_WORDS = new Set(
  (
    "bold bd italic it oblique regular roman medium med md light lt semibold demibold demi extrabold ultrabold " +
    "black heavy book thin condensed cn cond narrow extended extra std pro mt ps psmt"
  ).split(" "),
);

/**
 * Family of a font name: subset tag, the instance numbers and encoding some producers
 * append ("*Tahoma-26506-Identity-H"), and trailing style words removed, whether set apart
 * ("HelveticaNeueLT Std Lt Cn") or run together ("OpenSansSemibold", "Arial-ItalicMT").
 */
export const fontFamily = (name: string): string => {
  const words = name
    .replace(SUBSET_TAG, "")
    .replace(/^\*/, "")
    .replace(/-Identity-[HV]$/i, "")
    .split(/[-,_ ]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
    .filter((w) => w.length > 0);
  const styleWord = (word: string, before: string) =>
    /^\d+$/.test(word) ||
    (STYLE_WORDS.has(word.toLowerCase()) && !(word.toLowerCase() === "roman" && before.toLowerCase() === "new"));
  while (words.length > 1 && styleWord(words.at(-1)!, words.at(-2)!)) words.pop();
  return words.join("").toLowerCase();
};

const hasDigit = (s: string) => /\d/.test(s);

const lineFamilies = (line: PageLine): Map<string, number> => {
  const m = new Map<string, number>();
  for (const run of line.runs) {
    if (SYMBOL_FONTS.test(run.font) || !run.text.trim()) continue;
    const f = fontFamily(run.font);
    m.set(f, (m.get(f) ?? 0) + run.text.trim().length);
  }
  return m;
};

const dominant = (counts: Map<string, number>): string | undefined => [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];

/**
 * Visual rows: lines whose vertical extents mostly overlap. Text an editor adds is its
 * own text object, so it ends up in a line of its own beside the original one.
 */
const rowsOf = (lines: PageLine[]): PageLine[] => {
  const sorted = [...lines].sort((a, b) => a.box[1] + a.box[3] / 2 - (b.box[1] + b.box[3] / 2));
  const rows: PageLine[] = [];
  for (const line of sorted) {
    const last = rows.at(-1);
    const overlap = last
      ? Math.min(last.box[1] + last.box[3], line.box[1] + line.box[3]) - Math.max(last.box[1], line.box[1])
      : 0;
    if (last && overlap >= 0.5 * Math.min(last.box[3], line.box[3])) {
      const parts = [last, line].sort((a, b) => a.box[0] - b.box[0]);
      const x0 = Math.min(last.box[0], line.box[0]);
      const y0 = Math.min(last.box[1], line.box[1]);
      const x1 = Math.max(last.box[0] + last.box[2], line.box[0] + line.box[2]);
      const y1 = Math.max(last.box[1] + last.box[3], line.box[1] + line.box[3]);
      rows[rows.length - 1] = {
        box: [x0, y0, x1 - x0, y1 - y0],
        text: parts.map((p) => p.text).join(" "),
        runs: parts.flatMap((p) => p.runs),
      };
    } else {
      rows.push(line);
    }
  }
  return rows;
};

/**
 * Pages whose text is set in more font families than this mix fonts by design, and a
 * figure in another font is not a sign of an edit there. Measured: the evaluation corpus's
 * pages, forged ones included, use 1 to 3 families; the published utility bills of the
 * real-documents set that raised the check on every page use 7 to 14 (report generators
 * that give each text box its own font).
 */
const MAX_JUDGED_FAMILIES = 5;

/** A family in at most this share of rows is rare enough to stand out. */
const RARE_ROW_SHARE = 0.2;

/**
 * The page's lines as a reader sees them: text in fonts drawn only invisibly (an OCR layer) left
 * out.
 */
const visibleLines = (page: PageContent): PageLine[] => {
  if (page.invisibleFonts.length === 0) return page.lines;
  const invisible = new Set(page.invisibleFonts);
  return page.lines.flatMap((line) => {
    const runs = line.runs.filter((r) => !invisible.has(r.font));
    return runs.length === 0 ? [] : [{ ...line, runs, text: runs.map((r) => r.text).join("") }];
  });
};

/** The page's font evidence, or null where it mixes fonts by design and is not judged. */
const pageEvidence = (page: PageContent, explained: readonly Evidence[]): Evidence[] | null => {
  const evidence: Evidence[] = [];
  const rows = rowsOf(visibleLines(page));
  const families = rows.map(lineFamilies);
  const pageCounts = new Map<string, number>();
  const rowsPerFamily = new Map<string, number>();
  for (const fam of families) {
    for (const [f, n] of fam) {
      pageCounts.set(f, (pageCounts.get(f) ?? 0) + n);
      rowsPerFamily.set(f, (rowsPerFamily.get(f) ?? 0) + 1);
    }
  }
  if (pageCounts.size > MAX_JUDGED_FAMILIES) return null;
  const main = dominant(pageCounts);
  // A readable name for each family: the first font seen in it.
  const display = new Map<string, string>();
  for (const row of rows)
    for (const run of row.runs) if (!display.has(fontFamily(run.font))) display.set(fontFamily(run.font), run.font);
  const shown = (family: string) => display.get(family) ?? family;
  // A family used throughout (a column of amounts in its own font) is the layout.
  const rare = (family: string) => (rowsPerFamily.get(family) ?? 0) <= Math.max(1, rows.length * RARE_ROW_SHARE);

  rows.forEach((row, i) => {
    const fam = families[i]!;
    const rowMain = dominant(fam);
    if (!rowMain) return;
    // Digits in a rare family inside a row set in another.
    if (fam.size > 1) {
      for (const run of row.runs) {
        const f = fontFamily(run.font);
        if (f === rowMain || SYMBOL_FONTS.test(run.font) || !hasDigit(run.text) || !rare(f)) continue;
        evidence.push({
          flag: "pdf_font_inconsistency",
          detector: PDF_FONTS_DETECTOR,
          strength: 0.45,
          message: `Digits set in ${run.font} inside a line set in ${shown(rowMain)}`,
          page: page.page,
          box: row.box,
          measured: run.font,
          threshold: shown(rowMain),
        });
        break;
      }
    }
    // A whole row with figures in a font no other row uses, between rows in the
    // page's main font of the same size.
    if (fam.size === 1 && main && rowMain !== main && rowsPerFamily.get(rowMain) === 1 && hasDigit(row.text)) {
      const size = row.runs[0]!.size;
      const sameAround = [rows[i - 1], rows[i + 1]].filter(
        (l): l is PageLine =>
          !!l && dominant(lineFamilies(l)) === main && Math.abs((l.runs[0]?.size ?? 0) - size) <= size * 0.15,
      );
      if (sameAround.length === 2 && rows.length >= 4) {
        evidence.push({
          flag: "pdf_font_inconsistency",
          detector: PDF_FONTS_DETECTOR,
          strength: 0.4,
          message: `One line is set in ${row.runs[0]!.font}, used nowhere else on the page, between lines in ${shown(main)}`,
          page: page.page,
          box: row.box,
          measured: row.runs[0]!.font,
          threshold: shown(main),
        });
      }
    }
  });

  evidence.push(...substitutedFontEvidence(page, rows, main, [...evidence, ...explained]));
  return evidence;
};

/** Share of a page's characters that must be in fonts the file carries for the rule below. */
const EMBEDDED_SHARE = 0.8;
/** Rows an editor's retyped value takes: a name or a figure, printed once or twice. */
const SUBSTITUTED_MAX_ROWS = 2;
/** Letters and digits a row needs to be a value, not a bullet or a page number's stray mark. */
const MIN_VALUE_CHARS = 4;
/**
 * What an edit changes: a figure (an amount, a date, a number) or a person's name, which has
 * two words at least. A single word is a label, and a producer may set a label in a font it
 * leaves out (a published Con Edison bill prints "Counter" in Helvetica among embedded Open
 * Sans).
 */
const isValue = (text: string) =>
  (text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= MIN_VALUE_CHARS &&
  (/\d/.test(text) || (text.match(/\p{L}{2,}/gu)?.length ?? 0) >= 2) &&
  !PAGE_NUMBER.test(text);
/** "Page 2 of 3": a merge or print tool numbers a finished file's pages in a font of its own. */
const PAGE_NUMBER = /^\s*(page|seite|p[aá]gina|pagina|blad|pag\.?|p\.)?\s*\d+\s*(of|\/|von|de|sur|di|van)\s*\d+\s*$/i;

const untagged = (name: string) => name.replace(SUBSET_TAG, "");

/** Evidence on this page whose box overlaps the row's (the row's own evidence among it). */
const covers = (e: Evidence, page: number, box: PageLine["box"]): boolean =>
  e.page === page && e.box !== undefined && intersectionArea(rectOfBox(e.box), rectOfBox(box)) > 0;

/**
 * Text in a font the file does not carry, on a page whose text is otherwise in fonts it
 * embeds. An editor's "edit text" types a new value in the document's own embedded subset
 * when the subset has the glyphs, and falls back to a system font it does not embed when it
 * has not (Acrobat, PDF-XChange): a changed name or figure then reads in Arial among
 * subset-embedded fonts. A producer that leaves fonts out does so for its whole layout (the
 * standard 14 fonts of pdf-lib and PDFKit documents), so one or two rows in such a font,
 * among embedded text, is the edit's trace. Rows already raised above, or covered by another
 * detector's evidence (`raised`: text drawn over a white box), are not raised twice: one edit
 * seen twice would share its weight between two flags in the fit, and neither would then
 * carry a verdict alone. Raised as a flag of its own, pdf_font_substitution, so that the fit
 * weighs it apart from the neighbour rule above: sharing that rule's flag, it raised the
 * flag's weight from 3.3 to 8.3, and published bills that print a figure in another face
 * (which the neighbour rule raises, weakly) were then accused by it.
 */
function substitutedFontEvidence(
  page: PageContent,
  rows: PageLine[],
  main: string | undefined,
  raised: Evidence[],
): Evidence[] {
  if (page.unembeddedFonts.length === 0 || rows.length < 4) return [];
  const unembedded = new Set(page.unembeddedFonts.map(untagged));
  const isUnembedded = (font: string) => unembedded.has(untagged(font)) && !SYMBOL_FONTS.test(font);
  let total = 0;
  let carried = 0;
  const rowsWith = new Map<string, Set<number>>();
  rows.forEach((row, i) => {
    for (const run of row.runs) {
      const chars = run.text.trim().length;
      total += chars;
      if (!isUnembedded(run.font)) carried += chars;
      else if (chars > 0) rowsWith.set(run.font, (rowsWith.get(run.font) ?? new Set()).add(i));
    }
  });
  if (total === 0 || carried < EMBEDDED_SHARE * total) return [];
  const evidence: Evidence[] = [];
  for (const [font, at] of rowsWith) {
    if (at.size > SUBSTITUTED_MAX_ROWS || fontFamily(font) === main) continue;
    for (const i of at) {
      const row = rows[i]!;
      const value = row.runs
        .filter((r) => r.font === font)
        .map((r) => r.text)
        .join("");
      if (!isValue(value) || raised.some((e) => covers(e, page.page, row.box))) continue;
      evidence.push({
        flag: "pdf_font_substitution",
        detector: PDF_FONTS_DETECTOR,
        strength: 0.45,
        message: `"${value.trim()}" is set in ${font}, a font the file does not carry, among text in fonts it embeds`,
        page: page.page,
        box: row.box,
        measured: font,
        threshold: "embedded fonts",
      });
    }
  }
  return evidence;
}

/**
 * Fonts a page embeds more than one subset of. Listed for an analyst, never raised: a second
 * tool that adds text may embed its own copy, but Chromium's Skia, office suites and print
 * drivers embed several subsets of one font on genuine pages every day (on every genuine
 * Chromium payslip and a published Con Edison bill).
 */
const repeatedSubsets = (page: PageContent): Record<string, number> => {
  const subsets = new Map<string, Set<string>>();
  for (const name of page.resourceFonts) {
    const tag = SUBSET_TAG.exec(name)?.[0];
    if (!tag) continue;
    const base = name.replace(SUBSET_TAG, "");
    subsets.set(base, (subsets.get(base) ?? new Set<string>()).add(tag));
  }
  return Object.fromEntries([...subsets].filter(([, tags]) => tags.size > 1).map(([base, tags]) => [base, tags.size]));
};

/**
 * The pages' font evidence; `explained` is what other page detectors already raised, whose
 * rows the substituted-font rule leaves alone.
 */
export const detectFontInconsistency = (pages: PageContent[], explained: readonly Evidence[] = []): DetectorResult => {
  const judged = pages.map((page) => pageEvidence(page, explained));
  const evidence = judged.flatMap((e) => e ?? []);
  const mixed = pages.filter((_, i) => judged[i] === null);
  const lines = pages.reduce((n, p) => n + p.lines.length, 0);
  return {
    detector: PDF_FONTS_DETECTOR,
    evidence,
    facts: {
      ...(mixed.length > 0
        ? {
            notJudged: `text set in more than ${MAX_JUDGED_FAMILIES} font families by design`,
            mixedFontPages: mixed.slice(0, 10).map((p) => p.page),
          }
        : {}),
      fontsPerPage: Object.fromEntries(pages.slice(0, 10).map((p) => [p.page, p.resourceFonts.slice(0, 20)])),
      textLines: lines,
      repeatedSubsets: Object.fromEntries(
        pages
          .slice(0, 10)
          .map((p) => [p.page, repeatedSubsets(p)])
          .filter(([, r]) => Object.keys(r as object).length > 0),
      ),
    },
    coverage: pages.length === 0 ? 0 : lines > 0 ? 1 - mixed.length / pages.length : 0.1,
  };
};
