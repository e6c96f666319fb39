// The quantised DCT coefficients of a baseline JPEG's luma, read from the entropy-coded
// data. Double quantisation shows only in these integers: once decoded to pixels, text on
// white paper is clipped at 255 in every block and the coefficients recomputed from the
// pixels are off the quantisation lattice (measured: mean distance to it 0.25, as uniform).
// Hand-written because neither sharp/libvips nor the JavaScript JPEG decoders expose the
// coefficients. Only baseline (SOF0/SOF1, 8-bit, Huffman) is read; progressive and
// arithmetic-coded files give null. Every length and count is checked against the buffer, and
// the frame must have the size of the pixels already decoded (and bounded) by the caller.
// The markers are walked by the project's one JPEG structure reader (src/jpeg/markers.ts),
// here past the first scan: a non-interleaved file codes luma in a scan of its own, Huffman
// tables between.
import { isSof, JpegStructureError, walkJpegSegments } from "../../src/jpeg/markers.ts";

/** Coefficients kept per block, in zigzag order (DC first). */
export const KEPT_COEFFICIENTS = 10;

export interface LumaCoefficients {
  /** Luma blocks across and down (the frame's, padded to whole MCUs). */
  cols: number;
  rows: number;
  /** KEPT_COEFFICIENTS quantised values per block, zigzag order, blocks row-major. */
  values: Int16Array;
}

interface Huffman {
  /**
   * Per code length 1..16: largest code of that length (-1 when none), first symbol index, first
   * code.
   */
  maxCode: Int32Array;
  valPtr: Int32Array;
  minCode: Int32Array;
  symbols: Uint8Array;
}

interface Component {
  id: number;
  h: number;
  v: number;
  /** Blocks across and down in this component's grid padded to whole MCUs... */
  cols: number;
  rows: number;
  /** ...and covering only its samples, as a scan of this component alone codes them. */
  ownCols: number;
  ownRows: number;
}

class Malformed extends Error {}

/** Null when the bytes are not a baseline JPEG of `width` x `height` or are malformed. */
export function readLumaCoefficients(bytes: Uint8Array, width: number, height: number): LumaCoefficients | null {
  try {
    return read(bytes, width, height);
  } catch (error) {
    if (error instanceof Malformed || error instanceof JpegStructureError) return null;
    throw error;
  }
}

function read(bytes: Uint8Array, width: number, height: number): LumaCoefficients | null {
  const dc = new Map<number, Huffman>();
  const ac = new Map<number, Huffman>();
  let components: Component[] | null = null;
  let restartInterval = 0;
  let luma: LumaCoefficients | null = null;
  for (const { marker, body: segment, end } of walkJpegSegments(bytes)) {
    if (marker === 0xd9) break;
    if (marker === 0xc0 || marker === 0xc1) {
      components = readFrame(segment, width, height);
      const y = components[0]!;
      luma = { cols: y.cols, rows: y.rows, values: new Int16Array(y.cols * y.rows * KEPT_COEFFICIENTS) };
    } else if (isSof(marker)) {
      return null; // progressive, lossless or arithmetic-coded
    } else if (marker === 0xc4) {
      readHuffmanTables(segment, dc, ac);
    } else if (marker === 0xdd) {
      if (segment.length < 2) throw new Malformed();
      restartInterval = (segment[0]! << 8) | segment[1]!;
    } else if (marker === 0xda) {
      if (!components || !luma) throw new Malformed();
      // Baseline codes each component in exactly one scan: once luma's is read, the rest is not
      // needed, and a file cannot make the whole frame be decoded again and again. Another
      // component's scan is stepped over by the walk.
      if (readScan(bytes, end, segment, components, dc, ac, restartInterval, luma)) return luma;
    }
  }
  return luma;
}

function readFrame(segment: Uint8Array, width: number, height: number): Component[] {
  if (segment.length < 6 || segment[0] !== 8) throw new Malformed();
  const frameHeight = (segment[1]! << 8) | segment[2]!;
  const frameWidth = (segment[3]! << 8) | segment[4]!;
  const count = segment[5]!;
  if (frameWidth !== width || frameHeight !== height || count < 1 || count > 4 || segment.length < 6 + count * 3)
    throw new Malformed();
  const raw = Array.from({ length: count }, (_, i) => ({
    id: segment[6 + i * 3]!,
    h: segment[7 + i * 3]! >> 4,
    v: segment[7 + i * 3]! & 15,
  }));
  if (raw.some((c) => c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4)) throw new Malformed();
  const hMax = Math.max(...raw.map((c) => c.h));
  const vMax = Math.max(...raw.map((c) => c.v));
  const mcuCols = Math.ceil(width / (8 * hMax));
  const mcuRows = Math.ceil(height / (8 * vMax));
  return raw.map((c) => ({
    ...c,
    cols: mcuCols * c.h,
    rows: mcuRows * c.v,
    ownCols: Math.ceil(Math.ceil((width * c.h) / hMax) / 8),
    ownRows: Math.ceil(Math.ceil((height * c.v) / vMax) / 8),
  }));
}

