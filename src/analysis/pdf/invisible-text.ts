// Whether a content stream only adds invisible text: what an OCR tool (Tesseract,
// OCRmyPDF, a scanner's software) appends to a scanned page so that it can be searched,
// directly or in a form XObject it draws. Text in render mode 3 is neither filled nor
// stroked; a stream that also paints a path, an image or visible text changes what the
// page shows. (What a stream leaves in the graphics state for the streams after it is the
// caller's to rule out: a layer is benign only after the page's own content.)
import type * as mupdf from "mupdf";
import { readOperations } from "./content-tokens.ts";
import { child, nameAt } from "./objects.ts";

/** Larger streams are not an OCR layer of one page worth reading twice. */
const MAX_STREAM_BYTES = 4_000_000;

const SHOWS_TEXT = new Set(["Tj", "TJ", "'", '"']);
/** Operators that paint: paths, shadings, XObjects (images, forms) and inline images. */
const PAINTS = new Set(["f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "sh", "BI", "ID", "EI"]);
const INVISIBLE = 3;
/** Forms drawing forms: OCRmyPDF nests one level; more is not an OCR layer. */
const MAX_FORM_DEPTH = 2;

/**
 * When `stream` shows text, all of it invisible, and paints nothing but forms that are
 * themselves invisible text: the object numbers of those forms (none when it draws none).
 * Undefined otherwise. `resources` resolves the names its Do operators draw.
 */
export const invisibleTextLayer = (
  stream: mupdf.PDFObject,
  resources: mupdf.PDFObject,
  depth = 0,
): number[] | undefined => {
  if (!stream.isStream() || depth > MAX_FORM_DEPTH) return undefined;
  const length = stream.get("Length");
  if (length.isNumber() && length.asNumber() > MAX_STREAM_BYTES) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = stream.readStream().asUint8Array();
  } catch {
    return undefined;
  }
  // Render mode is graphics state: saved by q, restored by Q. A stream starts as if in
  // mode 0, whatever the stream before it left.
  const saved: number[] = [];
  const forms: number[] = [];
  let mode = 0;
  let shown = 0;
  for (const { op, operands } of readOperations(bytes)) {
    if (op === "q") saved.push(mode);
    else if (op === "Q") mode = saved.pop() ?? 0;
    else if (op === "Tr") mode = typeof operands[0] === "number" ? operands[0] : 0;
    else if (PAINTS.has(op)) return undefined;
    else if (op === "Do") {
      const name = operands[0];
      const form =
        typeof name === "object" && name.type === "name" ? child(resources, "XObject", name.name) : undefined;
      if (!form?.isIndirect() || nameAt(form, "Subtype") !== "Form") return undefined;
      const own = child(form, "Resources");
      const nested = invisibleTextLayer(form, own.isNull() ? resources : own, depth + 1);
      if (!nested) return undefined;
      forms.push(form.asIndirect(), ...nested);
      shown++;
    } else if (SHOWS_TEXT.has(op)) {
      if (mode !== INVISIBLE) return undefined;
      shown++;
    }
  }
  return shown > 0 ? forms : undefined;
};
