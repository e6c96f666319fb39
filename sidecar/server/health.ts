// grpc.health.v1: what load balancers, grpc_health_probe and the API's client ask before sending
// work. The whole server ("") and the analyzer service share one status.
import { type ServerWritableStream, status } from "@grpc/grpc-js";
import type { HealthHandlers } from "../../proto/generated/grpc/health/v1/Health.ts";
import type { HealthCheckRequest__Output } from "../../proto/generated/grpc/health/v1/HealthCheckRequest.ts";
import type { HealthCheckResponse } from "../../proto/generated/grpc/health/v1/HealthCheckResponse.ts";

const ANALYZER_SERVICE = "docverify.sidecar.v1.Analyzer";
const SERVICES = new Set(["", ANALYZER_SERVICE]);

export type ServingStatus = "SERVING" | "NOT_SERVING";

export interface HealthService {
  handlers: HealthHandlers;
  set(status: ServingStatus): void;
  /** Ends every Watch stream (at shutdown, so the server can close). */
  close(): void;
}

export function createHealthService(initial: ServingStatus): HealthService {
  let current: ServingStatus = initial;
  const watchers = new Set<ServerWritableStream<HealthCheckRequest__Output, HealthCheckResponse>>();

  const handlers: HealthHandlers = {
    Check(call, callback) {
      if (!SERVICES.has(call.request.service)) return callback({ code: status.NOT_FOUND, details: "unknown service" });
      callback(null, { status: current });
    },
    Watch(call) {
      if (!SERVICES.has(call.request.service)) {
        call.write({ status: "SERVICE_UNKNOWN" });
        return;
      }
      watchers.add(call);
      call.on("cancelled", () => watchers.delete(call));
      call.write({ status: current });
    },
  };

  return {
    handlers,
    set(next) {
      if (next === current) return;
      current = next;
      for (const call of watchers) call.write({ status: current });
    },
    close() {
      for (const call of watchers) call.end();
      watchers.clear();
    },
  };
}
