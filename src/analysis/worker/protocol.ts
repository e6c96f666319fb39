// Messages between the API process and its local-inspection workers.
import type { ErrorCode } from "../../errors";
import type { IntakeDocument } from "../../intake/document";
import type { LocalInspection } from "../analyze";

export type WorkerRequest = { id: number; document: IntakeDocument };

export type WorkerReply =
  | { type: "ready" }
  | { type: "done"; id: number; inspection: LocalInspection }
  /** A typed failure of the document (its code and message cross the thread boundary). */
  | { type: "failed"; id: number; error: { code: ErrorCode; message: string } | null };
