/**
 * What a compiled binary carries. scripts/build.ts compiles a generated module in place of this
 * file: one `with { type: "file" }` import per catalog file, which is how Bun embeds a file and
 * yields its path inside the executable. Running from source nothing is embedded, and files are
 * read where they lie in the repository.
 */
export interface Embedded {
  /** Hash of the native libraries: names the directory they are extracted to. */
  nativesId: string;
  /** Catalog name (e.g. "proto/grpc/health/v1/health.proto") → the file's path inside the executable. */
  files: Record<string, string>;
}

export const embedded: Embedded | null = null;
