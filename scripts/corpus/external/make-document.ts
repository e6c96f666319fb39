// One external-family document from its plan entry: the finance source rendered by the
// family's tool (or re-distilled, scanned, photographed), genuine or forged by the entry's
// method; identity documents from the in-house generator, captured with ImageMagick.
import { addDays } from "../clock.ts";
import { fullName, randomPerson } from "../identity/person.ts";
import type { CapturedImage } from "../image/capture.ts";
import type { ForgeryRegion, MadeDocument } from "../labels.ts";
import { makeIdentityDocument } from "../make-identity.ts";
import { openPdf, overlayText, savePdf, stampMetadata } from "../pdf/edit.ts";
import type { Box } from "../render/svg.ts";
import type { Rng } from "../rng.ts";
import {
  amountChange,
  chooseSource,
  type FinanceSource,
  type Renderer,
  renderSource,
  sourceName,
} from "./finance-source.ts";
import { imagemagickMessaging, imagemagickPhoto, imagemagickScan } from "./imagemagick.ts";
import { findOne, findText, retype } from "./pdf-forge.ts";
import { ghostscriptPage, ghostscriptRedistill } from "./pdf-tools.ts";
import type { PlannedExternal } from "./plan.ts";

const PDF_EDITORS = [
  { producer: "Adobe Acrobat Pro (64-bit) 24.1.20673", creator: "Adobe Acrobat Pro (64-bit) 24.1.20673" },
  { producer: "PDF-XChange Editor 10.2.1.385", creator: "PDF-XChange Editor 10.2.1.385" },
  { producer: "Sejda PDF Editor", creator: undefined },
  { producer: "iLovePDF", creator: undefined },
];
/** Pages are rasterised at a scanner's or phone's resolution before capture. */
const DPI = 150;

interface Made {
  bytes: Uint8Array;
  history: string[];
  regions?: ForgeryRegion[];
  software?: string;
}

const ptRegion = (field: string, box: Box, from: string, to: string): ForgeryRegion => ({
  page: 0,
  unit: "pt",
  box,
  field,
  from,
  to,
});

/** The holder's printed name (statement holder, employee, bill customer) and its field. */
function holderName(source: FinanceSource): { field: string; text: string } {
  const field =
    source.model.kind === "bank_statement" ? "holder" : source.model.kind === "payslip" ? "employee" : "customer";
  return { field, text: printedField(source, field) };
}

/** A summary or detail value as the document prints it, in its locale. */
function printedField(source: FinanceSource, field: string): string {
  const cell = [...source.model.summary, ...source.model.meta].find(([, c]) => c.field === field)?.[1];
  if (!cell) throw new Error(`${source.model.kind} prints no ${field}`);
  return cell.text;
}

async function forgePdf(
  rng: Rng,
  doc: PlannedExternal,
  source: FinanceSource,
  today: Date,
  created: Date,
): Promise<Made> {
  const later = addDays(created, rng.int(1, 20));
  const change = amountChange(source);
  switch (doc.recipe.method) {
    case "source-edit": {
      const bytes = await renderSource(source, created, change.forgedModel);
      const hit = findOne(openPdf(bytes).loadPage(0), change.to);
      return {
        bytes,
        history: [`source:edit ${change.field}`, `${source.renderer}:render`],
        regions: [ptRegion(change.field, hit.box, change.from, change.to)],
      };
    }
    case "pdf-edit": {
      const pdf = openPdf(await renderSource(source, created));
      const hit = findOne(pdf.loadPage(0), change.from);
      const box = await retype(pdf, hit, change.to, true);
      return {
        bytes: savePdf(pdf, "rewrite"),
        history: [`${source.renderer}:render`, "mupdf:redact+retype"],
        regions: [ptRegion(change.field, box, change.from, change.to)],
      };
    }
    case "overlay": {
      const pdf = openPdf(await renderSource(source, created));
      // The figure a lender reads: the closing balance or net pay; on a bill, the customer.
      const target =
        source.model.kind === "utility_bill"
          ? "customer"
          : source.model.kind === "bank_statement"
            ? "closing_balance"
            : "net";
      const from = printedField(source, target);
      const to = target === "customer" ? fullName(randomPerson(rng, today)) : change.to;
      const hit = findOne(pdf.loadPage(0), from);
      const white = await overlayText(
        pdf,
        0,
        hit.box,
        hit.baseline,
        to,
        hit.size,
        target === "customer" ? undefined : hit.box.x + hit.box.w,
      );
      const editor = rng.chance(0.5) ? rng.pick(PDF_EDITORS) : undefined;
      stampMetadata(pdf, { producer: editor?.producer, modDate: later });
      return {
        bytes: savePdf(pdf, "incremental"),
        history: [`${source.renderer}:render`, "mupdf:incremental-overlay"],
        regions: [ptRegion(target, white, from, to)],
        software: editor?.producer,
      };
    }
    case "editor-name": {
      const pdf = openPdf(await renderSource(source, created));
      const { field, text: from } = holderName(source);
      const newName = fullName(randomPerson(rng, today));
      const to = from === from.toUpperCase() ? newName.toUpperCase() : newName;
      const regions: ForgeryRegion[] = [];
      for (const hit of findText(pdf.loadPage(0), from))
        regions.push(ptRegion(field, await retype(pdf, hit, to, false), from, to));
      if (regions.length === 0) throw new Error(`"${from}" is not on the page on one line`);
      const editor = rng.pick(PDF_EDITORS);
      stampMetadata(pdf, { producer: editor.producer, creator: editor.creator, modDate: later });
      return {
        bytes: savePdf(pdf, "rewrite"),
        history: [`${source.renderer}:render`, `editor:${editor.producer}`],
        regions,
        software: editor.producer,
      };
    }
    default:
      return { bytes: await renderSource(source, created), history: [`${source.renderer}:render`] };
  }
}

