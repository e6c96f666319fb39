// Bank statements, payslips and utility bills, genuine and forged, as PDFs and as images.
import * as mupdf from "mupdf";
import { addDays } from "./clock.ts";
import type { DrawnText, GeneratedPdf, PdfInfo } from "./finance/drawn.ts";
import {
  amountFields,
  bankStatement,
  type FinanceDocument,
  type Ledger,
  payslip,
  utilityBill,
} from "./finance/model.ts";
import { statementLayout } from "./finance/statement-layout.ts";
import { renderWithPdfLib } from "./finance/pdf-lib-render.ts";
import { renderWithPdfKit } from "./finance/pdfkit-render.ts";
import { fullName, randomPerson } from "./identity/person.ts";
import { type CapturedImage, messagingResave, photograph, recompress, scan } from "./image/capture.ts";
import { decode, EDITORS, fitPatch, regionPng, retypePatches, saveEdited } from "./image/forge.ts";
import { FORGERY_KINDS, GENUINE_KINDS, type ForgeryRegion, type MadeDocument } from "./labels.ts";
import { shownBytes } from "./finance/win-ansi.ts";
import {
  helveticaWidth,
  openPdf,
  overlayAnnotation,
  overlayText,
  rewriteTexts,
  savePdf,
  stampMetadata,
  type TextEdit,
} from "./pdf/edit.ts";
import type { PlannedDocument } from "./plan.ts";
import type { Box } from "./render/svg.ts";
import type { Rng } from "./rng.ts";

const PRODUCERS = { "pdf-lib": "pdf-lib (https://github.com/Hopding/pdf-lib)", pdfkit: "PDFKit" } as const;
const SYSTEM_CREATORS = ["CoreBanking eStatements 4.2", "PayrollHub 2024.3", "Billing Engine 11"];
const OFFICE = [
  { producer: "LibreOffice 7.6", creator: "Writer" },
  { producer: "LibreOffice 7.5", creator: "Calc" },
  { producer: "Microsoft® Word for Microsoft 365", creator: "Microsoft® Word for Microsoft 365" },
  { producer: "Microsoft® Excel® 2019", creator: "Microsoft® Excel® 2019" },
];
const VIEWERS = [
  "macOS Version 14.4 (Build 23E214) Quartz PDFContext",
  "Microsoft: Print To PDF",
  "Foxit PDF Reader Printer Version 12.1.2.15332",
];
const PDF_EDITORS = [
  { producer: "iLovePDF", creator: undefined },
  { producer: "Adobe Acrobat Pro (64-bit) 24.1.20673", creator: "Adobe Acrobat Pro (64-bit) 24.1.20673" },
  { producer: "PDF-XChange Editor 10.2.1.385", creator: "PDF-XChange Editor 10.2.1.385" },
  { producer: "Sejda PDF Editor", creator: undefined },
  { producer: "Foxit PDF Editor 12.1", creator: "Foxit PDF Editor 12.1" },
];
// Kinds whose first copy is a payslip rather than a statement, so a small corpus has both.
const PAYSLIP_FIRST = new Set([
  "genuine_office",
  "genuine_resaved",
  "pdf_annotation_overlay",
  "pdf_incremental_edit",
  "genuine_scan",
]);
// Kinds delivered as an image of the first page: their statement fits on one.
const ONE_PAGE = new Set([
  "genuine_scan",
  "genuine_photo",
  "genuine_messaging",
  "genuine_recompressed",
  "pdf_forged_photographed",
  "image_retype",
  "image_copy_move",
]);

type Generator = "pdf-lib" | "pdfkit";

function chooseGenerator(doc: PlannedDocument): Generator {
  const k = [...GENUINE_KINDS, ...FORGERY_KINDS].indexOf(doc.kind as never);
  return (doc.variant + k) % 2 === 0 ? "pdf-lib" : "pdfkit";
}

function chooseModel(doc: PlannedDocument, rng: Rng, today: Date): FinanceDocument {
  const person = randomPerson(rng, today);
  if (doc.documentType === "utility_bill") return utilityBill(rng, person, today);
  const payslipNow = doc.variant === 0 ? PAYSLIP_FIRST.has(doc.kind) : rng.chance(0.3);
  return payslipNow
    ? payslip(rng, person, today)
    : bankStatement(rng, person, today, (days) => statementLayout(rng, days, !ONE_PAGE.has(doc.kind)));
}

