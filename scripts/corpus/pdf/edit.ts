// The ways a forger (or a harmless viewer) changes a PDF, done with mupdf as real tools do:
// rewriting text in content streams, stacking a white box and new text on top in an
// incremental update, laying an annotation over a field, stamping an editor's metadata.
import { createHash } from "node:crypto";
import * as mupdf from "mupdf";
import { PDFDocument as PdfLibDocument, type PDFFont, StandardFonts } from "pdf-lib";
import { pdfDate } from "../clock.ts";
import { shownBytes } from "../finance/win-ansi.ts";
import type { Box } from "../render/svg.ts";

export function openPdf(bytes: Uint8Array): mupdf.PDFDocument {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  if (!(doc instanceof mupdf.PDFDocument)) throw new Error("not a PDF");
  return doc;
}

function contentStreams(page: mupdf.PDFPage): mupdf.PDFObject[] {
  const c = page.getObject().get("Contents");
  if (c.isArray()) return Array.from({ length: c.length }, (_, i) => c.get(i));
  return [c];
}

function hexToLatin1(hex: string): string {
  const h = hex.replace(/\s+/g, "");
  let s = "";
  for (let i = 0; i + 1 < h.length; i += 2) s += String.fromCharCode(parseInt(h.slice(i, i + 2), 16));
  return s;
}

function latin1ToHex(s: string): string {
  let h = "";
  for (const ch of s) h += ch.charCodeAt(0).toString(16).padStart(2, "0");
  return h;
}

export interface TextEdit {
  from: string;
  to: string;
  /** Which drawing of `from` on the page (0 = first), in content-stream order. */
  occurrence: number;
}

// Text-showing operators with hex strings, as pdf-lib (Tj) and PDFKit (TJ with kerning) write them.
const SHOW_TEXT = /\[((?:\s*(?:<[0-9A-Fa-f\s]*>|-?\d*\.?\d+))*)\s*\]\s*TJ|<([0-9A-Fa-f\s]*)>\s*Tj/g;

/** Replaces whole strings shown on a page; throws if one is not found. */
export function rewriteTexts(doc: mupdf.PDFDocument, pageIndex: number, edits: TextEdit[]): void {
  const page = doc.loadPage(pageIndex);
  const pending = new Map(edits.map((e) => [`${e.from}\u0000${e.occurrence}`, e]));
  const seen = new Map<string, number>();
  for (const stream of contentStreams(page)) {
    const src = stream.readStream().asString();
    const out = src.replace(SHOW_TEXT, (whole, tjArray: string | undefined, tjHex: string | undefined) => {
      const text =
        tjArray !== undefined
          ? [...tjArray.matchAll(/<([0-9A-Fa-f\s]*)>/g)].map((m) => hexToLatin1(m[1] ?? "")).join("")
          : hexToLatin1(tjHex ?? "");
      const n = seen.get(text) ?? 0;
      seen.set(text, n + 1);
      const edit = pending.get(`${text}\u0000${n}`);
      if (!edit) return whole;
      pending.delete(`${text}\u0000${n}`);
      return tjArray !== undefined ? `[<${latin1ToHex(edit.to)}>] TJ` : `<${latin1ToHex(edit.to)}> Tj`;
    });
    // Both generators write text as hex strings, so the streams are ASCII and survive the
    // string round trip unchanged.
    if (out !== src) stream.writeStream(new mupdf.Buffer(out));
  }
  if (pending.size > 0)
    throw new Error(`strings not found on page ${pageIndex}: ${[...pending.values()].map((e) => e.from).join(", ")}`);
}

let helvetica: Promise<PDFFont> | undefined;
/** Advance width with the standard Helvetica metrics (what Arial substitutes to). */
export async function helveticaWidth(text: string, size: number): Promise<number> {
  helvetica ??= PdfLibDocument.create().then((d) => d.embedFont(StandardFonts.Helvetica));
  return (await helvetica).widthOfTextAtSize(text, size);
}

