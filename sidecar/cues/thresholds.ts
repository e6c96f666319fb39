// Thresholds of the portrait and recapture cues, measured on genuine documents only:
// scripts/eval/measure-pixel-cues.ts on the seed-7 corpus (299 genuine images, 193 identity
// cards with a portrait judged: clean renders, scans, photos, messaging and recompressed
// copies) and on recaptures of its genuine cards (scripts/eval/simulate-recapture.ts). The
// seed-42 corpus is kept for reporting, never for choosing these.

/**
 * Portrait measures judged, each a log2 ratio of the portrait's value to the rest of the card's
 * (sidecar/cues/portrait.ts), judged in the direction a paste moves them: a photo pasted after
 * the capture keeps detail the capture blurred (sharpness), its edge is a seam sharper than any
 * printed edge (seam), and its error level stands above the card's. Genuine cards reached
 * 0.55, 0.43 and 0.23 (0.72 and 0.73 for sharpness and seam on a genuine card printed and
 * photographed); the thresholds sit above all of them. Portrait swaps of the seed-7 corpus
 * reached 1.98, 1.71 and 1.48. The noise floor, the JPEG blockiness and the ghost image's
 * correlation are facts only: on genuine cards the first two range over 5 and 1 log2 units
 * with the portrait's own texture, and no corpus card shows both a portrait and its ghost.
 */
export const PORTRAIT_THRESHOLDS = { sharpness: 0.8, seam: 0.8, errorLevel: 0.4 } as const;

/**
 * Recapture: the median patch's strongest peak over its ring's median (log10 power) where at
 * least `agreement` of the 9 patches peak at one frequency. Genuine images reached a luma peak
 * of 2.59 and a colour peak of 2.79 (where 7 patches agreed: never for luma); printed and
 * photographed cards reached 4.2, 21 of 30 past these thresholds.
 */
export const RECAPTURE_THRESHOLDS = { lumaPeak: 2.6, chromaPeak: 3, agreement: 7 } as const;
