// The part of jsfeat@0.0.8 (no types of its own) the face detector uses.
declare module "jsfeat" {
  interface Matrix {
    cols: number;
    rows: number;
    data: Uint8Array;
  }
  interface Rect {
    x: number;
    y: number;
    width: number;
    height: number;
    neighbors: number;
    confidence: number;
  }
  interface HaarCascade {
    size: number[];
    tilted?: boolean;
    complexClassifiers: unknown[];
  }
  type IntegralImage = Int32Array | Float64Array;
  const jsfeat: {
    U8_t: number;
    C1_t: number;
    matrix_t: new (cols: number, rows: number, type: number) => Matrix;
    imgproc: {
      equalize_histogram(src: Matrix, dst: Matrix): void;
      compute_integral_image(src: Matrix, sum: IntegralImage, sqsum: IntegralImage, tilted: IntegralImage | null): void;
    };
    haar: {
      detect_multi_scale(
        sum: IntegralImage,
        sqsum: IntegralImage,
        tilted: IntegralImage | null,
        cannySum: IntegralImage | null,
        width: number,
        height: number,
        classifier: HaarCascade,
        scaleFactor: number,
        minScale: number,
      ): Rect[];
      group_rectangles(rects: Rect[], minNeighbors: number): Rect[];
    };
  };
  export default jsfeat;
}
