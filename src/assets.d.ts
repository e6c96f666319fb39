// `import path from "…" with { type: "file" }` gives a path (embedded in compiled builds).
declare module "swagger-ui-dist/*" {
  const path: string;
  export default path;
}
