import { t } from "elysia";
import { Flag } from "./verification";

export const EvidenceSchema = t.Object({
  flag: Flag,
  detector: t.String({ description: "The detector that measured it." }),
  strength: t.Number({ minimum: 0, maximum: 1, description: "How strongly this alone suggests forgery." }),
  message: t.String(),
  page: t.Optional(t.Integer({ minimum: 0 })),
  box: t.Optional(t.Tuple([t.Number(), t.Number(), t.Number(), t.Number()], { description: "[x, y, width, height] in pixels." })),
  measured: t.Optional(t.Union([t.Number(), t.String()])),
  threshold: t.Optional(t.Union([t.Number(), t.String()])),
});
