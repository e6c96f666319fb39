// A callbackUrl is checked when the batch is submitted (so a caller learns at once) and
// again by the sender at every attempt, against the address actually connected: DNS can
// change between the two.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { AppError } from "../errors";
import { isRefusedAddress } from "../net/address-policy";

export async function checkCallbackUrl(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw new AppError("VALIDATION_ERROR", "callbackUrl: the host name does not resolve", { details: [{ path: "/callbackUrl", message: "host does not resolve" }] });
  }
  if (addresses.length === 0 || addresses.some(isRefusedAddress)) {
    throw new AppError("VALIDATION_ERROR", "callbackUrl: the host resolves to a private, loopback or otherwise refused address", {
      details: [{ path: "/callbackUrl", message: "refused address" }],
    });
  }
}
