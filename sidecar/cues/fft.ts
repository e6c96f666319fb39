// In-place radix-2 complex FFT and the power spectrum of a square patch: the recapture cue
// looks for periodic peaks (a screen's pixel grid, moire, halftone) in a few patches of a
// page, small enough that a plain TypeScript transform costs a few milliseconds.

const twiddleCache = new Map<number, [Float64Array, Float64Array]>();

/** cos and sin of -2πk/n for k < n/2, computed once per length. */
function twiddles(n: number): [Float64Array, Float64Array] {
  let t = twiddleCache.get(n);
  if (!t) {
    t = [
      Float64Array.from({ length: n / 2 }, (_, k) => Math.cos((-2 * Math.PI * k) / n)),
      Float64Array.from({ length: n / 2 }, (_, k) => Math.sin((-2 * Math.PI * k) / n)),
    ];
    twiddleCache.set(n, t);
  }
  return t;
}

/** Forward FFT of (re, im) in place; the length must be a power of two. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const r = re[i]!;
      re[i] = re[j]!;
      re[j] = r;
      const m = im[i]!;
      im[i] = im[j]!;
      im[j] = m;
    }
  }
  const [cos, sin] = twiddles(n);
  for (let size = 2; size <= n; size <<= 1) {
    const half = size >> 1;
    const stride = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const wr = cos[k * stride]!;
        const wi = sin[k * stride]!;
        const a = start + k;
        const b = a + half;
        const tr = re[b]! * wr - im[b]! * wi;
        const ti = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
      }
    }
  }
}

const hannCache = new Map<number, Float64Array>();

function hannWindow(n: number): Float64Array {
  let w = hannCache.get(n);
  if (!w) {
    w = Float64Array.from({ length: n }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1)));
    hannCache.set(n, w);
  }
  return w;
}

/**
 * Power spectrum (n x n, frequency (u, v) at v * n + u, unshifted) of a square patch of side n
 * after removing its mean and a Hann window: the window keeps the patch's borders from
 * smearing energy along the axes.
 */
export function powerSpectrum(patch: Float64Array, n: number): Float64Array {
  let mean = 0;
  for (let i = 0; i < patch.length; i++) mean += patch[i]!;
  mean /= patch.length;
  const hann = hannWindow(n);
  const re = new Float64Array(n * n);
  const im = new Float64Array(n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) re[y * n + x] = (patch[y * n + x]! - mean) * hann[x]! * hann[y]!;
  const rowRe = new Float64Array(n);
  const rowIm = new Float64Array(n);
  for (let y = 0; y < n; y++) {
    rowRe.set(re.subarray(y * n, (y + 1) * n));
    rowIm.fill(0);
    fft(rowRe, rowIm);
    re.set(rowRe, y * n);
    im.set(rowIm, y * n);
  }
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) {
      rowRe[y] = re[y * n + x]!;
      rowIm[y] = im[y * n + x]!;
    }
    fft(rowRe, rowIm);
    for (let y = 0; y < n; y++) {
      re[y * n + x] = rowRe[y]!;
      im[y * n + x] = rowIm[y]!;
    }
  }
  const power = new Float64Array(n * n);
  for (let i = 0; i < power.length; i++) power[i] = re[i]! * re[i]! + im[i]! * im[i]!;
  return power;
}