function generate(gen: Generator, model: FinanceDocument, info: PdfInfo): Promise<GeneratedPdf> {
  return gen === "pdf-lib" ? renderWithPdfLib(model, info) : renderWithPdfKit(model, info);
}

function occurrence(texts: DrawnText[], t: DrawnText): number {
  return texts.filter((x) => x.page === t.page && x.text === t.text).indexOf(t);
}

function drawnField(g: GeneratedPdf, field: string): DrawnText {
  const t = g.texts.find((x) => x.field === field);
  if (!t) throw new Error(`field ${field} was not drawn`);
  return t;
}

/** The amount a forger raises: the salary credit, the base pay, a bill line. */
function targetAmount(ledger: Ledger): { field: string; forged: Ledger } {
  if (ledger.kind === "bank_statement") {
    const i = ledger.moves.indexOf(Math.max(...ledger.moves));
    const moves = [...ledger.moves];
    moves[i] = Math.round((moves[i] as number) * 1.75 + 12_300);
    return {
      field: `row${i}.${ledger.layout.movements === "signed" ? "amount" : "credit"}`,
      forged: { ...ledger, moves },
    };
  }
  if (ledger.kind === "payslip") {
    const earnings = [...ledger.earnings];
    earnings[0] = Math.round((earnings[0] as number) * 1.6 + 25_000);
    return { field: "earning0", forged: { ...ledger, earnings } };
  }
  const items = [...ledger.items];
  items[1] = Math.round((items[1] as number) * 0.4);
  return { field: "item1", forged: { ...ledger, items } };
}

/**
 * Text edits, each on its page, that turn `ledger` into `forged`: one field only, or every amount
 * that depends on it.
 */
function amountEdits(
  g: GeneratedPdf,
  ledger: Ledger,
  forged: Ledger,
  field: string,
  fixTotals: boolean,
): { edits: (TextEdit & { page: number })[]; regions: ForgeryRegion[] } {
  const before = amountFields(ledger);
  const after = amountFields(forged);
  const changed = Object.keys(after).filter((f) => after[f] !== before[f] && (fixTotals || f === field));
  const edits: (TextEdit & { page: number })[] = [];
  const regions: ForgeryRegion[] = [];
  for (const f of changed) {
    const t = drawnField(g, f);
    const to = after[f] as string;
    edits.push({ page: t.page, from: shownBytes(t.text), to: shownBytes(to), occurrence: occurrence(g.texts, t) });
    regions.push({ page: t.page, unit: "pt", box: t.box, field: f, from: t.text, to });
  }
  return { edits, regions };
}

/** Rewrites the strings of `edits` page by page. */
function rewritePages(pdf: ReturnType<typeof openPdf>, edits: (TextEdit & { page: number })[]): void {
  for (const page of new Set(edits.map((e) => e.page)))
    rewriteTexts(
      pdf,
      page,
      edits.filter((e) => e.page === page),
    );
}

function nameField(model: FinanceDocument): string {
  return model.kind === "bank_statement" ? "holder" : model.kind === "payslip" ? "employee" : "customer";
}

/** Every drawing of the holder's name (letter head and details), renamed. */
function nameEdits(
  g: GeneratedPdf,
  model: FinanceDocument,
  newName: string,
): { edits: TextEdit[]; regions: ForgeryRegion[] } {
  const field = nameField(model);
  const old = drawnField(g, field).text;
  const to = old === old.toUpperCase() ? newName.toUpperCase() : newName;
  const drawn = g.texts.filter((t) => t.text === old);
  return {
    edits: drawn.map((t) => ({ from: old, to, occurrence: occurrence(g.texts, t) })),
    regions: drawn.map((t) => ({ page: 0, unit: "pt" as const, box: t.box, field, from: old, to })),
  };
}

async function rasterize(rng: Rng, pdf: Uint8Array): Promise<{ png: Buffer; scale: number }> {
  const scale = rng.float(1.9, 2.5); // about 140-180 dpi
  const page = openPdf(pdf).loadPage(0);
  const pix = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
  return { png: Buffer.from(pix.asPNG()), scale };
}

