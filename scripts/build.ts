/**
 * `bun run build`: compiles dist/docverify, one executable for this machine's platform that runs
 * from an empty folder. Besides the code and what it imports `with { type: "file" }`, it carries
 * every file of src/runtime/catalog.ts (native libraries, mupdf's WebAssembly, protos);
 * src/runtime explains how they are reached.
 */
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { type CatalogFile, listCatalog, NATIVE_GROUP } from "../src/runtime/catalog.ts";
import { nativeLoaderPlugin } from "../src/runtime/bundle-plugin.ts";

const REPO_ROOT = resolve(import.meta.dir, "..");

interface BuildOptions {
  entrypoint: string;
  outfile: string;
}

/**
 * Worker scripts are bundled as further entry points, named by their path from the repository
 * root: that is how code inside the binary addresses them (`new Worker("./sidecar/...")`).
 */
const WORKER_ENTRYPOINTS = [
  "sidecar/server/render-worker.ts",
  "sidecar/inference/model-worker.ts",
  "src/analysis/worker/local-analysis-worker.ts",
];

const DEFAULT_BUILD: BuildOptions = {
  entrypoint: join(REPO_ROOT, "src/main.ts"),
  outfile: join(REPO_ROOT, "dist/docverify"),
};

async function build({ entrypoint, outfile }: BuildOptions): Promise<void> {
  // Natives are those of the platform building: npm installs no other platform's packages.
  const files = listCatalog(REPO_ROOT, { platform: process.platform, arch: process.arch });
  // Bun.build throws on any error (its `throw` option defaults to true), with every message.
  await Bun.build({
    entrypoints: [entrypoint, ...WORKER_ENTRYPOINTS.map((worker) => join(REPO_ROOT, worker))],
    root: REPO_ROOT,
    target: "bun",
    minify: { whitespace: true, syntax: true },
    sourcemap: "linked",
    // Parsing is done at build time: `keys list` starts about a fifth faster for ~4% more size.
    // Bytecode defaults to CommonJS, which has no top-level await (main.ts and mupdf use it).
    bytecode: true,
    format: "esm",
    compile: {
      outfile,
      // The binary runs in the operator's directories: a stray .env or bunfig.toml there must
      // not change how it behaves. Configuration comes from DOCVERIFY_* only.
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
    files: { [join(REPO_ROOT, "src/runtime/embedded.ts")]: await embeddedModule(files) },
    plugins: [nativeLoaderPlugin],
  });
}

/** The module compiled in place of src/runtime/embedded.ts. */
async function embeddedModule(files: CatalogFile[]): Promise<string> {
  const imports = files.map((file, i) => `import f${i} from ${JSON.stringify(file.path)} with { type: "file" };`);
  const entries = files.map((file, i) => `${JSON.stringify(file.name)}: f${i}`);
  const nativesId = await hashNatives(files);
  return `${imports.join("\n")}\nexport const embedded = { nativesId: "${nativesId}", files: { ${entries.join(", ")} } };\n`;
}

/**
 * Content hash: a rebuild with the same libraries reuses the extracted copy, any change does not.
 */
async function hashNatives(files: CatalogFile[]): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for (const file of files.filter((f) => f.name.startsWith(`${NATIVE_GROUP}/`))) {
    hasher.update(`${file.name}\0`);
    hasher.update(await Bun.file(file.path).bytes());
  }
  return hasher.digest("hex").slice(0, 16);
}

if (import.meta.main) {
  const started = performance.now();
  await build(DEFAULT_BUILD);
  const megabytes = (statSync(DEFAULT_BUILD.outfile).size / 1e6).toFixed(1);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${DEFAULT_BUILD.outfile}: ${megabytes} MB in ${seconds} s`);
}