function pdfString(s: string): string {
  return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/**
 * White-out and retype, the way online editors do it: the original contents are wrapped in
 * q/Q and a new stream paints a white box over `box` and the new text in another font.
 */
export async function overlayText(
  doc: mupdf.PDFDocument,
  pageIndex: number,
  box: Box,
  baseline: number,
  text: string,
  size: number,
  alignRightAt?: number,
): Promise<Box> {
  const page = doc.loadPage(pageIndex);
  const pageObj = page.getObject();
  const [, , , top] = page.getBounds();
  const H = top;
  const resources = pageObj.get("Resources");
  let fonts = resources.get("Font");
  if (fonts.isNull()) {
    fonts = doc.newDictionary();
    resources.put("Font", fonts);
  }
  const font = doc.newDictionary();
  font.put("Type", doc.newName("Font"));
  font.put("Subtype", doc.newName("Type1"));
  font.put("BaseFont", doc.newName("Arial"));
  font.put("Encoding", doc.newName("WinAnsiEncoding"));
  fonts.put("FEd1", doc.addObject(font));
  const w = await helveticaWidth(text, size);
  const x = alignRightAt !== undefined ? alignRightAt - w : box.x;
  const pad = 1.5;
  const white = { x: Math.min(box.x, x) - pad, y: box.y - pad, w: Math.max(box.w, w) + 2 * pad, h: box.h + 2 * pad };
  const ops =
    `q 1 1 1 rg ${white.x.toFixed(2)} ${(H - white.y - white.h).toFixed(2)} ${white.w.toFixed(2)} ${white.h.toFixed(2)} re f Q\n` +
    `q BT 0.1 0.1 0.12 rg /FEd1 ${size} Tf 1 0 0 1 ${x.toFixed(2)} ${(H - baseline).toFixed(2)} Tm ${pdfString(shownBytes(text))} Tj ET Q\n`;
  const before = doc.addStream(new mupdf.Buffer("q\n"), doc.newDictionary());
  // A byte per character (WinAnsi, as the font says): a string Buffer would be UTF-8.
  const after = doc.addStream(new mupdf.Buffer(Buffer.from(`Q\n${ops}`, "latin1")), doc.newDictionary());
  const contents = doc.newArray();
  contents.push(before);
  const old = pageObj.get("Contents");
  if (old.isArray()) for (let i = 0; i < old.length; i++) contents.push(old.get(i));
  else contents.push(old);
  contents.push(after);
  pageObj.put("Contents", contents);
  return white;
}

/** A FreeText annotation with an opaque white background, showing `text` over `box`. */
export function overlayAnnotation(
  doc: mupdf.PDFDocument,
  pageIndex: number,
  box: Box,
  text: string,
  size: number,
): Box {
  const page = doc.loadPage(pageIndex);
  const annot = page.createAnnotation("FreeText");
  const rect: Box = { x: box.x - 2, y: box.y - 1.5, w: box.w + 4, h: box.h + 3 };
  annot.setRect([rect.x, rect.y, rect.x + rect.w, rect.y + rect.h]);
  annot.setContents(text);
  annot.setDefaultAppearance("Helv", size, [0.1, 0.1, 0.12]);
  annot.setColor([1, 1, 1]);
  annot.setBorderWidth(0);
  annot.setQuadding(0);
  annot.update();
  return rect;
}

export interface EditorStamp {
  producer?: string;
  creator?: string;
  modDate?: Date;
}

export function stampMetadata(doc: mupdf.PDFDocument, stamp: EditorStamp): void {
  if (stamp.producer !== undefined) doc.setMetaData("info:Producer", stamp.producer);
  if (stamp.creator !== undefined) doc.setMetaData("info:Creator", stamp.creator);
  if (stamp.modDate) doc.setMetaData("info:ModDate", pdfDate(stamp.modDate));
}

export function savePdf(doc: mupdf.PDFDocument, mode: "incremental" | "rewrite"): Uint8Array {
  const buf = doc.saveToBuffer(mode === "incremental" ? "incremental" : "garbage=compact,compress");
  return stableFileId(buf.asUint8Array().slice());
}

/**
 * mupdf writes a random file identifier (trailer /ID) on every save. The corpus must be
 * byte-reproducible, so each newly minted identifier in the last trailer is replaced by a
 * hash of the file (the PDF spec suggests a content hash anyway); identifiers inherited
 * from an earlier revision are kept. The trailer follows the xref table, so its length may
 * change without moving any offset.
 */
export function stableFileId(bytes: Uint8Array): Uint8Array {
  const text = Buffer.from(bytes).toString("latin1");
  const at = text.lastIndexOf("/ID");
  const STRING = String.raw`(<[0-9A-Fa-f]*>|\((?:\\.|[^\\()])*\))`;
  const m = at < 0 ? null : new RegExp(String.raw`^/ID\s*\[\s*${STRING}\s*${STRING}\s*\]`).exec(text.slice(at));
  if (!m) return bytes;
  const tokens = [m[1] as string, m[2] as string];
  const inherited = tokens.map((t) => text.indexOf(t) < at);
  const blanked = text.slice(0, at) + text.slice(at + m[0].length);
  const digest = createHash("sha256").update(blanked, "latin1").digest("hex").toUpperCase();
  const ids = tokens.map((t, i) => (inherited[i] ? t : `<${digest.slice(i * 32, i * 32 + 32)}>`));
  return new Uint8Array(
    Buffer.from(`${text.slice(0, at)}/ID[${ids.join("")}]${text.slice(at + m[0].length)}`, "latin1"),
  );
}
