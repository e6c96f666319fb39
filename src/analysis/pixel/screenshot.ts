// screenshot: a picture of a screen rather than of the document. Conservative on purpose:
// only a lossless image (screenshots are saved as PNG), with no camera metadata, whose
// exact size is a common screen resolution. A scan or a photo rarely has such a size;
// UI bars are not judged (a banner or a table header is a uniform bar too).
import { notApplicable } from "../detector.ts";
import type { DetectorResult, Evidence } from "../report.ts";
import type { DetectorName } from "../manifest.ts";

const SCREENSHOT_DETECTOR = "screenshot" satisfies DetectorName;

const STRENGTH = 0.6;

/** Common phone, tablet and desktop resolutions as [short side, long side]. */
const SCREEN_SIZES: ReadonlyArray<readonly [number, number]> = [
  // phones
  [640, 1136],
  [720, 1280],
  [720, 1520],
  [720, 1600],
  [750, 1334],
  [828, 1792],
  [1080, 1920],
  [1080, 2160],
  [1080, 2280],
  [1080, 2340],
  [1080, 2400],
  [1125, 2436],
  [1170, 2532],
  [1179, 2556],
  [1206, 2622],
  [1242, 2208],
  [1242, 2688],
  [1284, 2778],
  [1290, 2796],
  [1320, 2868],
  [1440, 2560],
  [1440, 3040],
  [1440, 3088],
  [1440, 3200],
  // tablets
  [1200, 1920],
  [1536, 2048],
  [1600, 2560],
  [1620, 2160],
  [1640, 2360],
  [1668, 2224],
  [1668, 2388],
  [2048, 2732],
  // desktops and laptops
  [720, 1280],
  [768, 1366],
  [800, 1280],
  [864, 1536],
  [900, 1440],
  [900, 1600],
  [1050, 1680],
  [1080, 1920],
  [1200, 1920],
  [1440, 2560],
  [1600, 2560],
  [1800, 2880],
  [1964, 3024],
  [2160, 3840],
];

export interface ScreenshotInput {
  format: "jpeg" | "png" | "pdf";
  /** The image's own pixels, upright. */
  width: number;
  height: number;
  /** A camera make or model in the metadata. */
  camera: boolean;
}

export function detectScreenshot(input: ScreenshotInput): DetectorResult {
  if (input.format !== "png") {
    return notApplicable(
      { detector: SCREENSHOT_DETECTOR, evidence: [], facts: {}, coverage: 0 },
      "only lossless images are judged",
    );
  }
  const short = Math.min(input.width, input.height);
  const long = Math.max(input.width, input.height);
  const screenSized = SCREEN_SIZES.some(([s, l]) => s === short && l === long);
  const size = `${input.width}x${input.height}`;
  const evidence: Evidence[] =
    screenSized && !input.camera
      ? [
          {
            flag: "screenshot" as const,
            detector: SCREENSHOT_DETECTOR,
            strength: STRENGTH,
            message: "A lossless image without camera metadata, exactly the size of a common screen",
            measured: size,
            threshold: "a listed screen resolution",
          },
        ]
      : [];
  return {
    detector: SCREENSHOT_DETECTOR,
    evidence,
    facts: { size, screenSized, cameraMetadata: input.camera },
    coverage: 1,
  };
}
