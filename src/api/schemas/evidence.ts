import { t } from "elysia";
import { DETECTORS, PLACE_LABEL, type DetectorName } from "../../analysis/manifest.ts";
import { Flag } from "./verification.ts";

/** The detectors that raise flags, from the manifest: the names evidence carries. */
const flagging = DETECTORS.filter((d) => d.flags.length > 0);

export const EvidenceSchema = t.Object({
  flag: Flag,
  detector: t.UnionEnum(flagging.map((d) => d.name) as [DetectorName, ...DetectorName[]], {
    description: `The detector that measured it: ${flagging.map((d) => `\`${d.name}\` (${PLACE_LABEL[d.runs]}${d.switchedOn ? "" : ", not switched on"}: ${d.summary})`).join("; ")}.`,
    default: undefined,
  }),
  strength: t.Number({ minimum: 0, maximum: 1, description: "How strongly this alone suggests forgery." }),
  message: t.String(),
  page: t.Optional(t.Integer({ minimum: 0 })),
  box: t.Optional(
    t.Tuple([t.Number(), t.Number(), t.Number(), t.Number()], { description: "[x, y, width, height] in pixels." }),
  ),
  measured: t.Optional(t.Union([t.Number(), t.String()])),
  threshold: t.Optional(t.Union([t.Number(), t.String()])),
});
