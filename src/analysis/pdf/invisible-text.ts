// Whether a content stream only adds invisible text: what an OCR tool (Tesseract,
// OCRmyPDF, a scanner's software) appends to a scanned page so that it can be searched.
// Text in render mode 3 is neither filled nor stroked; a stream that also paints a path,
// an image or visible text changes what the page shows.
import type * as mupdf from "mupdf";
import { readOperations } from "./content-tokens";

/** Larger streams are not an OCR layer of one page worth reading twice. */
const MAX_STREAM_BYTES = 4_000_000;

const SHOWS_TEXT = new Set(["Tj", "TJ", "'", '"']);
/** Operators that paint: paths, shadings, XObjects (images, forms) and inline images. */
const PAINTS = new Set(["f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "sh", "Do", "BI", "ID", "EI"]);
const INVISIBLE = 3;

export const onlyInvisibleText = (stream: mupdf.PDFObject): boolean => {
  if (!stream.isStream()) return false;
  const length = stream.get("Length");
  if (length.isNumber() && length.asNumber() > MAX_STREAM_BYTES) return false;
  let bytes: Uint8Array;
  try {
    bytes = stream.readStream().asUint8Array();
  } catch {
    return false;
  }
  // Render mode is graphics state: saved by q, restored by Q. A stream starts as if in
  // mode 0, whatever the stream before it left.
  const saved: number[] = [];
  let mode = 0;
  let shown = 0;
  for (const { op, operands } of readOperations(bytes)) {
    if (op === "q") saved.push(mode);
    else if (op === "Q") mode = saved.pop() ?? 0;
    else if (op === "Tr") mode = typeof operands[0] === "number" ? operands[0] : 0;
    else if (PAINTS.has(op)) return false;
    else if (SHOWS_TEXT.has(op)) {
      if (mode !== INVISIBLE) return false;
      shown++;
    }
  }
  return shown > 0;
};
