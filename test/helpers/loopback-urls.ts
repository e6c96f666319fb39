// One loopback address in each spelling a URL can give it (by name, IPv4, IPv6, IPv4-mapped
// IPv6, one decimal number, hexadecimal), for tests that the address policy refuses them all.

/** `https://<loopback>:<port><path>` for each spelling. */
export const loopbackUrls = (port: number, path: string): string[] => [
  `https://127.0.0.1:${port}${path}`,
  `https://localhost:${port}${path}`,
  `https://[::1]:${port}${path}`,
  `https://[::ffff:127.0.0.1]:${port}${path}`,
  `https://2130706433:${port}${path}`,
  `https://0x7f.0.0.1:${port}${path}`,
];
