/**
 * Bundle-time half of natives.ts. Bun would embed a required `.node` file and load it from a
 * temporary copy, where sharp's module no longer finds libvips through its RPATH; onnxruntime's
 * binding is required through a template string the bundler cannot follow at all. So the few
 * modules that load a native are rewritten to call requireNative() with the module's path
 * relative to node_modules, which is where prepareRuntime() extracted it.
 */
import type { BunPlugin } from "bun";
import { dirname, join, posix, relative } from "node:path";

/** The modules that load natives, and nothing else: each must contain a native require. */
const LOADERS =
  /[\\/]node_modules[\\/](@img[\\/]sharp-[^\\/]+[\\/]index\.cjs|onnxruntime-node[\\/]dist[\\/]binding\.js)$/;

/** `require("./x.node")`, `require('../x.node')` or a template literal with `${...}` parts. */
const NATIVE_REQUIRE = /require\((["'`])(\.\.?\/[^"'`]*\.node)\1\)/g;

const NATIVES_MODULE = join(import.meta.dir, "natives.ts");

export const nativeLoaderPlugin: BunPlugin = {
  name: "docverify-native-loaders",
  setup(build) {
    // sharp's ES module requires its platform package through createRequire(import.meta.url),
    // which the bundler cannot see; its CommonJS twin uses plain require(), which it follows.
    build.onResolve({ filter: /^\.\/sharp\.mjs$/ }, ({ importer }) =>
      /[\\/]node_modules[\\/]sharp[\\/]dist[\\/][^\\/]+\.mjs$/.test(importer)
        ? { path: join(dirname(importer), "sharp.cjs") }
        : undefined,
    );
    build.onLoad({ filter: LOADERS }, async ({ path }) => {
      const source = await Bun.file(path).text();
      const nodeModules = path.slice(0, path.lastIndexOf("node_modules") + "node_modules".length);
      const moduleDir = relative(nodeModules, dirname(path)).split("\\").join("/");
      let count = 0;
      const rewritten = source.replace(NATIVE_REQUIRE, (_match, quote: string, spec: string) => {
        count++;
        return `__docverifyRequireNative(${quote}${posix.join(moduleDir, spec)}${quote})`;
      });
      // A new package version that loads its native differently must fail the build, not the binary.
      if (count === 0) throw new Error(`no native require found in ${path}: update src/runtime/bundle-plugin.ts`);
      const header = `var __docverifyRequireNative = require(${JSON.stringify(NATIVES_MODULE)}).requireNative;\n`;
      return { contents: header + rewritten, loader: "js" };
    });
  },
};
