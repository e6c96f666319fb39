// Install scripts are off in .npmrc: onnxruntime-node's would try to download GPU
// libraries and @scarf/scarf's would phone home, neither of which an air-gapped bank
// allows. Bun's own postinstall only puts the platform binary (already installed from npm
// as @oven/bun-<platform>) in place of its launcher, so we run just that one, once.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const bunDir = dirname(require.resolve("bun/package.json"));
// The npm package names its launcher bun.exe on every platform.
const launcher = join(bunDir, "bin", "bun.exe");

try {
  execFileSync(launcher, ["--version"], { stdio: "ignore" });
} catch {
  execFileSync(process.execPath, [join(bunDir, "install.js")], { cwd: bunDir, stdio: ["ignore", 2, 2] });
  execFileSync(launcher, ["--version"], { stdio: "ignore" });
}
