// A callbackUrl is checked when the batch is submitted (so a caller learns at once) and
// again by the sender at every attempt, against the address actually connected: DNS can
// change between the two.
import { AppError } from "../errors.ts";
import { checkUrlTarget, isNetError } from "../net/guarded-request.ts";

export async function checkCallbackUrl(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  try {
    await checkUrlTarget(url, allowPrivate);
  } catch (error) {
    // A name that does not resolve right now is not refused: resolvers fail transiently,
    // and every delivery attempt resolves and checks again.
    if (isNetError(error) && error.kind === "refused_address") {
      const reason = "resolves to a private, loopback or otherwise refused address";
      throw new AppError("VALIDATION_ERROR", `callbackUrl ${reason}`, {
        details: [{ path: "/callbackUrl", message: reason }],
      });
    }
    if (!isNetError(error)) throw error;
  }
}
