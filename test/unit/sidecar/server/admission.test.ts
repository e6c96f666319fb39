// The sidecar's admission: one document runs, one waits, the next is turned away at once so
// the client tries another sidecar, and a waiting client that goes away leaves the queue.
import { describe, expect, test } from "bun:test";
import { status } from "@grpc/grpc-js";
import { createAdmission } from "../../../../sidecar/server/concurrency.ts";
import type { DocumentRefused } from "../../../../sidecar/server/errors.ts";

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "admitted",
    (error: DocumentRefused) => status[error.code],
  );

describe("the sidecar's admission", () => {
  test("runs one, queues one, refuses the next with UNAVAILABLE, and admits the queued one when a turn ends", async () => {
    const admission = createAdmission({ concurrent: 1, queued: 1 });
    const end = await admission.enter(new AbortController().signal);
    const queued = admission.enter(new AbortController().signal);
    expect(await codeOf(admission.enter(new AbortController().signal))).toBe("UNAVAILABLE");
    end();
    end(); // a second call ends nothing more
    const next = await queued;
    next();
    expect(await codeOf(admission.enter(new AbortController().signal))).toBe("admitted");
  });

  test("a waiting client that goes away is CANCELLED and frees its place in the queue", async () => {
    const admission = createAdmission({ concurrent: 1, queued: 1 });
    const end = await admission.enter(new AbortController().signal);
    const client = new AbortController();
    const waiting = codeOf(admission.enter(client.signal));
    client.abort();
    expect(await waiting).toBe("CANCELLED");
    const queued = admission.enter(new AbortController().signal);
    end();
    expect(await codeOf(queued)).toBe("admitted");
  });
});
