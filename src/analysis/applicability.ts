// Whether a content check had something to judge on this document, for the fusion's blind
// spots: a check that applies and saw nothing is blind (its zero coverage weighs), one that
// does not apply is not.
import { notApplicable } from "./detector.ts";
import type { DocumentType } from "./flags.ts";
import { concerns } from "./fusion/features.ts";
import { judgesType } from "./manifest.ts";
import type { DetectorResult } from "./report.ts";

/**
 * A check judged something when it raised a concern, read or failed something, not merely
 * ran. An informational flag is no judgement: a labelled expiry date in the past on a card
 * without a zone (document_expired) made the zone check count as applicable and blind, which
 * moved a genuine expired card from 0.19 to 0.38 on a flag that has no weight of its own.
 */
const judgedSomething = (r: DetectorResult): boolean =>
  concerns(r.evidence.map((e) => e.flag)) ||
  r.coverage > 0 ||
  r.status === "failed" ||
  (r.measurements?.uncertainFindings ?? 0) > 0 ||
  (r.measurements?.mrzZones?.length ?? 0) > 0;

/**
 * A content check outside its document types (manifest.ts) has nothing to judge unless it found
 * something. Its evidence stays listed either way.
 */
export const withApplicability = (r: DetectorResult, type: DocumentType): DetectorResult =>
  judgedSomething(r) || judgesType(r.detector, type) ? r : notApplicable(r);
