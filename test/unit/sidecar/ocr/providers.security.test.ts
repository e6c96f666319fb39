import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chooseExecutionProviders, planCuda, systemProbe } from "../../../../sidecar/ocr/providers.ts";
import { OPERATOR_DIR, PROVIDERS, machine } from "./providers-machine.ts";

describe("libraries the sidecar would load", () => {
  test("links left by an earlier start are not trusted once the setting is gone: CPU, not the old folder", () => {
    const box = machine({ beside: { [PROVIDERS[0]!]: "link", [PROVIDERS[1]!]: "link" } });
    expect(chooseExecutionProviders("auto", {}, box)).toEqual(["cpu"]);
  });

  test("an operator's folder another user could write to is refused before anything is linked", () => {
    const box = machine({ operator: PROVIDERS, untrusted: `${OPERATOR_DIR} is writable by other users` });
    expect(planCuda(box, { cudaLibDir: OPERATOR_DIR })).toEqual({
      usable: false,
      reason: `DOCVERIFY_SIDECAR_CUDA_LIB_DIR: ${OPERATOR_DIR} is writable by other users`,
    });
    expect(() => chooseExecutionProviders("cuda", { cudaLibDir: OPERATOR_DIR }, box)).toThrow(
      "writable by other users",
    );
    expect(box.linked).toEqual([]);
  });

  test("the system probe refuses a library in a world-writable folder or itself writable by others, and accepts a private one", () => {
    const root = mkdtempSync(join(tmpdir(), "providers-trust-"));
    try {
      const open = join(root, "open");
      const closed = join(root, "closed");
      for (const dir of [open, closed]) {
        mkdirSync(dir);
        writeFileSync(join(dir, PROVIDERS[0]!), "");
      }
      chmodSync(open, 0o777);
      chmodSync(closed, 0o700);
      chmodSync(join(closed, PROVIDERS[0]!), 0o644);
      const probe = systemProbe();
      expect(probe.untrustedReason(join(open, PROVIDERS[0]!))).toBe(`${open} is writable by other users`);
      expect(probe.untrustedReason(join(closed, PROVIDERS[0]!))).toBeNull();
      chmodSync(join(closed, PROVIDERS[0]!), 0o666);
      expect(probe.untrustedReason(join(closed, PROVIDERS[0]!))).toBe(
        `${join(closed, PROVIDERS[0]!)} is writable by other users`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
