import { t, type Static } from "elysia";
import {
  CONFIDENCES,
  DOCUMENT_TYPES,
  FLAG_CLASSES,
  FLAGS,
  flagsOfClass,
  type FlagClass,
} from "../../analysis/flags.ts";
import { detectorsOfFlag } from "../../analysis/manifest.ts";

// UnionEnum renders as a JSON-schema `enum`, which is how OpenAPI tools show a vocabulary.
// Elysia gives an enum a default (its first value) for error messages; these are response
// fields, where a default would only mislead a reader of the documentation.
const literals = <const T extends readonly [string, ...string[]]>(values: T, description: string) =>
  t.UnionEnum([...values], { description, default: undefined });

const classList = (cls: FlagClass): string =>
  flagsOfClass(cls)
    .map((f) => `\`${f}\``)
    .join(", ");

/**
 * The flag vocabulary with each flag's class, as a description a reader sees and as the
 * `x-flag-classes` extension a client can read: a provenance concern alone never carries
 * the score to 0.5 nor gives high confidence. `x-flag-detectors` names the detectors that
 * can raise each flag (src/analysis/manifest.ts), as evidence names them.
 */
export const FLAG_CLASS_DOCUMENTATION = `Evidence of alteration: ${classList("alteration")}. Provenance concerns (how the file came to be; alone they keep forgeryScore below 0.5 and confidence below high): ${classList("provenance")}. Informational (never raise the score): ${classList("informational")}.`;

export const Flag = t.UnionEnum([...FLAGS], {
  description: `An anomaly raised by a named detector; see the stored evidence for why. ${FLAG_CLASS_DOCUMENTATION}`,
  default: undefined,
  "x-flag-classes": FLAG_CLASSES,
  "x-flag-detectors": Object.fromEntries(FLAGS.map((flag) => [flag, detectorsOfFlag(flag)])),
});

export const VerificationResult = t.Object(
  {
    id: t.String({ description: "Unique verification ID.", examples: ["ver_3f0c1a9e2b7d4c6f8a1e0b2c3d4e5f60"] }),
    forgeryScore: t.Number({ minimum: 0, maximum: 1, description: "0.0 (authentic) to 1.0 (forged)." }),
    confidence: literals(CONFIDENCES, "How much the evidence can bear."),
    documentType: literals(DOCUMENT_TYPES, "Detected document type."),
    flags: t.Array(Flag, { description: "Anomaly flags detected; empty when none." }),
    latencyMs: t.Number({ minimum: 0, description: "Processing time in milliseconds." }),
    sandbox: t.Optional(t.Literal(true, { description: "Present, and true, only when a test key was used." })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "ver_3f0c1a9e2b7d4c6f8a1e0b2c3d4e5f60",
        forgeryScore: 0.91,
        confidence: "high",
        documentType: "financial",
        flags: ["pdf_incremental_update", "pdf_text_overlay"],
        latencyMs: 412,
        sandbox: true,
      },
    ],
  },
);

export type VerificationResult = Static<typeof VerificationResult>;

export const VERIFICATION_ID_PATTERN = /^ver_[0-9a-f]{32}$/;
