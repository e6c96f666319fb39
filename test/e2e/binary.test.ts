// The compiled dist/docverify, copied alone into an empty folder and run with an empty
// environment, does its whole job: nothing of node_modules or the repository is reachable,
// so sharp's libvips, onnxruntime and mupdf's WebAssembly must come out of the binary itself.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { credentials } from "@grpc/grpc-js";
import sharp from "sharp";
import * as mupdf from "mupdf";
import { freePort } from "../helpers/free-port.ts";
import { newDatabaseUrl } from "../helpers/postgres.ts";
import {
  type AnalyzeDocumentResponse__Output,
  type AnalyzerClient,
  type DocumentFormat,
  protos,
} from "../../proto/load.ts";

const REPO = resolve(import.meta.dir, "../..");
const BUILT = join(REPO, "dist/docverify");
/** What the binary is made of: when any of it is newer than the binary, the test rebuilds. */
const SOURCES = ["src/**/*", "sidecar/**/*", "proto/**/*", "scripts/build.ts", "package-lock.json"];

let folder: string;
let binary: string;
let env: Record<string, string>;
let fixtures: { jpeg: string; pdf: string };

beforeAll(async () => {
  if (!isFresh()) {
    const build = Bun.spawn([process.execPath, join(REPO, "scripts/build.ts")], {
      cwd: REPO,
      stdout: "pipe",
      stderr: "pipe",
    });
    if ((await build.exited) !== 0) throw new Error(`build failed:\n${await new Response(build.stderr).text()}`);
  }
  folder = mkdtempSync(join(tmpdir(), "docverify-binary-"));
  binary = join(folder, "docverify");
  copyFileSync(BUILT, binary);
  // Like `env -i`: no inherited variables, a fresh home for the native-library cache.
  env = { PATH: "/usr/bin:/bin", HOME: join(folder, "home"), DOCVERIFY_DATA_DIR: join(folder, "data") };
  mkdirSync(env.HOME!);
  fixtures = await writeFixtures(mkdtempSync(join(tmpdir(), "docverify-fixtures-")));
}, 120_000);

afterAll(() => {
  rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  rmSync(dirname(fixtures.jpeg), { recursive: true, force: true });
});

