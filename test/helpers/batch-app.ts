// The in-process app that the tests of batch submission and of the batch worker share, where
// no webhook is sent: private URLs allowed, so that their example.com callback URL is not
// looked up against the address policy; a test-mode key; and a JPEG to submit, in base64.
import { makeJpeg } from "./fixtures.ts";
import { startInProcessApp, type InProcessApp } from "./in-process-app.ts";

export interface BatchApp {
  service: InProcessApp;
  key: string;
  jpeg64: string;
}

export async function startBatchApp(): Promise<BatchApp> {
  const service = await startInProcessApp({ env: { DOCVERIFY_ALLOW_PRIVATE_URLS: "true" } });
  const key = await service.createKey({ mode: "test" });
  return { service, key, jpeg64: Buffer.from(await makeJpeg()).toString("base64") };
}
