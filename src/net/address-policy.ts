// Which peers outbound requests may reach when private URLs are not allowed (the operating
// contract: no loopback, private, link-local or metadata addresses). An allow-list: only globally
// routable unicast passes, so a range ipaddr.js learns later is refused, not let through.

import ipaddr from "ipaddr.js";
import { AppError } from "../errors.ts";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const IPV4_COMPATIBLE_DOTTED = /^::\d+\.\d+\.\d+\.\d+$/;

/**
 * True when `ip` must not be connected to. Takes addresses as DNS answers and URL parsing
 * give them (dotted-quad IPv4, IPv6); anything else, 0x7f.1 or 2130706433 included, is refused.
 */
export function isRefusedAddress(ip: string): boolean {
  const canonical = ip.includes(":") ? ipaddr.IPv6.isValid(ip) : ipaddr.IPv4.isValidFourPartDecimal(ip);
  // ipaddr.js reads "::a.b.c.d" as IPv4-mapped; it is IPv4-compatible (::/96), never routable.
  if (!canonical || IPV4_COMPATIBLE_DOTTED.test(ip)) return true;
  return !isGlobalUnicast(ipaddr.parse(ip));
}

function isGlobalUnicast(address: Address): boolean {
  if (address.kind() === "ipv4") return address.range() === "unicast";
  const v6 = address as ipaddr.IPv6;
  const [p0 = 0, p1 = 0, p2 = 0, p3 = 0, , , p6 = 0, p7 = 0] = v6.parts;
  switch (v6.range()) {
    case "unicast":
      // Global unicast is 2000::/3; the rest (IPv4-compatible ::a.b.c.d among it) is not routable.
      return (p0 & 0xe000) === 0x2000;
    case "ipv4Mapped":
    case "rfc6145":
      return isGlobalUnicast(ipv4From(p6, p7));
    case "rfc6052":
      // 64:ff9b::/96 translates to the embedded IPv4; 64:ff9b:1::/48 is for local use only.
      return p2 === 0 && isGlobalUnicast(ipv4From(p6, p7));
    case "6to4":
      return isGlobalUnicast(ipv4From(p1, p2));
    case "teredo":
      // Server address in clear, client address inverted (RFC 4380 section 4).
      return isGlobalUnicast(ipv4From(p2, p3)) && isGlobalUnicast(ipv4From(~p6 & 0xffff, ~p7 & 0xffff));
    default:
      return false;
  }
}

function ipv4From(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** Why `url` is not an acceptable outbound HTTPS target, or null when it is. */
export function httpsUrlProblem(url: URL): string | null {
  if (url.protocol !== "https:") return "must use https";
  if (url.username !== "" || url.password !== "") return "must not contain credentials";
  if (url.hostname === "") return "must have a host";
  return null;
}

/** Parses a caller-supplied URL (documentUrl, callbackUrl); VALIDATION_ERROR when unfit. */
export function parseHttpsUrl(raw: string, field = "url"): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("VALIDATION_ERROR", `${field} is not an absolute URL`);
  }
  const problem = httpsUrlProblem(url);
  if (problem !== null) throw new AppError("VALIDATION_ERROR", `${field} ${problem}`);
  return url;
}

/** URL.hostname keeps the brackets of an IPv6 literal; sockets and DNS want them off. */
export function bareHostname(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}
