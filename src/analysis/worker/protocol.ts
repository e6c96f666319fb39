// Messages between the API process and its local-inspection workers.
import type { ErrorCode } from "../../errors.ts";
import type { IntakeDocument } from "../../intake/document.ts";
import type { LocalInspection } from "../analyze.ts";

/** `inspect` runs the detectors; `validate` only proves the document opens (intake's PDF check). */
export type WorkerRequest = { id: number; task: "inspect" | "validate"; document: IntakeDocument };

export type WorkerReply =
  | { type: "ready" }
  | { type: "done"; id: number; inspection: LocalInspection }
  | { type: "valid"; id: number }
  /**
   * A typed failure of the document (its code and message cross the thread boundary);
   * `retire`: the worker is to be replaced (mupdf ran out of its capped heap).
   */
  | { type: "failed"; id: number; error: { code: ErrorCode; message: string } | null; retire?: boolean };