describe("the compiled binary, alone in an empty folder", () => {
  test("cannot reach any node_modules from where it runs", () => {
    const ancestors = [];
    for (let dir = folder; ; dir = dirname(dir)) {
      ancestors.push(join(dir, "node_modules"));
      if (dir === dirname(dir)) break;
    }
    expect(ancestors.filter((path) => existsSync(path))).toEqual([]);
  });

  test("creates a test key and prints it as its last stdout line", async () => {
    const result = await run(["keys", "create", "--mode", "test"]);
    expect(outcome(result)).toEqual(SUCCESS);
    expect(lastLine(result.stdout)).toMatch(/^svc_test_\w+/);
  });

  test("migrates a PostgreSQL database and copies a SQLite deployment into it", async () => {
    // The scale-out path of README "Running several instances", run by the binary alone.
    const home = join(folder, "copy-home");
    const dataDir = join(folder, "copy-data");
    mkdirSync(home);
    const created = await run(["keys", "create", "--mode", "test"], { HOME: home, DOCVERIFY_DATA_DIR: dataDir });
    expect(outcome(created)).toEqual(SUCCESS);
    const keyId = (await run(["keys", "list"], { HOME: home, DOCVERIFY_DATA_DIR: dataDir })).stdout.match(
      /key_\w+/,
    )?.[0];
    expect(keyId).toBeDefined();
    const url = await newDatabaseUrl();
    const shared = {
      HOME: home,
      DOCVERIFY_DATABASE_URL: url,
      DOCVERIFY_SECRET_KEY: randomBytes(32).toString("base64"),
    };
    expect(outcome(await run(["migrate"], shared))).toEqual(SUCCESS);
    expect(outcome(await run(["db", "copy", "--from", `sqlite:${dataDir}`, "--to", url], shared))).toEqual(SUCCESS);
    const listed = await run(["keys", "list"], shared);
    expect(outcome(listed)).toEqual(SUCCESS);
    expect(listed.stdout).toContain(keyId!);
  }, 120_000);

  test("lists keys without ever printing one", async () => {
    const created = lastLine((await run(["keys", "create", "--mode", "test"])).stdout);
    const { code, stdout } = await run(["keys", "list"]);
    expect(code).toBe(0);
    expect(stdout).not.toContain(created);
  });

  test("two copies starting at once with an empty cache share one extraction of the natives", async () => {
    const home = join(folder, "race-home");
    mkdirSync(home);
    const both = await Promise.all([run(["keys", "list"], { HOME: home }), run(["keys", "list"], { HOME: home })]);
    expect(both.map(outcome)).toEqual([SUCCESS, SUCCESS]);
    // The loser of the rename race leaves no half-written staging directory behind.
    expect(readdirSync(join(home, ".cache/docverify"))).toHaveLength(1);
  });

  test("replaces a damaged native library in its cache instead of loading it", async () => {
    const home = join(folder, "repair-home");
    mkdirSync(home);
    expect((await run(["keys", "list"], { HOME: home })).code).toBe(0);
    const cache = join(home, ".cache/docverify");
    const [libvips] = [...new Bun.Glob("*/@img/*/lib/libvips-cpp.so*").scanSync({ cwd: cache, absolute: true })];
    expect(libvips).toBeDefined();
    const size = statSync(libvips!).size;
    truncateSync(libvips!, 1000);
    expect((await run(["keys", "list"], { HOME: home })).code).toBe(0);
    expect(statSync(libvips!).size).toBe(size);
  });

  test("analyses a JPEG with sharp and libvips loaded from inside the binary", async () => {
    const result = await run(["analyze", fixtures.jpeg, "--json"]);
    expect(outcome(result)).toEqual(SUCCESS);
    const report = JSON.parse(result.stdout);
    expect(report.format).toBe("jpeg");
    expect(report.forgeryScore).toBeWithin(0, 1.000001);
  }, 60_000);

  test("analyses a PDF with mupdf's WebAssembly loaded from inside the binary", async () => {
    const result = await run(["analyze", fixtures.pdf, "--json"]);
    expect(outcome(result)).toEqual(SUCCESS);
    const report = JSON.parse(result.stdout);
    expect(report.format).toBe("pdf");
    expect(report.pages).toBe(1);
  }, 60_000);

  test("runs the inference sidecar: onnxruntime OCR and mupdf's render worker from inside the binary", async () => {
    const port = freePort();
    const sidecar = Bun.spawn([binary, "sidecar"], {
      cwd: folder,
      env: { ...env, DOCVERIFY_SIDECAR_LISTEN: `127.0.0.1:${port}` },
      stdout: "pipe",
      stderr: "pipe",
    });
    const client = new (protos().analyzer.Analyzer)(`127.0.0.1:${port}`, credentials.createInsecure());
    let exit: Awaited<ReturnType<typeof stop>>;
    try {
      await waitForLine(sidecar, /listening on/);
      const jpeg = await analyzeOverGrpc(client, "DOCUMENT_FORMAT_JPEG", fixtures.jpeg);
      expect(jpeg.executionProviders).toContain("cpu");
      expect(jpeg.pageCount).toBe(1);
      const pdf = await analyzeOverGrpc(client, "DOCUMENT_FORMAT_PDF", fixtures.pdf);
      expect(pdf.pageCount).toBe(1);
      expect(pdf.pages[0]!.width).toBeGreaterThan(0);
    } finally {
      client.close();
      exit = await stop(sidecar);
    }
    expect(exit).toBe(0);
  }, 90_000);

  test("serves its own Swagger UI, verifies a JPEG and stops cleanly on SIGTERM", async () => {
    const key = lastLine((await run(["keys", "create", "--mode", "test"])).stdout);
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const service = Bun.spawn([binary, "serve"], {
      cwd: folder,
      env: { ...env, DOCVERIFY_PORT: String(port) },
      stdout: "pipe",
      stderr: "pipe",
    });
    let exit: Awaited<ReturnType<typeof stop>>;
    try {
      await waitFor(`${base}/healthz`, service);

      const docs = await fetch(`${base}/docs`);
      expect(docs.status).toBe(200);
      const html = await docs.text();
      const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      const scriptsAndStyles = references.filter((ref) => /\.(css|js)(\?|$)/.test(ref));
      expect(scriptsAndStyles.some((ref) => ref.includes("swagger-ui.css"))).toBe(true);
      expect(scriptsAndStyles.some((ref) => ref.includes("swagger-ui-bundle.js"))).toBe(true);
      // Served by the service itself: an air-gapped bank cannot reach a CDN.
      expect(scriptsAndStyles.filter((ref) => /^(https?:)?\/\//.test(ref))).toEqual([]);
      for (const ref of scriptsAndStyles) {
        const asset = await fetch(new URL(ref, `${base}/docs/`));
        expect({ ref, status: asset.status }).toEqual({ ref, status: 200 });
        expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      }

      await waitFor(`${base}/readyz`, service);
      const form = new FormData();
      form.append(
        "document",
        new Blob([await Bun.file(fixtures.jpeg).bytes()], { type: "image/jpeg" }),
        "document.jpg",
      );
      const verify = await fetch(`${base}/api/v1/verify`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      const body = (await verify.json()) as { data: { forgeryScore: number; sandbox?: boolean } };
      expect({ status: verify.status, body }).toMatchObject({ status: 200, body: { data: { sandbox: true } } });
      expect(body.data.forgeryScore).toBeWithin(0, 1.000001);
    } finally {
      exit = await stop(service);
    }
    expect(exit).toBe(0);
  }, 150_000);
});

function isFresh(): boolean {
  const built = statSync(BUILT, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return false;
  for (const pattern of SOURCES) {
    for (const path of new Bun.Glob(pattern).scanSync({ cwd: REPO, absolute: true, onlyFiles: true })) {
      if (statSync(path).mtimeMs > built) return false;
    }
  }
  return true;
}

async function run(args: string[], extraEnv: Record<string, string> = {}): Promise<RunResult> {
  const child = Bun.spawn([binary, ...args], {
    cwd: folder,
    env: { ...env, ...extraEnv },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

const SUCCESS = { code: 0, stderr: "(not shown on success)" };

/** The exit status, with stderr kept only on failure so that the assertion shows why. */
function outcome({ code, stderr }: RunResult): { code: number; stderr: string } {
  return { code, stderr: code === 0 ? SUCCESS.stderr : stderr };
}

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1) ?? "";
}

/** Polls until the URL answers 200; fails at once, with its stderr, if the service dies. */
async function waitFor(url: string, service: Bun.Subprocess<"ignore", "pipe", "pipe">): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (service.exitCode !== null) {
      throw new Error(`service exited with ${service.exitCode}:\n${await new Response(service.stderr).text()}`);
    }
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await Bun.sleep(250);
  }
  throw new Error(`${url} did not answer 200 within 120 s`);
}

/**
 * Resolves once the child prints a matching stdout line; fails with its stderr if it exits first.
 */
async function waitForLine(child: Bun.Subprocess<"ignore", "pipe", "pipe">, pattern: RegExp): Promise<void> {
  let seen = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    seen += chunk;
    if (pattern.test(seen)) return;
  }
  throw new Error(
    `exited with ${await child.exited} before printing ${pattern}:\n${await new Response(child.stderr).text()}`,
  );
}

/** One AnalyzeDocument call as the API makes it: a header, the bytes, half-close. */
function analyzeOverGrpc(
  client: AnalyzerClient,
  format: DocumentFormat,
  path: string,
): Promise<AnalyzeDocumentResponse__Output> {
  return Bun.file(path)
    .bytes()
    .then(
      (bytes) =>
        new Promise((resolve, reject) => {
          const call = client.AnalyzeDocument({ deadline: Date.now() + 60_000 }, (error, response) =>
            error || !response ? reject(error) : resolve(response),
          );
          call.write({ header: { format, sizeBytes: bytes.length } });
          call.write({ chunk: bytes });
          call.end();
        }),
    );
}

/** SIGTERM, then the exit status; a child still running after 15 s is killed and reported so. */
async function stop(child: Bun.Subprocess): Promise<number | "still running after SIGTERM"> {
  child.kill("SIGTERM");
  const exit = await Promise.race([child.exited, Bun.sleep(15_000).then(() => "still running after SIGTERM" as const)]);
  if (typeof exit !== "number") {
    child.kill("SIGKILL");
    await child.exited;
  }
  return exit;
}

/** A document-like JPEG (a white page with dark lines) and a one-page PDF with text. */
async function writeFixtures(dir: string): Promise<{ jpeg: string; pdf: string }> {
  const lines = Array.from({ length: 12 }, (_, i) => ({
    input: { create: { width: 700 - (i % 3) * 120, height: 14, channels: 3 as const, background: "#222" } },
    top: 80 + i * 48,
    left: 60,
  }));
  const jpeg = join(dir, "page.jpg");
  await sharp({ create: { width: 900, height: 700, channels: 3, background: "#fafafa" } })
    .composite(lines)
    .jpeg({ quality: 90 })
    .toFile(jpeg);

  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
  const resources = doc.addObject({ Font: { F1: font } });
  const text = "BT /F1 16 Tf 72 760 Td (Monthly statement) Tj 0 -24 Td (Closing balance 1,234.56) Tj ET";
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, text));
  const pdf = join(dir, "statement.pdf");
  await Bun.write(pdf, doc.saveToBuffer("compress").asUint8Array());
  return { jpeg, pdf };
}
