// The tampered-region localiser of one page: the page reduced to the working size, the
// network's cell probabilities, and the groups of cells at or above the threshold measured
// with the model (calibration.json, written by scripts/models/localiser/train.py). It is a
// trace beside the pixel forensics, not part of them: its score is a probability learnt from
// labelled forgeries, where theirs are z-scores within the page. The server does not run it
// yet: the committed model does not separate forged pages from genuine ones
// (docs/evaluation/localiser/README.md).
import { assertRgb } from "../image/rgb.ts";
import type { Device } from "../ocr/providers.ts";
import calibration from "./calibration.json" with { type: "json" };
import { type CellMap, type LocalisedRegion, heatmapOf, pageCells, pageScore, regionsOf } from "./regions.ts";
import { CELL, type LocaliserSession, createLocaliserSession } from "./session.ts";
import { workingImage } from "./working-image.ts";

export { createLocaliserSession } from "./session.ts";

/**
 * The page score from which a region is reported: at most 1% of genuine validation pages reach it.
 */
export const LOCALISER_THRESHOLD: number = calibration.threshold;

/**
 * Page pixels along the short side from which the model sees a page fully, and below which
 * it sees nothing: the training pages' short sides were 560 px and more, and a thumbnail's
 * edits are a few pixels wide.
 */
const RELIABLE_SIDE = [256, 512] as const;

export interface Localisation {
  /** The page's highest cell probability, 0..1. */
  score: number;
  threshold: number;
  /**
   * 0..1: how far the model can see on this page (its size; the API adds how well it could be
   * read).
   */
  reliability: number;
  regions: LocalisedRegion[];
  heatmap: { width: number; height: number; data: Uint8Array };
  facts: Record<string, number | string>;
}

export interface LocaliseOptions {
  /**
   * A session shared across pages; without it one is created for `device` and kept for the process.
   */
  session?: LocaliserSession;
  device?: Device;
  onRun?(ms: number): void;
}

const sharedSessions = new Map<Device, Promise<LocaliserSession>>();

function sessionFor(options: LocaliseOptions): Promise<LocaliserSession> {
  if (options.session) return Promise.resolve(options.session);
  const device = options.device ?? "cpu";
  let session = sharedSessions.get(device);
  if (!session) {
    session = createLocaliserSession({ device });
    sharedSessions.set(device, session);
  }
  return session;
}

export async function localiseTampering(
  input: { rgb: Uint8Array; width: number; height: number },
  options: LocaliseOptions = {},
): Promise<Localisation> {
  assertRgb({ data: input.rgb, width: input.width, height: input.height });
  const reliability = Math.min(
    1,
    Math.max(0, (Math.min(input.width, input.height) - RELIABLE_SIDE[0]) / (RELIABLE_SIDE[1] - RELIABLE_SIDE[0])),
  );
  const threshold = LOCALISER_THRESHOLD;
  if (reliability === 0) {
    return {
      score: 0,
      threshold,
      reliability,
      regions: [],
      heatmap: { width: 1, height: 1, data: new Uint8Array(1) },
      facts: { reason: `page of ${input.width}x${input.height} is too small` },
    };
  }
  const started = performance.now();
  const image = workingImage(input.rgb, input.width, input.height);
  const session = await sessionFor(options);
  const cells = await session.run(image);
  options.onRun?.(cells.ms);
  const map: CellMap = pageCells(cells, image);
  return {
    score: pageScore(map),
    threshold,
    reliability,
    regions: regionsOf(map, threshold, image.factor, input.width, input.height),
    heatmap: heatmapOf(map),
    facts: {
      workingFactor: image.factor,
      cellPixels: CELL * image.factor,
      modelMs: Math.round(cells.ms),
      totalMs: Math.round(performance.now() - started),
    },
  };
}
