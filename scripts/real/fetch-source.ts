// The bytes of one source document, from a local mirror of its repository or from GitHub,
// checked against the manifest's sha256: a moved branch or a mirror of another commit
// must not slip a different file into the set.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { RealSource } from "./sources.ts";

/** What a fetch reads of a manifest entry: where the file is pinned and what it must hash to. */
export type PinnedFile = Pick<RealSource, "repo" | "commit" | "path" | "sha256">;

/** At most this many bytes per document: the set keeps to files a customer would upload. */
const MAX_BYTES = 10 * 1024 * 1024;

/**
 * The bare git directory of a repository under a mirror folder, laid out as `fetch`
 * leaves it (`<mirror>/<owner>+<name>/repo`) or as a plain bare clone (`<owner>+<name>`).
 */
function gitDirOf(mirror: string, repo: string): string | undefined {
  const base = join(mirror, repo.replace("/", "+"));
  return [join(base, "repo"), base].find((dir) => existsSync(join(dir, "HEAD")));
}

async function fromMirror(gitDir: string, source: PinnedFile): Promise<Uint8Array> {
  const child = Bun.spawn(["git", "--git-dir", gitDir, "cat-file", "blob", `${source.commit}:${source.path}`], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const [bytes, stderr, code] = await Promise.all([
    new Response(child.stdout).bytes(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`git cat-file in ${gitDir}: ${stderr.trim() || `exit ${code}`}`);
  return bytes;
}

async function fromGitHub(source: PinnedFile): Promise<Uint8Array> {
  const path = source.path.split("/").map(encodeURIComponent).join("/");
  const url = `https://raw.githubusercontent.com/${source.repo}/${source.commit}/${path}`;
  const response = await fetch(url).catch((error: Error) => {
    throw new Error(`GET ${url}: ${error.message}`);
  });
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The document's bytes, or an error that names where they were looked for and what was wrong. */
export async function fetchSource(source: PinnedFile, mirror?: string): Promise<{ bytes: Uint8Array; from: string }> {
  const gitDir = mirror === undefined ? undefined : gitDirOf(mirror, source.repo);
  const bytes = gitDir ? await fromMirror(gitDir, source) : await fromGitHub(source);
  const from = gitDir ?? "github";
  if (bytes.length > MAX_BYTES) throw new Error(`${bytes.length} bytes from ${from}, over the ${MAX_BYTES}-byte limit`);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (sha256 !== source.sha256) throw new Error(`sha256 ${sha256} from ${from}, expected ${source.sha256}`);
  return { bytes, from };
}
