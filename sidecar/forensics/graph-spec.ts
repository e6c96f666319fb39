// The contract between scripts/models/build-forensics-graphs.ts, which writes the forensic
// ONNX graph, and sidecar/forensics/graph.ts, which runs it. Both import these numbers so the
// graph and the code reading its outputs cannot drift apart.

/** JPEG's block side; every per-block map is on this grid, aligned to the page origin. */
export const BLOCK = 8;
/**
 * Pixel differences above this are edges, not blocking artifacts; clipping keeps text from drowning
 * the grid.
 */
export const GRID_CLIP = 10;
/** Copy-move compares overlapping square blocks of this side... */
export const CM_BLOCK = 16;
/** ...taken every CM_STEP pixels in both directions... */
export const CM_STEP = 2;
/** ...described by their CM_FREQS x CM_FREQS lowest 2-D DCT coefficients. */
export const CM_FREQS = 4;
/**
 * The orthonormal CM_BLOCK-point DCT-II basis, frequency k at sample n: the graph's copy-move
 * kernels and copy-move.ts's own features at odd offsets.
 */
export const cmBasis = (k: number, n: number) =>
  Math.sqrt((k === 0 ? 1 : 2) / CM_BLOCK) * Math.cos(((2 * n + 1) * k * Math.PI) / (2 * CM_BLOCK));
/**
 * Copy-move blocks whose AC energy (sum of squared non-DC features) is below this are flat paper (a
 * std of ~6 grey levels): the graph leaves them out.
 */
export const CM_MIN_AC_ENERGY = CM_BLOCK * CM_BLOCK * 36;
/** The first luma weight set of JPEG's (JFIF) RGB to YCbCr conversion. */
export const LUMA_WEIGHTS = [0.299, 0.587, 0.114] as const;
/** The luma of the interleaved RGB pixel starting at byte `p`. */
export const lumaAt = (rgb: Uint8Array, p: number): number =>
  LUMA_WEIGHTS[0] * rgb[p]! + LUMA_WEIGHTS[1] * rgb[p + 1]! + LUMA_WEIGHTS[2] * rgb[p + 2]!;

export const GRAPH_INPUTS = {
  rgb: "rgb",
  /**
   * [64] float: the luma quantisation steps (natural order v * 8 + u) error-level analysis
   * re-encodes with.
   */
  elaSteps: "ela_steps",
} as const;

export const GRAPH_OUTPUTS = {
  /** [1,1,H/8,W/8] mean |luma − luma re-encoded as a JPEG with the ela_steps table| per block. */
  ela: "ela",
  /** [1,1,H/8,W/8] mean |horizontal| + |vertical| first difference per block. */
  edge: "edge",
  /** [1,1,H/8,W/8] mean |SRM 3x3 second-order residual| per block. */
  noise: "noise",
  /** [1,1,H/8,W/8,8] mean clipped |horizontal difference| per block and column phase (x mod 8). */
  gridH: "grid_h",
  /** [1,1,H/8,W/8,8] mean clipped |vertical difference| per block and row phase (y mod 8). */
  gridV: "grid_v",
  /**
   * [N] int32: the copy-move blocks (row-major on the (H-16)/2+1 x (W-16)/2+1 grid) with at least
   * CM_MIN_AC_ENERGY, ascending.
   */
  copyMoveBlocks: "copy_move_blocks",
  /** [16,N] low-frequency DCT features of those overlapping 16x16 blocks, channel = u * 4 + v. */
  copyMoveFeatures: "copy_move_features",
} as const;

export const GRAPH_FILE = "forensics-maps.onnx";
