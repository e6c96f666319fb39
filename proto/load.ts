/**
 * The protos, loaded once per process and shared by the sidecar's server and the API's client.
 * The loader options must match those in proto/generate.ts, which wrote the types in generated/.
 * Each file is loaded on its own, without imports between them: inside the compiled binary the
 * embedded files lose their folders, so an `import "grpc/health/..."` could not be resolved.
 */
import { loadPackageDefinition } from "@grpc/grpc-js";
import { loadSync, type Options } from "@grpc/proto-loader";
import { protoPath } from "../src/runtime/assets.ts";
import type { ProtoGrpcType as AnalyzerProto } from "./generated/analyzer.ts";
import type { ProtoGrpcType as HealthProto } from "./generated/health.ts";

const LOADER_OPTIONS: Options = { keepCase: false, longs: Number, enums: String, defaults: true, oneofs: true };

export interface Protos {
  analyzer: AnalyzerProto["docverify"]["sidecar"]["v1"];
  health: HealthProto["grpc"]["health"]["v1"];
}

let loaded: Protos | undefined;

export function protos(): Protos {
  loaded ??= {
    analyzer: (
      loadPackageDefinition(
        loadSync(protoPath("docverify/sidecar/v1/analyzer.proto"), LOADER_OPTIONS),
      ) as unknown as AnalyzerProto
    ).docverify.sidecar.v1,
    health: (
      loadPackageDefinition(
        loadSync(protoPath("grpc/health/v1/health.proto"), LOADER_OPTIONS),
      ) as unknown as HealthProto
    ).grpc.health.v1,
  };
  return loaded;
}
export type { AnalyzeDocumentResponse__Output } from "./generated/docverify/sidecar/v1/AnalyzeDocumentResponse.ts";
export type { AnalyzerClient } from "./generated/docverify/sidecar/v1/Analyzer.ts";
export type { DocumentFormat } from "./generated/docverify/sidecar/v1/DocumentFormat.ts";
