// Null-safe walking of PDF objects. mupdf returns a shared Null object for a missing
// key, and that object cannot itself be read from (get/resolve throw), so every path
// through a hostile file's dictionaries goes through these.
import type * as mupdf from "mupdf";

/**
 * The object at `keys` below `obj`; Null when any step is missing. mupdf resolves
 * references inside get(), so the value returned keeps its own reference (asIndirect).
 */
export const child = (obj: mupdf.PDFObject, ...keys: string[]): mupdf.PDFObject => {
  let cur = obj;
  for (const key of keys) {
    if (cur.isNull()) return cur;
    cur = cur.get(key);
  }
  return cur;
};

export const resolved = (obj: mupdf.PDFObject): mupdf.PDFObject => (obj.isIndirect() ? obj.resolve() : obj);

/** Calls `fn` for up to `limit` entries of an array or dictionary; nothing otherwise. */
export const each = (
  obj: mupdf.PDFObject,
  fn: (value: mupdf.PDFObject, key: number | string) => void,
  limit = 500,
): void => {
  const o = resolved(obj);
  if (!o.isArray() && !o.isDictionary()) return;
  let n = 0;
  o.forEach((value, key) => {
    if (n++ < limit) fn(value, key);
  });
};

export const nameAt = (obj: mupdf.PDFObject, key: string): string | undefined => {
  const v = child(obj, key);
  return v.isName() ? v.asName() : undefined;
};