async function capture(rng: Rng, doc: PlannedExternal, png: Buffer, today: Date): Promise<CapturedImage> {
  if (doc.family.capture === "scan") return imagemagickScan(rng, png, today);
  const photo = await imagemagickPhoto(rng, png, today);
  return doc.recipe.method === "messaging" ? imagemagickMessaging(rng, photo, today) : photo;
}

type Output = Omit<MadeDocument, "generator">;

async function captured(rng: Rng, doc: PlannedExternal, today: Date, created: Date): Promise<Output> {
  if (doc.documentType !== "financial" && doc.documentType !== "utility_bill") {
    // The identity generator's clean PNG, then ImageMagick's capture in place of its own.
    const card = await makeIdentityDocument(
      { id: doc.id, kind: "genuine_clean", documentType: doc.documentType, variant: doc.variant, split: doc.split },
      rng,
      today,
    );
    const img = await capture(rng, doc, Buffer.from(card.bytes), today);
    return {
      bytes: img.bytes,
      format: img.format,
      source: card.source,
      history: [...card.history, ...img.history],
      mrz: card.mrz,
    };
  }
  const source = chooseSource(rng, doc, today, doc.variant % 2 === 0 ? "chromium" : "libreoffice");
  const made = await forgePdf(rng, doc, source, today, created);
  const png = await ghostscriptPage(made.bytes, DPI, today);
  const img = await capture(rng, doc, png, today);
  const k = DPI / 72;
  const regions = made.regions?.map((r) => ({
    ...r,
    unit: "px" as const,
    box: img.map({ x: r.box.x * k, y: r.box.y * k, w: r.box.w * k, h: r.box.h * k }),
  }));
  return {
    bytes: img.bytes,
    format: img.format,
    source: sourceName(source),
    history: [...made.history, `ghostscript:render ${DPI}dpi`, ...img.history],
    forgery: regions ? { regions } : undefined,
  };
}

export async function makeExternalDocument(doc: PlannedExternal, rng: Rng, today: Date): Promise<MadeDocument> {
  const generator = doc.family.generator;
  const created = new Date(Math.floor(addDays(today, -rng.float(0.05, 2)).getTime() / 1000) * 1000);
  if (doc.family.capture !== "native") return { generator, ...(await captured(rng, doc, today, created)) };
  // Ghostscript re-distils what LibreOffice or Chromium made.
  const renderer: Renderer =
    generator === "libreoffice" || generator === "chromium"
      ? generator
      : doc.variant % 2 === 0
        ? "libreoffice"
        : "chromium";
  const source = chooseSource(rng, doc, today, renderer);
  const made = await forgePdf(rng, doc, source, today, created);
  const bytes =
    generator === "ghostscript" ? await ghostscriptRedistill(made.bytes, addDays(created, rng.int(0, 5))) : made.bytes;
  const history = generator === "ghostscript" ? [...made.history, "ghostscript:pdfwrite"] : made.history;
  const forgery = made.regions ? { regions: made.regions, software: made.software } : undefined;
  return { generator, bytes, format: "pdf", source: sourceName(source), history, forgery };
}
