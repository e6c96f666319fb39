// What the net tests send to the route server: guardedRequest options aimed at it, and the
// typed error a request or a fetch must fail with.
import { guardedRequest, isNetError } from "../../../src/net/guarded-request.ts";
import type { GuardedRequestOptions, NetError } from "../../../src/net/guarded-request.ts";
import type { RouteServer } from "./routes.ts";

/** Options for GET `server`/ok, trusting its CA, with limits small enough for a test to reach. */
export const requestOptions = (
  server: RouteServer,
  overrides: Partial<GuardedRequestOptions> = {},
): GuardedRequestOptions => ({
  method: "GET",
  url: `${server.url}/ok`,
  allowPrivate: true,
  connectTimeoutMs: 2_000,
  totalTimeoutMs: 5_000,
  maxResponseBytes: 10_000,
  maxRedirects: 3,
  ca: server.tls.caPem,
  ...overrides,
});

/**
 * The error `attempt` rejects with; its success, or an error `is` does not accept, fails the test.
 */
export async function rejection<E>(attempt: Promise<unknown>, is: (error: unknown) => error is E): Promise<E> {
  const outcome = await attempt.then(
    () => new Error("the attempt succeeded"),
    (error: unknown) => error,
  );
  if (is(outcome)) return outcome;
  throw outcome;
}

/** The NetError a guardedRequest with `options` fails with. */
export const requestFailure = (options: GuardedRequestOptions): Promise<NetError> =>
  rejection(guardedRequest(options), isNetError);
