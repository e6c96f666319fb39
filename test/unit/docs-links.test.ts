// Every repository path the documentation and the code comments name must exist, so a
// newcomer following one never lands on nothing; and nothing may point outside the
// repository (a design document kept elsewhere, a sibling `shared/` folder, a script left
// under /tmp): the project has to stand on its own.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { startInProcessApp } from "../helpers/in-process-app.ts";

const ROOT = join(import.meta.dir, "../..");

const tracked = (): string[] => {
  const listed = Bun.spawnSync(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT });
  if (listed.exitCode !== 0) throw new Error(`git ls-files failed: ${listed.stderr.toString()}`);
  return listed.stdout
    .toString()
    .split("\0")
    .filter((path) => path !== "" && existsSync(join(ROOT, path)));
};

const FILES = tracked();

/** The folders a repository path starts with, and the root files worth naming. */
const TOP = ["src", "sidecar", "scripts", "test", "docs", "proto", ".ci"];
const ROOT_FILES = [
  "README.md",
  "ARCHITECTURE.md",
  "CONTRIBUTING.md",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "bunfig.toml",
  "redocly.yaml",
  ".npmrc",
  ".gitignore",
];

/**
 * Words shaped like a repository path: `src/api/app.ts`, `scripts/bench-*.ts`, `docs/evaluation/`.
 */
const PATH_WORD = new RegExp(
  `(?<![\\w./-])((?:${TOP.map((t) => t.replace(".", "\\.")).join("|")})/[\\w.*/-]*[\\w*/])`,
  "g",
);

/** A path with a glob (`scripts/bench-*`) exists when some file matches it. */
function resolves(path: string): boolean {
  const clean = path.replace(/[.:]+$/, "");
  if (clean.includes("*")) {
    const glob = new Bun.Glob(clean.endsWith("/") ? `${clean}**` : clean);
    return FILES.some((file) => glob.match(file) || glob.match(dirname(file)));
  }
  return existsSync(join(ROOT, clean));
}

/** Paths in prose, code spans and commands, as written from the repository root. */
function pathWords(text: string): string[] {
  return [...text.matchAll(PATH_WORD)].map((m) => m[1]!).filter((word) => !word.includes("://"));
}

/** Targets of Markdown links that are not URLs or anchors, resolved from the file's folder. */
function linkTargets(file: string, text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.replace(/#.*$/, ""))
    .filter((target) => target !== "" && !/^[a-z]+:/i.test(target))
    .map((target) => normalize(join(dirname(file), target)));
}

const MARKDOWN = FILES.filter(
  (file) => file.endsWith(".md") && !file.startsWith("test/fixtures/") && !file.startsWith("scripts/corpus/assets/"),
);

const CODE = FILES.filter(
  (file) =>
    (TOP.some((top) => file.startsWith(`${top}/`)) &&
      /\.(ts|mjs|py|sh|proto)$/.test(file) &&
      !file.startsWith("proto/generated/")) ||
    // CI's script and the root configuration files whose comments name paths (knip.jsonc's
    // entries).
    file === ".ci/run" ||
    (!file.includes("/") && /\.(jsonc|toml|yaml)$/.test(file)),
);

describe("documentation", () => {
  test("has the newcomer's documents, linked from the README", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const doc of ["ARCHITECTURE.md", "CONTRIBUTING.md"]) {
      expect(existsSync(join(ROOT, doc))).toBe(true);
      expect(readme).toContain(`](${doc})`);
    }
  });

  test("names only repository paths that exist", () => {
    const missing: string[] = [];
    for (const file of MARKDOWN) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const word of pathWords(text)) if (!resolves(word)) missing.push(`${file}: ${word}`);
      for (const target of linkTargets(file, text))
        if (!existsSync(join(ROOT, target))) missing.push(`${file}: (${target})`);
      for (const name of ROOT_FILES) {
        if (text.includes(`\`${name}\``) && !existsSync(join(ROOT, name))) missing.push(`${file}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

/**
 * The folder ARCHITECTURE.md must name for a file: its own, or for a test its layer (tests mirror
 * the code's folders).
 */
const folderToName = (file: string): string => {
  const parts = file.split("/");
  return parts[0] === "test" && parts.length > 2 ? parts.slice(0, 2).join("/") : dirname(file);
};

describe("ARCHITECTURE.md", () => {
  // A newcomer finds a behaviour from it in one step only if every folder of code is there.
  test("names every folder that holds code", () => {
    const architecture = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
    const folders = new Set(
      FILES.filter(
        (file) =>
          /^(src|sidecar|scripts|proto|test)\/.*\.(ts|mjs|py|sh)$/.test(file) &&
          !file.startsWith("proto/generated/") &&
          !file.startsWith("test/fixtures/"),
      )
        .map(folderToName)
        .filter((folder) => folder.includes("/") || folder === "proto"),
    );
    const unnamed = [...folders].filter((folder) => !architecture.includes(`\`${folder}/`)).sort();
    expect(unnamed).toEqual([]);
  });
});

describe("ARCHITECTURE.md's routes", () => {
  // From the app `serve` builds, so a route added without its line here fails.
  test("name every route the app answers, with the file that declares it", async () => {
    const service = await startInProcessApp();
    const routes = service.app.routes.map((route) => ({ method: route.method.toUpperCase(), path: route.path }));
    await service.close();
    const lines = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8").split("\n");
    const wrong: string[] = [];
    for (const { method, path } of routes) {
      const line = lines.find((l) => l.startsWith(`| \`${method} ${path}\` |`));
      const file = line?.match(/`(src\/api\/[\w-]+\.ts)`/)?.[1];
      if (!file) wrong.push(`${method} ${path}: no row naming its file`);
      else if (!readFileSync(join(ROOT, file), "utf8").includes(`"${path}"`))
        wrong.push(`${method} ${path}: not declared in ${file}`);
    }
    expect(routes.length).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });
});

describe("code comments and strings", () => {
  test("name only repository paths that exist", () => {
    const missing: string[] = [];
    for (const file of CODE) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const word of pathWords(text)) if (!resolves(word)) missing.push(`${file}: ${word}`);
    }
    expect(missing).toEqual([]);
  });
});

describe("the project stands on its own", () => {
  // Run records (docs/evaluation/**/report.txt, evaluation.json) write down the folder the
  // run read its corpus from; that is a fact about the run, not a reference to follow, so
  // only source and prose are held to this.
  const SCANNED = FILES.filter(
    (file) =>
      ["src/", "sidecar/", "scripts/", "test/", "docs/"].some((top) => file.startsWith(top)) &&
      /\.(ts|mjs|js|py|sh|md|proto|toml)$/.test(file),
  );
  const OUTSIDE = [/\bDESIGN\.md\b/, /\.\.\/shared\b/, /(?<![\w.~$-])\/tmp\//];

  test("no file refers to a design document, a shared folder or /tmp outside the repository", () => {
    // This file names the patterns it looks for.
    const self = "test/unit/docs-links.test.ts";
    const found: string[] = [];
    for (const file of SCANNED) {
      if (file === self) continue;
      const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (OUTSIDE.some((pattern) => pattern.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});
