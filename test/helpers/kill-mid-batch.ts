// What the tests that kill a `serve` with SIGKILL in the middle of a batch share
// (test/integration/api/batches.crash.test.ts, test/integration/api/scale-out.test.ts): a
// receiver slow enough that the kill lands mid-work, and settings under which what the killed
// process held is taken up again within seconds.
import type { TestTls } from "./tls.ts";
import { startWebhookReceiver } from "./webhook-receiver.ts";

/** Answers every delivery 200 after 150 ms, which keeps deliveries in flight. */
export const startSlowWebhookReceiver = (tls: TestTls) =>
  startWebhookReceiver(tls, async () => {
    await Bun.sleep(150);
    return 200;
  });

/** `serve`'s env: the receiver's CA trusted, quick retries and polls, one document at a time. */
export const killMidBatchEnv = (tls: TestTls): Record<string, string> => ({
  NODE_EXTRA_CA_CERTS: tls.caFile,
  DOCVERIFY_ALLOW_PRIVATE_URLS: "true",
  DOCVERIFY_WEBHOOK_RETRY_SCHEDULE: "1s,1s,1s",
  DOCVERIFY_OUTBOX_POLL_MS: "50",
  DOCVERIFY_BATCH_CONCURRENCY: "1",
  // The killed process's claims run out this soon after it stopped renewing them.
  DOCVERIFY_LEASE: "2s",
});
