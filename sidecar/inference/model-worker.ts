// The thread every ONNX model of the sidecar runs on. onnxruntime-node's run() is synchronous
// under its promise (microsoft/onnxruntime#19611, #26968): on the sidecar's own thread a
// detection run of 0.6 to 1 s on a photographed page held gRPC, the health service and the
// connection's keepalives for that long, and the API, which gives a health check 1 s, took a
// busy sidecar for a dead one. Here a run holds only this thread.
//
// In the compiled binary this file is an entry point of the build (scripts/build.ts).
import type { InferenceSession as Session } from "onnxruntime-node";
import { prepareRuntime } from "../../src/runtime/index.ts";
import { type ModelReply, type ModelRequest, type ModelTensor, type ModelTensors, ortFeeds } from "./protocol.ts";

declare const self: Worker;

// Before onnxruntime-node is imported: inside the binary its native library is loaded from
// the extracted natives.
await prepareRuntime();
const { InferenceSession, Tensor } = await import("onnxruntime-node");

const sessions = new Map<number, Session>();
let nextSession = 0;

const reply = (message: ModelReply, transfer: ArrayBuffer[] = []) => self.postMessage(message, transfer);

function sessionOf(id: number) {
  const session = sessions.get(id);
  if (!session) throw new Error(`no model session ${id} on the model thread`);
  return session;
}

async function run(id: number, session: number, feeds: ModelTensors): Promise<void> {
  const results = await sessionOf(session).run(ortFeeds(Tensor, feeds));
  const outputs: ModelTensors = {};
  const transfer = new Set<ArrayBuffer>();
  for (const [name, tensor] of Object.entries(results)) {
    const output = { type: tensor.type, data: tensor.data, dims: tensor.dims } as ModelTensor;
    outputs[name] = output;
    transfer.add(output.data.buffer as ArrayBuffer);
  }
  reply({ type: "ran", id, outputs }, [...transfer]);
}

async function handle(request: ModelRequest): Promise<void> {
  switch (request.type) {
    case "load": {
      const session = await InferenceSession.create(request.model, request.options);
      sessions.set(++nextSession, session);
      const { inputNames, outputNames } = session;
      return reply({
        type: "loaded",
        id: request.id,
        session: nextSession,
        inputNames: [...inputNames],
        outputNames: [...outputNames],
      });
    }
    case "run":
      return run(request.id, request.session, request.feeds);
    case "release":
      await sessionOf(request.session).release();
      sessions.delete(request.session);
      return reply({ type: "released", id: request.id });
  }
}

self.onmessage = (event: MessageEvent<ModelRequest>) =>
  handle(event.data).catch((error: unknown) =>
    reply({ type: "failed", id: event.data.id, message: (error as Error).message ?? String(error) }),
  );
reply({ type: "ready" });
