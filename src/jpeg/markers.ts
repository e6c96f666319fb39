// Reads the JPEG header segments by hand: no JS library exposes the raw quantization
// tables (exifr skips them, sharp/libvips keeps them internal), and the tables are what
// the quality estimate, the double-compression test and the sidecar's forensics need. Every
// length is checked against the buffer before it is read; parsing stops at the first scan.
// The one JPEG structure reader of the project: the API's detectors (src/analysis/image/) and
// the sidecar (sidecar/forensics/jpeg-tables.ts) read the header through it, and the other
// walks over a JPEG's markers, intake's bound on scans and metadata
// (src/intake/jpeg-structure.ts) and the sidecar's coefficient decoder
// (sidecar/forensics/jpeg-coefficients.ts), walk through its walkJpegSegments().

/** Zigzag position -> natural (row-major) position of an 8x8 block. */
export const ZIGZAG_TO_NATURAL = Uint8Array.from([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
]);

interface JpegComponent {
  id: number;
  h: number;
  v: number;
  /** Index of the quantization table this component uses. */
  tq: number;
}

interface JpegFrame {
  /** SOF marker number: 0 baseline, 1 extended, 2 progressive, ... */
  sof: number;
  precision: number;
  width: number;
  height: number;
  components: JpegComponent[];
}

export interface JpegStructure {
  /** Quantization tables by table id, each 64 values in natural (row-major) order. */
  quantTables: Map<number, Uint16Array>;
  frame?: JpegFrame;
  /** APPn markers present, e.g. "APP0:JFIF", "APP1:Exif", "APP1:XMP", "APP14:Adobe". */
  appMarkers: string[];
  /** How many DQT segments the header carries (editors sometimes write one per table). */
  dqtSegments: number;
  /** COM segment text, bounded; read for software signatures only. */
  comments: string[];
  reachedScan: boolean;
}

export class JpegStructureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JpegStructureError";
  }
}

const MAX_SEGMENTS = 512;
const MAX_COMMENT_CHARS = 200;

const appName = (marker: number, body: Uint8Array): string => {
  const n = marker - 0xe0;
  const head = new TextDecoder("latin1").decode(body.subarray(0, Math.min(body.length, 32)));
  if (head.startsWith("JFIF\0")) return `APP${n}:JFIF`;
  if (head.startsWith("Exif\0")) return `APP${n}:Exif`;
  if (head.startsWith("http://ns.adobe.com/xap/1.0/")) return `APP${n}:XMP`;
  if (head.startsWith("ICC_PROFILE")) return `APP${n}:ICC`;
  if (head.startsWith("Photoshop 3.0")) return `APP${n}:Photoshop`;
  if (head.startsWith("Adobe")) return `APP${n}:Adobe`;
  if (head.startsWith("Ducky")) return `APP${n}:Ducky`;
  return `APP${n}`;
};

const readDqt = (body: Uint8Array, tables: Map<number, Uint16Array>): void => {
  let p = 0;
  while (p < body.length) {
    const pq = body[p]! >> 4;
    const tq = body[p]! & 0x0f;
    if (pq > 1 || tq > 3) throw new JpegStructureError("invalid DQT table header");
    const size = pq === 0 ? 64 : 128;
    if (p + 1 + size > body.length) throw new JpegStructureError("truncated DQT table");
    const table = new Uint16Array(64);
    for (let i = 0; i < 64; i++) {
      const v = pq === 0 ? body[p + 1 + i]! : (body[p + 1 + 2 * i]! << 8) | body[p + 2 + 2 * i]!;
      if (v === 0) throw new JpegStructureError("zero quantization step");
      table[ZIGZAG_TO_NATURAL[i]!] = v;
    }
    tables.set(tq, table);
    p += 1 + size;
  }
};

const readSof = (marker: number, body: Uint8Array): JpegFrame => {
  if (body.length < 6) throw new JpegStructureError("truncated SOF");
  const count = body[5]!;
  if (count < 1 || count > 4 || body.length < 6 + 3 * count) {
    throw new JpegStructureError("invalid SOF component count");
  }
  const components: JpegComponent[] = [];
  for (let i = 0; i < count; i++) {
    const o = 6 + 3 * i;
    components.push({ id: body[o]!, h: body[o + 1]! >> 4, v: body[o + 1]! & 0x0f, tq: body[o + 2]! });
  }
  return {
    sof: marker - 0xc0,
    precision: body[0]!,
    height: (body[1]! << 8) | body[2]!,
    width: (body[3]! << 8) | body[4]!,
    components,
  };
};

/** SOF0..SOF15, less DHT (C4), JPG (C8) and DAC (CC), which share the range. */
export const isSof = (m: number): boolean => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/**
 * The table the frame's first component (luma) is quantized with, natural order; none without a
 * frame.
 */
