// The thresholds of the API's own detectors that the manifest (manifest.ts) lists. They live
// apart from the detectors because the manifest reads them and every detector imports the
// manifest's DetectorName: with the values inside the detectors the two would import each
// other. The pixel detectors' thresholds come from the sidecar that measured the traces
// (sidecar/cues/thresholds.ts, sidecar/forensics/).

// double-jpeg-compression (image/double-compression.ts)
/**
 * Decision thresholds on the mean misfit reduction, set from measurements on generated
 * photos (test/helpers/fixtures.ts makeJpeg / resaveJpeg, seeds 1-15; held-out seeds 21-25
 * gave 0 false positives in 40 single saves at q50..95):
 * single saves at q70..95 stay at or below 0.17, double saves reach 0.23 or more unless
 * both qualities are within ~5 points or the first was ≥95. Below a final quality of 70
 * calibration itself degrades (single saves reach 0.27), so the bar is raised there.
 */
export const doubleCompressionThreshold = (finalQuality: number): number => (finalQuality < 70 ? 0.4 : 0.2);

// pdf-annotation-overlay (pdf/annotations.ts)
/** Share of a text line's area an annotation must cover to hide or replace it. */
export const COVER_THRESHOLD = 0.3;

// reading-quality (pixel/reading-quality.ts)
/**
 * Mean line confidence under which the page reads as blurred. Clean print reads at 0.95+
 * (content/text.ts); lines under 0.5 are dropped by the OCR, so a mean under 0.85 means
 * many characters were guesses.
 */
export const MIN_MEAN_CONFIDENCE = 0.85;
