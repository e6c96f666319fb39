// What a delivered batch of a JPEG, a PDF and, third, something that is not a document
// looks like: the same whether the batch ran in-process (test/unit/api/batch-route.happy.test.ts)
// or through a real `serve` (test/integration/api/batches.happy.test.ts). Only the clock that
// stamps each webhook differs, so the caller checks the timestamps.
import { expect } from "bun:test";
import { verify as verifySignature } from "@octokit/webhooks-methods";
import type { Batch } from "../../src/api/schemas/batch.ts";
import type { ReceivedWebhook } from "./webhook-receiver.ts";

/**
 * One webhook per document, each signed with `secret` under a delivery id of its own and
 * its timestamp checked by `expectTimestamp`; the third document's carries its refusal, the
 * others a sandbox result.
 */
export async function expectOneSignedWebhookPerDocument(
  hooks: ReceivedWebhook[],
  secret: string,
  expectTimestamp: (timestamp: string | null) => void,
): Promise<void> {
  expect(hooks.map((hook) => hook.body.documentIndex).sort()).toEqual([0, 1, 2]);
  for (const hook of hooks) {
    expect(await verifySignature(secret, hook.raw, hook.signature!)).toBe(true);
    expect(hook.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(hook.deliveryId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expectTimestamp(hook.timestamp);
  }
  const failed = hooks.find((hook) => hook.body.documentIndex === 2)!;
  expect(failed.body.error).toEqual({ code: "UNSUPPORTED_FORMAT", message: expect.any(String) });
  expect(failed.body.result).toBeUndefined();
  for (const hook of hooks.filter((h) => h.body.documentIndex !== 2)) {
    expect(hook.body.result?.sandbox).toBe(true);
    expect(hook.body.result?.id).toMatch(/^ver_/);
  }
}

/**
 * GET /api/v1/batches/:id's data once that batch completed: its verification ids are those of the
 * webhooks' results.
 */
export function expectCompletedBatch(status: Batch, batchId: string, hooks: ReceivedWebhook[]): void {
  expect(status).toEqual({
    batchId,
    totalDocuments: 3,
    completedCount: 3,
    failedCount: 1,
    status: "completed",
    createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
    verificationIds: expect.any(Array),
  });
  expect(status.verificationIds.sort()).toEqual(
    hooks
      .filter((h) => h.body.result)
      .map((h) => h.body.result!.id as string)
      .sort(),
  );
}

/** A batch's 202 acknowledgement of `totalDocuments`, still processing; its body's data. */
export async function expectAcknowledged(
  response: Response,
  totalDocuments: number,
): Promise<{ batchId: string; totalDocuments: number; status: string }> {
  expect(response.status).toBe(202);
  const { data } = await response.json();
  expect(data).toEqual({
    batchId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    totalDocuments,
    status: "processing",
  });
  return data;
}