export const lumaTable = (s: JpegStructure): Uint16Array | undefined => {
  const id = s.frame?.components[0]?.tq;
  return id === undefined ? undefined : s.quantTables.get(id);
};

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;

/** A marker and, unless it stands alone (TEM, RSTn, EOI), the segment it opens. */
export interface JpegSegment {
  /** The byte after 0xFF: 0xDB for DQT, 0xDA for SOS, ... */
  marker: number;
  /**
   * The segment's length field (its body and the field's two bytes); 0 for a marker that stands
   * alone.
   */
  length: number;
  /** The segment's bytes after the length field, within the buffer. */
  body: Uint8Array;
  /** Where the segment ends (after an SOS, where its entropy-coded data starts). */
  end: number;
}

/**
 * Walks a JPEG's markers from the one after SOI, stepping over each SOS's entropy-coded data to
 * the marker after it; the caller stops where it has read enough (the header reader at the
 * first SOS). Fill bytes (0xFF runs) are skipped; TEM and RSTn stand alone; any other marker
 * opens a segment with a length field. The walk ends quietly where fewer than four bytes are
 * left (a marker is read only with room for a length field after it, so a file's closing EOI
 * is not yielded) or after an EOI that bytes follow, which is yielded.
 *
 * Strict (the default), bytes that break this syntax throw JpegStructureError: a file that
 * does not start with SOI, a byte that is not a marker where one is due, a segment length below
 * 2 or past the end of the bytes. Lenient, the walk goes on as a decoder does: bytes that are
 * no marker (a stuffed 0xFF00 among them) are stepped over one at a time, so is a second SOI,
 * and a segment is taken at its declared length, so that a bound on what the decoder will read
 * (src/intake/jpeg-structure.ts) sees every segment the decoder sees.
 */
export function* walkJpegSegments(bytes: Uint8Array, { lenient = false } = {}): Generator<JpegSegment, void> {
  if (!lenient && (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI)) {
    throw new JpegStructureError("missing SOI marker");
  }
  let p = 2;
  while (p + 4 <= bytes.length) {
    const marker = bytes[p + 1]!;
    if (bytes[p] !== 0xff || (lenient && marker === 0x00)) {
      if (!lenient) throw new JpegStructureError("expected a marker");
      // A stuffed 0xFF00 is no marker either: both of its bytes are stepped over.
      p++;
      continue;
    }
    if (marker === 0xff) {
      p++; // fill byte
      continue;
    }
    if (marker === EOI) {
      yield { marker, length: 0, body: bytes.subarray(p + 2, p + 2), end: p + 2 };
      return;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7) || (lenient && marker === SOI)) {
      yield { marker, length: 0, body: bytes.subarray(p + 2, p + 2), end: p + 2 };
      p += 2;
      continue;
    }
    const length = (bytes[p + 2]! << 8) | bytes[p + 3]!;
    const end = p + 2 + length;
    if (!lenient && (length < 2 || end > bytes.length)) {
      throw new JpegStructureError("segment length out of bounds");
    }
    yield { marker, length, body: bytes.subarray(p + 4, end), end };
    p = marker === SOS ? skipEntropyCoded(bytes, end) : end;
  }
}

/**
 * Where the entropy-coded data starting at `p` ends: at the next marker that is neither a
 * stuffed 0xFF00 nor a restart. A plain function, not part of the generator, which engines
 * optimise less: this loop runs over nearly every byte of the file.
 */
function skipEntropyCoded(bytes: Uint8Array, p: number): number {
  while (
    p + 1 < bytes.length &&
    !(bytes[p] === 0xff && bytes[p + 1] !== 0x00 && (bytes[p + 1]! < 0xd0 || bytes[p + 1]! > 0xd7))
  )
    p++;
  return p;
}

export const parseJpegStructure = (bytes: Uint8Array): JpegStructure => {
  const out: JpegStructure = {
    quantTables: new Map(),
    appMarkers: [],
    dqtSegments: 0,
    comments: [],
    reachedScan: false,
  };
  let segments = 0;
  for (const { marker, body } of walkJpegSegments(bytes)) {
    if (marker === EOI) throw new JpegStructureError("EOI before first scan");
    if (marker === SOS) {
      out.reachedScan = true;
      return out;
    }
    if (marker === 0xdb) {
      out.dqtSegments++;
      readDqt(body, out.quantTables);
    } else if (isSof(marker)) {
      out.frame = readSof(marker, body);
    } else if (marker >= 0xe0 && marker <= 0xef) {
      out.appMarkers.push(appName(marker, body));
    } else if (marker === 0xfe) {
      out.comments.push(
        new TextDecoder("latin1").decode(body.subarray(0, MAX_COMMENT_CHARS)).replace(/[^\x20-\x7e]/g, " "),
      );
    }
    if (++segments === MAX_SEGMENTS) throw new JpegStructureError("too many header segments");
  }
  throw new JpegStructureError("truncated before first scan");
};
