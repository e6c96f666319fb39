/**
 * Regenerates the checked-in TypeScript types of the protos: `bun proto/generate.ts`.
 * The options must match the loader options in proto/load.ts, which the API's client and
 * the sidecar's server share, or the types would describe objects the loader never produces.
 */
import { join } from "node:path";

const PROTO_DIR = import.meta.dir;
const FILES = ["docverify/sidecar/v1/analyzer.proto", "grpc/health/v1/health.proto"];
const GENERATOR = join(PROTO_DIR, "../node_modules/.bin/proto-loader-gen-types");

for (const file of FILES) {
  const args = [
    "--grpcLib=@grpc/grpc-js",
    "--longs=Number",
    "--enums=String",
    "--defaults",
    "--oneofs",
    "--includeComments",
  ];
  const result = Bun.spawnSync(
    [GENERATOR, ...args, "--includeDirs=.", `--outDir=${join(PROTO_DIR, "generated")}`, file],
    {
      cwd: PROTO_DIR,
      stdout: "inherit",
      stderr: "inherit",
    },
  );
  if (result.exitCode !== 0) throw new Error(`proto-loader-gen-types failed on ${file}`);
}
