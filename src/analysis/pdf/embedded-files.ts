// Embedded files, and the one kind a document carries by standard: the XML of an
// e-invoice. ZUGFeRD, Factur-X, XRechnung and Order-X (EN 16931 family) embed their
// invoice data as an associated file under a name the standard fixes; that file is data a
// machine reads, not content that runs. Anything else embedded (an executable, another
// PDF, a file under any other name) stays active content.
import { inflateSync, constants } from "node:zlib";
import type * as mupdf from "mupdf";
import { child, each, nameAt, resolved } from "./objects.ts";

/** Names the e-invoice standards give their XML (case varies between versions). */
const E_INVOICE_NAMES = new Set(["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "order-x.xml"]);
/** MIME types an e-invoice's XML may declare: /Subtype is optional. */
const XML_SUBTYPES = new Set(["text/xml", "application/xml"]);
/**
 * Bytes of the file looked at to tell XML from anything else: enough for a BOM, a prolog's
 * whitespace and '<'.
 */
const SNIFF_BYTES = 512;
/** Compressed bytes inflated for the sniff: a prefix, so a decompression bomb costs nothing. */
const SNIFF_COMPRESSED = 4096;
/** Name-tree nodes and entries walked: a hostile tree cannot loop or grow without end. */
const MAX_TREE_DEPTH = 8;
const MAX_NAMES = 200;

export interface EmbeddedFile {
  name: string;
  /** Invoice data under the name an e-invoice standard gives it, and XML by its bytes. */
  eInvoice: boolean;
}

const text = (obj: mupdf.PDFObject): string | undefined => (obj.isString() ? obj.asString() : undefined);

/** The first bytes of an embedded file's data, decoded when it is Flate-compressed or plain. */
const head = (stream: mupdf.PDFObject): Uint8Array | undefined => {
  if (!stream.isStream()) return undefined;
  const filter = child(stream, "Filter");
  const filters = filter.isArray()
    ? Array.from({ length: filter.length }, (_, i) => filter.get(i))
    : filter.isNull()
      ? []
      : [filter];
  const names = filters.map((f) => (f.isName() ? f.asName() : ""));
  const raw = stream.readRawStream().asUint8Array();
  if (names.length === 0) return raw.subarray(0, SNIFF_BYTES);
  if (names.length !== 1 || names[0] !== "FlateDecode") return undefined;
  try {
    return inflateSync(raw.subarray(0, SNIFF_COMPRESSED), { finishFlush: constants.Z_SYNC_FLUSH }).subarray(
      0,
      SNIFF_BYTES,
    );
  } catch {
    return undefined;
  }
};

/** XML starts, after an optional byte-order mark and whitespace, with '<'. */
const looksLikeXml = (bytes: Uint8Array | undefined): boolean => {
  if (!bytes) return false;
  const s = new TextDecoder("latin1")
    .decode(bytes)
    .replace(/^(\xef\xbb\xbf|\xfe\xff|\xff\xfe)/, "")
    .trimStart();
  return /^<[?!A-Za-z_]/.test(s);
};

/** One file specification: its name and whether it is an e-invoice's XML. */
export const describeFileSpec = (spec: mupdf.PDFObject, fallbackName = ""): EmbeddedFile => {
  const s = resolved(spec);
  const name = text(child(s, "UF")) ?? text(child(s, "F")) ?? fallbackName;
  // Kept as the reference: mupdf answers isStream() only for the indirect object.
  const file = child(s, "EF", "F").isNull() ? child(s, "EF", "UF") : child(s, "EF", "F");
  const subtype = nameAt(file, "Subtype")?.toLowerCase();
  const eInvoice =
    E_INVOICE_NAMES.has(name.trim().toLowerCase()) &&
    (subtype === undefined || XML_SUBTYPES.has(subtype)) &&
    looksLikeXml(head(file));
  return { name, eInvoice };
};

/** The files of the document's /EmbeddedFiles name tree, bounded. */
export const embeddedFiles = (root: mupdf.PDFObject): EmbeddedFile[] => {
  const found: EmbeddedFile[] = [];
  const walk = (node: mupdf.PDFObject, depth: number): void => {
    if (depth > MAX_TREE_DEPTH || found.length >= MAX_NAMES) return;
    const names = child(node, "Names");
    let key = "";
    each(
      names,
      (value, index) => {
        if (typeof index === "number" && index % 2 === 0) key = text(resolved(value)) ?? "";
        else if (found.length < MAX_NAMES) found.push(describeFileSpec(value, key));
      },
      MAX_NAMES * 2,
    );
    each(child(node, "Kids"), (kid) => walk(kid, depth + 1), MAX_NAMES);
  };
  walk(child(root, "Names", "EmbeddedFiles"), 0);
  return found;
};