function ptToPx(b: Box, k: number): Box {
  return { x: Math.floor(b.x * k), y: Math.floor(b.y * k), w: Math.ceil(b.w * k), h: Math.ceil(b.h * k) };
}

export async function makeFinanceDocument(doc: PlannedDocument, rng: Rng, today: Date): Promise<MadeDocument> {
  const model = chooseModel(doc, rng, today);
  const gen = chooseGenerator(doc);
  const created = addDays(today, -rng.float(0.05, 2));
  const office = doc.kind === "genuine_office" ? rng.pick(OFFICE) : undefined;
  const info: PdfInfo = {
    producer: office?.producer ?? PRODUCERS[gen],
    creator: office?.creator ?? rng.pick(SYSTEM_CREATORS),
    creationDate: new Date(Math.floor(created.getTime() / 1000) * 1000),
    title: model.title,
  };
  const g = await generate(gen, model, info);
  const base = { generator: gen, source: `${gen}/${model.kind}` };
  const history = [`${gen}:${model.kind}`];
  const later = addDays(info.creationDate, rng.int(1, 25));

  switch (doc.kind) {
    case "genuine_clean":
    case "genuine_office":
      return { ...base, bytes: g.bytes, format: "pdf", history };
    case "genuine_resaved": {
      const pdf = openPdf(g.bytes);
      const viewer = rng.chance(0.5) ? rng.pick(VIEWERS) : undefined;
      stampMetadata(pdf, { producer: viewer, modDate: later });
      return {
        ...base,
        bytes: savePdf(pdf, "rewrite"),
        format: "pdf",
        history: [...history, `resave:${viewer ?? "producer kept"}`],
      };
    }
    case "genuine_scan":
    case "genuine_photo":
    case "genuine_messaging":
    case "genuine_recompressed": {
      const { png } = await rasterize(rng, g.bytes);
      let img: CapturedImage =
        doc.kind === "genuine_scan" ? await scan(rng, png, today) : await photograph(rng, png, today, 0.6);
      if (doc.kind === "genuine_messaging") img = await messagingResave(rng, img);
      if (doc.kind === "genuine_recompressed") img = await recompress(rng, img);
      return { ...base, bytes: img.bytes, format: img.format, history: [...history, "mupdf:render", ...img.history] };
    }
    case "pdf_amount_rewrite":
    case "pdf_amount_rewrite_fixed_totals":
    case "pdf_forged_photographed": {
      const { field, forged } = targetAmount(model.ledger);
      const fix = doc.kind === "pdf_amount_rewrite_fixed_totals";
      const { edits, regions } = amountEdits(g, model.ledger, forged, field, fix);
      const pdf = openPdf(g.bytes);
      rewritePages(pdf, edits);
      const bytes = savePdf(pdf, "rewrite");
      const steps = [...history, `mupdf:rewrite-content${fix ? "+totals" : ""}`];
      if (doc.kind !== "pdf_forged_photographed")
        return { ...base, bytes, format: "pdf", history: steps, forgery: { regions } };
      const { png, scale } = await rasterize(rng, bytes);
      const img = await photograph(rng, png, today, 0.8);
      return {
        ...base,
        bytes: img.bytes,
        format: "jpeg",
        history: [...steps, "mupdf:render", ...img.history],
        forgery: { regions: regions.map((r) => ({ ...r, unit: "px", box: img.map(ptToPx(r.box, scale)) })) },
      };
    }
    case "pdf_incremental_edit": {
      const pdf = openPdf(g.bytes);
      let region: ForgeryRegion;
      if (model.kind === "utility_bill") {
        const t = drawnField(g, "customer");
        const to = fullName(randomPerson(rng, today));
        const white = await overlayText(pdf, 0, t.box, t.baseline, to, t.size);
        region = { page: 0, unit: "pt", box: white, field: "customer", from: t.text, to };
      } else {
        const field = model.kind === "bank_statement" ? "closing_balance" : "net";
        const t = drawnField(g, field);
        const { forged } = targetAmount(model.ledger);
        const to = amountFields(forged)[field] as string;
        const white = await overlayText(pdf, t.page, t.box, t.baseline, to, t.size, t.box.x + t.box.w);
        region = { page: t.page, unit: "pt", box: white, field, from: t.text, to };
      }
      const editor = rng.chance(0.5) ? rng.pick(PDF_EDITORS) : undefined;
      stampMetadata(pdf, { producer: editor?.producer, modDate: later });
      return {
        ...base,
        bytes: savePdf(pdf, "incremental"),
        format: "pdf",
        history: [...history, "mupdf:incremental-overlay"],
        forgery: { regions: [region], software: editor?.producer },
      };
    }
    case "pdf_annotation_overlay": {
      const pdf = openPdf(g.bytes);
      const field = nameField(model);
      const t = drawnField(g, field);
      const newName = fullName(randomPerson(rng, today));
      const to = t.text === t.text.toUpperCase() ? newName.toUpperCase() : newName;
      const rect = overlayAnnotation(pdf, 0, t.box, to, t.size);
      const mode = rng.chance(0.5) ? "incremental" : "rewrite";
      return {
        ...base,
        bytes: savePdf(pdf, mode),
        format: "pdf",
        history: [...history, `mupdf:freetext-annotation:${mode}`],
        forgery: { regions: [{ page: 0, unit: "pt", box: rect, field, from: t.text, to }] },
      };
    }
    case "pdf_editor_metadata": {
      const pdf = openPdf(g.bytes);
      const { edits, regions } = nameEdits(g, model, fullName(randomPerson(rng, today)));
      rewriteTexts(pdf, 0, edits);
      const editor = rng.pick(PDF_EDITORS);
      stampMetadata(pdf, { producer: editor.producer, creator: editor.creator, modDate: later });
      return {
        ...base,
        bytes: savePdf(pdf, "rewrite"),
        format: "pdf",
        history: [...history, `editor:${editor.producer}`],
        forgery: { regions, software: editor.producer },
      };
    }
    case "image_retype":
    case "image_copy_move": {
      const { png, scale } = await rasterize(rng, g.bytes);
      const img = rng.chance(0.6) ? await scan(rng, png, today) : await photograph(rng, png, today, 0.3);
      const pixels = await decode(img.bytes);
      const { field, forged } = targetAmount(model.ledger);
      const t = drawnField(g, field);
      const box = img.map(ptToPx(t.box, scale));
      let patches: ReturnType<typeof retypePatches>;
      let to: string;
      let changed = box;
      if (doc.kind === "image_retype") {
        to = amountFields(forged)[field] as string;
        patches = retypePatches(pixels, box, to, "Open Sans");
      } else {
        // The first digit's glyph copied over a later, different digit; glyph cells from
        // Helvetica's advance widths (what the page was drawn with).
        const k = box.w / (await helveticaWidth(t.text, t.size));
        const cellOf = async (i: number): Promise<Box> => {
          const x0 = (await helveticaWidth(t.text.slice(0, i), t.size)) * k;
          const x1 = (await helveticaWidth(t.text.slice(0, i + 1), t.size)) * k;
          return { ...box, x: Math.floor(box.x + x0), w: Math.max(1, Math.ceil(x1 - x0)) };
        };
        const isDigit = (c: string) => c >= "0" && c <= "9";
        const si = [...t.text].findIndex(isDigit);
        const dstIndex = [...t.text].findIndex((c, i) => i > si && isDigit(c) && c !== t.text[si]);
        const di = dstIndex > 0 ? dstIndex : t.text.length - 1;
        const dst = await cellOf(di);
        patches = [await fitPatch(await regionPng(pixels, await cellOf(si)), dst)];
        to = t.text.slice(0, di) + t.text[si] + t.text.slice(di + 1);
        changed = dst;
      }
      const save = {
        software: rng.chance(0.5) ? rng.pick(EDITORS) : undefined,
        keepCameraExif: rng.chance(0.5),
        when: today,
      };
      const out = await saveEdited(rng, img, pixels, patches, save);
      return {
        ...base,
        bytes: out.bytes,
        format: "jpeg",
        history: [...history, "mupdf:render", ...out.history],
        forgery: { regions: [{ page: 0, unit: "px", box: changed, field, from: t.text, to }], software: save.software },
      };
    }
    default:
      throw new Error(`no finance maker for kind ${doc.kind}`);
  }
}
