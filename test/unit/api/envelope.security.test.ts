// Hostile requests through the whole HTTP layer in-process (createApp + app.handle): each is
// answered in the error envelope with a 4xx, never a 500 or Elysia's own shape.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startInProcessApp, type InProcessApp } from "../../helpers/in-process-app.ts";

let service: InProcessApp;
let key: string;

beforeAll(async () => {
  service = await startInProcessApp();
  key = await service.createKey({ mode: "test" });
});

afterAll(async () => {
  await service?.close();
});

const auth = () => ({ authorization: `Bearer ${key}` });

const hostile: [string, () => RequestInit & { path: string }][] = [
  [
    "JSON null",
    () => ({
      path: "/api/v1/verify",
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: "null",
    }),
  ],
  [
    "a JSON array",
    () => ({
      path: "/api/v1/verify",
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: "[1,2]",
    }),
  ],
  [
    "a number for document",
    () => ({
      path: "/api/v1/verify",
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: '{"document":42}',
    }),
  ],
  [
    "deeply nested JSON",
    () => ({
      path: "/api/v1/verify",
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: "[".repeat(5000) + "]".repeat(5000),
    }),
  ],
  [
    "a multipart body with a broken boundary",
    () => ({
      path: "/api/v1/verify",
      method: "POST",
      headers: { ...auth(), "content-type": "multipart/form-data; boundary=x" },
      body: "--y\r\n\r\n",
    }),
  ],
  [
    "a multipart body with document as text",
    () => {
      const form = new FormData();
      form.append("document", "not a file");
      return { path: "/api/v1/verify", method: "POST", headers: auth(), body: form };
    },
  ],
  [
    "a repeated multipart field",
    () => {
      const form = new FormData();
      form.append("document", new File([new Uint8Array([1])], "a"));
      form.append("document", new File([new Uint8Array([2])], "b"));
      return { path: "/api/v1/verify", method: "POST", headers: auth(), body: form };
    },
  ],
  [
    "an XML body",
    () => ({
      path: "/api/v1/verify",
      method: "POST",
      headers: { ...auth(), "content-type": "application/xml" },
      body: "<a/>",
    }),
  ],
  [
    "documents as a string",
    () => ({
      path: "/api/v1/verify/batch",
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: '{"documents":"x","callbackUrl":"https://a.example","callbackSecret":"0123456789abcdef"}',
    }),
  ],
  [
    "an extra batch field",
    () => ({
      path: "/api/v1/verify/batch",
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: '{"documents":["AAAA"],"callbackUrl":"https://a.example","callbackSecret":"0123456789abcdef","x":1}',
    }),
  ],
  [
    "a callbackUrl with credentials",
    () => ({
      path: "/api/v1/verify/batch",
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: '{"documents":["AAAA"],"callbackUrl":"https://user:pw@a.example/x","callbackSecret":"0123456789abcdef"}',
    }),
  ],
  [
    "a path traversal batch id",
    () => ({ path: "/api/v1/batches/..%2F..%2Fetc%2Fpasswd", method: "GET", headers: auth() }),
  ],
  [
    "a very long verification id",
    () => ({ path: `/api/v1/verifications/${"a".repeat(5000)}`, method: "GET", headers: auth() }),
  ],
  [
    "a bearer token of 10,000 characters",
    () => ({ path: "/api/v1/batches/x", method: "GET", headers: { authorization: `Bearer ${"k".repeat(10_000)}` } }),
  ],
  [
    "a Basic authorization header",
    () => ({ path: "/api/v1/batches/x", method: "GET", headers: { authorization: "Basic dXNlcjpwYXNz" } }),
  ],
  [
    "DELETE on a batch",
    () => ({ path: "/api/v1/batches/00000000-0000-0000-0000-000000000000", method: "DELETE", headers: auth() }),
  ],
];

test.each(hostile)("%s gets the error envelope and a 4xx, never a 500 or Elysia's own shape", async (_name, make) => {
  const { path, ...init } = make();
  const response = await service.request(path, init);
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = await response.json();
  expect(Object.keys(body)).toEqual(["error"]);
  expect(Object.keys(body.error).sort()).toEqual(expect.arrayContaining(["code", "message", "requestId"]));
  expect(response.headers.get("x-request-id")).toBe(body.error.requestId);
});
