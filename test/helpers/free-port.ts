// A loopback port nothing listens on: bound to port 0 so the system picks a free one, then
// released. For a server a test starts itself (PostgreSQL, a service), or for an address
// that must refuse connections.
export function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}
