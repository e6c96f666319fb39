// Import cycles among the project's own modules: `npm run cycles` (CI runs it before the
// tests). A cycle makes load order decide what a module sees (a constant read before it is
// initialised is undefined), and it is a sign that two files share something that belongs
// in a third, usually a type.
//
// madge --circular is the usual tool, but it parses TypeScript through the `typescript`
// package's JavaScript API, which TypeScript 7 (the native compiler this project uses) no
// longer ships, and its peer range refuses TypeScript 7. This reads import specifiers with a
// scanner of its own instead, type-only imports included (as madge counts them): a type
// cycle is the same tangle for a reader even though it vanishes at run time.
//
// Run: bun scripts/check-cycles.ts [folder …]   (default: src sidecar scripts proto test)
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SOURCE = /\.(ts|mts|tsx|mjs|js)$/;

/**
 * Comments and string contents other than specifiers would make the scanner see imports that are
 * not there.
 */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/**
 * Every module specifier a file names: static imports and re-exports (type-only too), dynamic
 * imports.
 */
export function specifiers(text: string): string[] {
  const code = withoutComments(text);
  const found: string[] = [];
  for (const m of code.matchAll(/(?:^|[;\n}])\s*(?:import|export)\b[^;'"`]*?\bfrom\s*["']([^"']+)["']/g))
    found.push(m[1]!);
  for (const m of code.matchAll(/(?:^|[;\n])\s*import\s*["']([^"']+)["']/g)) found.push(m[1]!);
  for (const m of code.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1]!);
  return found;
}

/** A relative specifier to the project file it loads, or null for packages and assets. */
function resolveLocal(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}.js`, join(base, "index.ts")];
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, ".ts"));
  for (const candidate of candidates) {
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function listFiles(folders: string[]): string[] {
  const listed = Bun.spawnSync(
    ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...folders],
    { cwd: ROOT },
  );
  if (listed.exitCode !== 0) throw new Error(`git ls-files failed: ${listed.stderr.toString()}`);
  return listed.stdout
    .toString()
    .split("\0")
    .filter((path) => SOURCE.test(path) && !path.endsWith(".d.ts") && existsSync(join(ROOT, path)))
    .map((path) => join(ROOT, path));
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) out.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return out;
}

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(readFileSync(file, "utf8"))
      .map((specifier) => resolveLocal(file, specifier))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

if (import.meta.main) {
  const folders = process.argv.slice(2);
  const files = listFiles(folders.length > 0 ? folders : ["src", "sidecar", "scripts", "proto", "test"]);
  const found = cycles(importGraph(files));
  for (const component of found) console.error(`cycle: ${component.map((file) => relative(ROOT, file)).join(" ↔ ")}`);
  console.log(`${files.length} files, ${found.length} import cycle${found.length === 1 ? "" : "s"}`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
