// A content check that does not apply to a document is no blind spot there; one that applies
// and saw nothing is. An informational flag does not make a check apply.
import { describe, expect, test } from "bun:test";
import { withApplicability } from "../../../src/analysis/applicability.ts";
import { FEATURE_NAMES, fusionFeatures } from "../../../src/analysis/fusion/features.ts";
import type { Flag } from "../../../src/analysis/flags.ts";
import type { DetectorResult } from "../../../src/analysis/report.ts";

const mrz = (flags: Flag[], coverage = 0): DetectorResult => ({
  detector: "mrz",
  evidence: flags.map((flag) => ({ flag, detector: "mrz", strength: 0.3, message: flag })),
  facts: { zones: [] },
  coverage,
});
const blindMrz = (result: DetectorResult) => fusionFeatures([result])[FEATURE_NAMES.indexOf("blind:mrz")];

describe("the zone check on documents without a zone", () => {
  test("an expired card without a zone: the flag is listed, and the check is no blind spot", () => {
    const judged = withApplicability(mrz(["document_expired"]), "id");
    expect(judged.status).toBe("not-applicable");
    expect(judged.evidence.map((e) => e.flag)).toEqual(["document_expired"]);
    expect(blindMrz(judged)).toBe(0);
    // The same card not expired, for comparison: the flag moves no feature.
    expect(fusionFeatures([judged])).toEqual(fusionFeatures([withApplicability(mrz([]), "id")]));
  });

  test("a concern raised, a zone read or a passport make the check apply", () => {
    expect(withApplicability(mrz(["mrz_mismatch"]), "id").status).toBeUndefined();
    expect(withApplicability(mrz([], 0.5), "drivers_license").status).toBeUndefined();
    const passport = withApplicability(mrz(["document_expired"]), "passport");
    expect(passport.status).toBeUndefined();
    expect(blindMrz(passport)).toBe(1);
  });
});