function readHuffmanTables(segment: Uint8Array, dc: Map<number, Huffman>, ac: Map<number, Huffman>): void {
  let at = 0;
  while (at < segment.length) {
    if (at + 17 > segment.length) throw new Malformed();
    const tableClass = segment[at]! >> 4;
    const id = segment[at]! & 15;
    const counts = segment.subarray(at + 1, at + 17);
    const total = counts.reduce((s, n) => s + n, 0);
    if (at + 17 + total > segment.length || total > 256) throw new Malformed();
    const symbols = segment.slice(at + 17, at + 17 + total);
    const maxCode = new Int32Array(17).fill(-1);
    const valPtr = new Int32Array(17);
    const minCode = new Int32Array(17);
    let code = 0;
    let k = 0;
    for (let length = 1; length <= 16; length++) {
      valPtr[length] = k;
      minCode[length] = code;
      code += counts[length - 1]!;
      k += counts[length - 1]!;
      if (counts[length - 1]! > 0) maxCode[length] = code - 1;
      code <<= 1;
    }
    (tableClass === 0 ? dc : ac).set(id, { maxCode, valPtr, minCode, symbols });
    at += 17 + total;
  }
}

class BitReader {
  private buffer = 0;
  private bits = 0;

  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
  ) {}

  bit(): number {
    if (this.bits === 0) {
      let byte = 0;
      // A marker ends the entropy-coded data; past it the decoder reads zeros, as libjpeg does.
      if (this.at < this.bytes.length && !(this.bytes[this.at] === 0xff && this.bytes[this.at + 1] !== 0)) {
        byte = this.bytes[this.at]!;
        this.at += byte === 0xff ? 2 : 1;
      }
      this.buffer = byte;
      this.bits = 8;
    }
    this.bits--;
    return (this.buffer >> this.bits) & 1;
  }

  receive(length: number): number {
    let v = 0;
    for (let i = 0; i < length; i++) v = (v << 1) | this.bit();
    return v;
  }

  decode(table: Huffman): number {
    let code = 0;
    for (let length = 1; length <= 16; length++) {
      code = (code << 1) | this.bit();
      if (code <= table.maxCode[length]!) {
        const index = table.valPtr[length]! + code - table.minCode[length]!;
        if (index >= table.symbols.length) throw new Malformed();
        return table.symbols[index]!;
      }
    }
    throw new Malformed();
  }

  /** Skips to the restart marker that must follow (RST0..7) and past it. */
  restart(): void {
    this.bits = 0;
    while (
      this.at + 1 < this.bytes.length &&
      !(this.bytes[this.at] === 0xff && this.bytes[this.at + 1]! >= 0xd0 && this.bytes[this.at + 1]! <= 0xd7)
    )
      this.at++;
    this.at += 2;
  }
}

const extend = (v: number, length: number) => (length === 0 ? 0 : v < 1 << (length - 1) ? v - (1 << length) + 1 : v);

/** Decodes the scan when it codes luma (true), else leaves it (false). */
function readScan(
  bytes: Uint8Array,
  dataStart: number,
  header: Uint8Array,
  frame: Component[],
  dc: Map<number, Huffman>,
  ac: Map<number, Huffman>,
  restartInterval: number,
  luma: LumaCoefficients,
): boolean {
  const count = header[0] ?? 0;
  if (count < 1 || header.length < 1 + count * 2 + 3) throw new Malformed();
  const scan = Array.from({ length: count }, (_, i) => {
    const component = frame.find((c) => c.id === header[1 + i * 2]);
    const dcTable = dc.get(header[2 + i * 2]! >> 4);
    const acTable = ac.get(header[2 + i * 2]! & 15);
    if (!component || !dcTable || !acTable) throw new Malformed();
    return { component, isLuma: component === frame[0], dcTable, acTable, predictor: 0 };
  });
  if (!scan.some((s) => s.isLuma)) return false;
  const reader = new BitReader(bytes, dataStart);
  const block = new Int16Array(64);
  const decodeBlock = (s: (typeof scan)[number], col: number, row: number) => {
    // Only the kept coefficients are ever read back; the rest of the block is scratch for the run
    // lengths.
    block.fill(0, 0, KEPT_COEFFICIENTS);
    const t = reader.decode(s.dcTable);
    if (t > 11) throw new Malformed();
    s.predictor += extend(reader.receive(t), t);
    block[0] = s.predictor;
    for (let k = 1; k < 64; ) {
      const rs = reader.decode(s.acTable);
      const run = rs >> 4;
      const size = rs & 15;
      if (size === 0) {
        if (run !== 15) break;
        k += 16;
        continue;
      }
      k += run;
      if (k > 63) throw new Malformed();
      block[k] = extend(reader.receive(size), size);
      k++;
    }
    if (s.isLuma && col < luma.cols && row < luma.rows) {
      const at = (row * luma.cols + col) * KEPT_COEFFICIENTS;
      for (let k = 0; k < KEPT_COEFFICIENTS; k++) luma.values[at + k] = block[k]!;
    }
  };
  const single = scan.length === 1 ? scan[0]! : null;
  const y = frame[0]!;
  const mcuCols = y.cols / y.h;
  const units = single ? single.component.ownCols * single.component.ownRows : mcuCols * (y.rows / y.v);
  for (let unit = 0; unit < units; unit++) {
    if (restartInterval > 0 && unit > 0 && unit % restartInterval === 0) {
      reader.restart();
      for (const s of scan) s.predictor = 0;
    }
    if (single) {
      decodeBlock(single, unit % single.component.ownCols, Math.floor(unit / single.component.ownCols));
      continue;
    }
    const mx = unit % mcuCols;
    const my = Math.floor(unit / mcuCols);
    for (const s of scan) {
      for (let v = 0; v < s.component.v; v++)
        for (let h = 0; h < s.component.h; h++) decodeBlock(s, mx * s.component.h + h, my * s.component.v + v);
    }
  }
  return true;
}
