// A stand-in for `serve` in the orphan test: starts an embedded sidecar, prints the child's pid
// once it serves, and waits to be killed.
import { createLogger } from "../../../src/log.ts";
import { createSidecarService } from "../../../src/sidecar-client/index.ts";
import { SIDECAR_COMMAND } from "../../helpers/sidecar-process.ts";

const service = await createSidecarService({ sidecar: [], sidecarDevice: "cpu" }, createLogger("error"), {
  embeddedCommand: SIDECAR_COMMAND,
  embeddedFlags: ["--log-level", "error"],
});
for (;;) {
  const readiness = await service.ready();
  if (readiness.ok) {
    console.log(/pid (\d+)/.exec(readiness.detail)![1]);
    break;
  }
  await Bun.sleep(100);
}
setInterval(() => {}, 60_000);
