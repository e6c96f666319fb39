// A callbackUrl is checked when the batch is submitted (so a caller learns at once) and
// again by the sender at every attempt, against the address actually connected: DNS can
// change between the two.
import { AppError } from "../errors";
import { checkUrlTarget, isNetError } from "../net/guarded-request";

export async function checkCallbackUrl(url: URL, allowPrivate: boolean): Promise<void> {
  try {
    await checkUrlTarget(url, allowPrivate);
  } catch (error) {
    if (!isNetError(error)) throw error;
    const reason = error.kind === "refused_address" ? "resolves to a private, loopback or otherwise refused address" : "cannot be resolved";
    throw new AppError("VALIDATION_ERROR", `callbackUrl ${reason}`, { details: [{ path: "/callbackUrl", message: reason }] });
  }
}
