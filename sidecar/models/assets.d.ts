// Model files are imported `with { type: "file" }`: Bun yields their path, which points into
// the executable once `bun build --compile` has embedded them.
declare module "*.onnx" {
  const path: string;
  export default path;
}
