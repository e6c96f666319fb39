import { describe, expect, test } from "bun:test";
import { isAppError } from "../../../src/errors.ts";
import { isRefusedAddress, parseHttpsUrl } from "../../../src/net/address-policy.ts";

const REFUSED: [string, string][] = [
  ["127.0.0.1", "IPv4 loopback"],
  ["127.255.255.254", "the end of 127/8"],
  ["10.0.0.1", "RFC 1918 10/8"],
  ["172.16.0.1", "RFC 1918 172.16/12, start"],
  ["172.31.255.255", "RFC 1918 172.16/12, end"],
  ["192.168.1.1", "RFC 1918 192.168/16"],
  ["169.254.169.254", "cloud metadata (AWS, GCP, Azure)"],
  ["169.254.0.1", "link-local"],
  ["100.64.0.1", "carrier-grade NAT, start"],
  ["100.127.255.254", "carrier-grade NAT, end"],
  ["100.100.100.200", "Alibaba metadata, inside CGNAT"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "0/8 'this network'"],
  ["255.255.255.255", "broadcast"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast SSDP"],
  ["240.0.0.1", "reserved 240/4"],
  ["192.0.0.170", "IETF protocol assignments"],
  ["192.0.2.1", "TEST-NET-1"],
  ["198.51.100.1", "TEST-NET-2"],
  ["203.0.113.1", "TEST-NET-3"],
  ["198.18.0.1", "benchmarking"],
  ["::1", "IPv6 loopback"],
  ["::", "IPv6 unspecified"],
  ["fe80::1", "IPv6 link-local"],
  ["fe80::1%eth0", "IPv6 link-local with a zone"],
  ["fc00::1", "unique-local"],
  ["fd00::1", "unique-local"],
  ["fd00:ec2::254", "AWS metadata over IPv6"],
  ["fec0::1", "deprecated site-local"],
  ["ff02::1", "IPv6 multicast"],
  ["::ffff:127.0.0.1", "IPv4-mapped loopback, dotted"],
  ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
  ["0:0:0:0:0:ffff:7f00:1", "IPv4-mapped loopback, uncompressed"],
  ["::ffff:10.0.0.1", "IPv4-mapped private"],
  ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
  ["::ffff:0:7f00:1", "IPv4-translated (RFC 6145) loopback"],
  ["::127.0.0.1", "IPv4-compatible loopback"],
  ["::7f00:1", "IPv4-compatible loopback, hex"],
  ["::8.8.8.8", "IPv4-compatible (deprecated, not routable) even for a public address"],
  ["64:ff9b::7f00:1", "NAT64 of loopback"],
  ["64:ff9b::a9fe:a9fe", "NAT64 of metadata"],
  ["64:ff9b:1::808:808", "local-use NAT64 (RFC 8215)"],
  ["2002:7f00:1::1", "6to4 of loopback"],
  ["2002:a00:1::1", "6to4 of 10.0.0.1"],
  ["2002:a9fe:a9fe::1", "6to4 of metadata"],
  ["2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo whose client is 127.0.0.1"],
  ["2001:0:a00:1:8000:63bf:f7f7:f7f7", "Teredo whose server is 10.0.0.1"],
  ["2001:db8::1", "IPv6 documentation"],
  ["2001:2::1", "IPv6 benchmarking"],
  ["100::1", "IPv6 discard"],
  ["5f00::1", "SRv6 SIDs"],
  ["2130706433", "127.0.0.1 as one decimal number"],
  ["0x7f.1", "127.0.0.1 in hex shorthand"],
  ["0177.0.0.1", "127.0.0.1 in octal"],
  ["127.1", "127.0.0.1 shortened"],
  ["localhost", "a name, not an address"],
  ["", "nothing"],
  ["999.1.1.1", "not an address"],
  ["1.2.3.4.5", "not an address"],
];

const ALLOWED: [string, string][] = [
  ["8.8.8.8", "public IPv4"],
  ["1.1.1.1", "public IPv4"],
  ["100.63.255.255", "just below CGNAT"],
  ["100.128.0.0", "just above CGNAT"],
  ["172.15.255.255", "just below 172.16/12"],
  ["172.32.0.0", "just above 172.16/12"],
  ["169.253.255.255", "just below link-local"],
  ["11.0.0.1", "just above 10/8"],
  ["2606:4700:4700::1111", "public IPv6"],
  ["2001:4860:4860::8888", "public IPv6"],
  ["::ffff:8.8.8.8", "IPv4-mapped public"],
  ["64:ff9b::808:808", "NAT64 of a public address"],
  ["2002:808:808::1", "6to4 of a public address"],
  ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "Teredo with public server and client"],
];

describe("isRefusedAddress", () => {
  test.each(REFUSED)("refuses %s (%s)", (ip) => {
    expect(isRefusedAddress(ip)).toBe(true);
  });

  test.each(ALLOWED)("allows %s (%s)", (ip) => {
    expect(isRefusedAddress(ip)).toBe(false);
  });
});

function validationMessage(raw: string): string {
  try {
    parseHttpsUrl(raw, "documentUrl");
  } catch (error) {
    if (isAppError(error) && error.code === "VALIDATION_ERROR") return error.message;
    throw error;
  }
  return "accepted";
}

describe("parseHttpsUrl", () => {
  test("accepts an https URL and normalises it", () => {
    expect(parseHttpsUrl("https://Docs.Example.com/a/b.pdf?x=1").href).toBe("https://docs.example.com/a/b.pdf?x=1");
  });

  test("normalises numeric hosts to the dotted form the address policy checks", () => {
    expect(parseHttpsUrl("https://2130706433/").hostname).toBe("127.0.0.1");
    expect(parseHttpsUrl("https://0x7f.1/").hostname).toBe("127.0.0.1");
    expect(parseHttpsUrl("https://[::ffff:127.0.0.1]/").hostname).toBe("[::ffff:7f00:1]");
  });

  test("refuses other schemes with VALIDATION_ERROR", () => {
    expect(validationMessage("http://example.com/a.pdf")).toBe("documentUrl must use https");
    expect(validationMessage("ftp://example.com/a.pdf")).toBe("documentUrl must use https");
    expect(validationMessage("file:///etc/passwd")).toBe("documentUrl must use https");
    expect(validationMessage("data:application/pdf;base64,JVBERi0=")).toBe("documentUrl must use https");
  });

  test("refuses credentials in the URL", () => {
    expect(validationMessage("https://user:secret@example.com/a.pdf")).toBe("documentUrl must not contain credentials");
    expect(validationMessage("https://user@example.com/a.pdf")).toBe("documentUrl must not contain credentials");
  });

  test("refuses what is not an absolute URL, a missing host among it", () => {
    for (const raw of ["", "example.com/a.pdf", "/a.pdf", "https://", "https://:443/a.pdf", "https://exa mple.com/"]) {
      expect(validationMessage(raw)).toBe("documentUrl is not an absolute URL");
    }
  });
});
