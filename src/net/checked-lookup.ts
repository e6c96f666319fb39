// DNS resolution that refuses forbidden peers. The same check runs inside the socket's
// own lookup (so the address connected to is the address checked: no window for DNS
// rebinding) and for IP-literal hosts, which sockets connect to without any lookup.

import dns from "node:dns";
import type { LookupAddress } from "node:dns";
import net from "node:net";
import { bareHostname, isRefusedAddress } from "./address-policy.ts";
import { NetError } from "./errors.ts";

/** Decides which peer addresses may not be connected to. */
export type AddressPolicy = (ip: string) => boolean;

/** The policy DOCVERIFY_ALLOW_PRIVATE_URLS selects. */
export function addressPolicy(allowPrivate: boolean): AddressPolicy {
  return allowPrivate ? () => false : isRefusedAddress;
}

/** Addresses of `host` (a bare hostname or IP literal), none of them refused, else NetError. */
export async function resolveCheckedAddresses(host: string, refuse: AddressPolicy): Promise<LookupAddress[]> {
  const family = net.isIP(host);
  const addresses = family !== 0 ? [{ address: host, family }] : await lookupAll(host);
  // Every answer is checked, not only the first: a name may mix a public and a private address.
  if (addresses.some((entry) => refuse(entry.address))) {
    const what = family !== 0 ? "is" : "resolves to";
    throw new NetError("refused_address", `${host} ${what} an address that may not be reached`);
  }
  return addresses;
}

async function lookupAll(host: string): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new NetError("dns", `${host} could not be resolved`, {
      retryable: code !== "ENOTFOUND",
      cause: error,
    });
  }
  if (addresses.length === 0) throw new NetError("dns", `${host} has no address`);
  return addresses;
}

/**
 * Resolves and checks the host of `url` the way a request to it would; for validating callback
 * URLs.
 */
export async function checkUrlTarget(url: URL, allowPrivate: boolean): Promise<void> {
  await resolveCheckedAddresses(bareHostname(url), addressPolicy(allowPrivate));
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:https / node:net that only ever hands checked addresses to the socket.
 * `onError` receives the typed error itself, since an HTTP client may wrap what a lookup reports.
 */
export function checkedLookup(refuse: AddressPolicy, onError: (error: NetError) => void) {
  return (host: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolveCheckedAddresses(host, refuse).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted === 0 ? addresses : addresses.filter((entry) => entry.family === wanted);
        const first = usable[0];
        if (first === undefined) {
          const error = new NetError("dns", `${host} has no IPv${wanted} address`);
          onError(error);
          callback(error, []);
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NetError) => {
        onError(error);
        callback(error, []);
      },
    );
  };
}
