// PDFs made and re-made by outside tools: LibreOffice converting ODT or HTML, headless
// Chromium printing HTML, Ghostscript re-distilling a PDF (what "print to PDF" does), and
// Ghostscript rasterising a page for the scan and photo simulations.
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stableFileId } from "../pdf/edit.ts";
import { runTool, withScratch } from "./tools.ts";

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/**
 * LibreOffice and Chromium stamp the wall clock into the PDF (SOURCE_DATE_EPOCH is honoured
 * by Ghostscript only). Their dates are rewritten in place to the corpus clock, digit for
 * digit, so no offset moves, as if the tool had run then; LibreOffice's trailer checksum
 * (an MD5 taken with the clock in it) and the random file identifier are replaced by hashes
 * of the content.
 */
export function pinClock(pdf: Uint8Array, when: Date): Uint8Array {
  const d = when;
  const digits = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  const iso = d.toISOString().slice(0, 19);
  const text = Buffer.from(pdf)
    .toString("latin1")
    .replace(/D:\d{14}/g, `D:${digits}`)
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/g, iso);
  // The checksum is zeroed before the identifier is derived, then taken over the result.
  const CHECKSUM = /\/DocChecksum \/[0-9A-F]{32}/;
  const zeroed = stableFileId(
    new Uint8Array(Buffer.from(text.replace(CHECKSUM, `/DocChecksum /${"0".repeat(32)}`), "latin1")),
  );
  const stable = Buffer.from(zeroed).toString("latin1");
  const checksum = createHash("md5").update(stable, "latin1").digest("hex").toUpperCase();
  return new Uint8Array(Buffer.from(stable.replace(CHECKSUM, `/DocChecksum /${checksum}`), "latin1"));
}

export type OfficeSource = { kind: "fodt" | "html"; text: string };

/**
 * soffice --headless --convert-to pdf, with a profile of its own (parallel runs do not share one).
 */
export function libreOfficePdf(source: OfficeSource, when: Date): Promise<Uint8Array> {
  return withScratch(async (dir) => {
    const src = join(dir, `document.${source.kind}`);
    await writeFile(src, source.text);
    // HTML opens in Writer/Web unless told otherwise; Writer proper lays it out as a page.
    const filter = source.kind === "html" ? ["--infilter=HTML (StarWriter)"] : [];
    await runTool(
      "soffice",
      [
        "--headless",
        "--norestore",
        `-env:UserInstallation=file://${dir}/profile`,
        ...filter,
        "--convert-to",
        "pdf:writer_pdf_Export",
        "--outdir",
        dir,
        src,
      ],
      { epoch: when, cwd: dir },
    );
    return pinClock(new Uint8Array(await readFile(join(dir, "document.pdf"))), when);
  });
}

/** Headless Chromium's print-to-PDF, without the header and footer it adds by default. */
export function chromiumPdf(html: string, when: Date): Promise<Uint8Array> {
  return withScratch(async (dir) => {
    const src = join(dir, "document.html");
    const out = join(dir, "document.pdf");
    await writeFile(src, html);
    await runTool(
      "chromium",
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${dir}/profile`,
        "--no-pdf-header-footer",
        `--print-to-pdf=${out}`,
        `file://${src}`,
      ],
      { epoch: when, cwd: dir },
    );
    return pinClock(new Uint8Array(await readFile(out)), when);
  });
}

/**
 * Re-distilled by Ghostscript's pdfwrite, as "print to PDF" through a Ghostscript printer
 * does: a benign re-make. (Through PostScript first, ps2write, the fonts lose their Unicode
 * maps and the text layer reads as garbage: a different family, not made here.)
 */
export function ghostscriptRedistill(pdf: Uint8Array, when: Date): Promise<Uint8Array> {
  return withScratch(async (dir) => {
    await writeFile(join(dir, "in.pdf"), pdf);
    await runTool(
      "gs",
      [
        "-q",
        "-dNOPAUSE",
        "-dBATCH",
        "-dSAFER",
        "-sDEVICE=pdfwrite",
        "-dCompatibilityLevel=1.7",
        "-sOutputFile=out.pdf",
        "in.pdf",
      ],
      { epoch: when, cwd: dir },
    );
    return stableFileId(new Uint8Array(await readFile(join(dir, "out.pdf"))));
  });
}

/** Page 1 as an RGB PNG at `dpi`, anti-aliased as a print driver renders it. */
export function ghostscriptPage(pdf: Uint8Array, dpi: number, when: Date): Promise<Buffer> {
  return withScratch(async (dir) => {
    await writeFile(join(dir, "in.pdf"), pdf);
    await runTool(
      "gs",
      [
        "-q",
        "-dNOPAUSE",
        "-dBATCH",
        "-dSAFER",
        "-sDEVICE=png16m",
        `-r${dpi}`,
        "-dFirstPage=1",
        "-dLastPage=1",
        "-dTextAlphaBits=4",
        "-dGraphicsAlphaBits=4",
        "-sOutputFile=page.png",
        "in.pdf",
      ],
      { epoch: when, cwd: dir },
    );
    return readFile(join(dir, "page.png"));
  });
}
