// Original file: docverify/sidecar/v1/analyzer.proto


/**
 * What the decoder saw, before any analysis.
 */
export interface ImageFacts {
  /**
   * "jpeg", "png" or "pdf".
   */
  'format'?: (string);
  /**
   * Pixels as stored in the file (images) or as rendered (PDF pages).
   */
  'storedWidth'?: (number);
  'storedHeight'?: (number);
  /**
   * EXIF orientation 1..8 (0 when absent); the analysed pixels are already upright.
   */
  'orientation'?: (number);
  'channels'?: (number);
  'hasAlpha'?: (boolean);
  /**
   * Colour space as the decoder names it, e.g. "srgb", "cmyk", "b-w".
   */
  'colorSpace'?: (string);
  /**
   * JPEG only: e.g. "4:2:0", and whether it is progressive.
   */
  'chromaSubsampling'?: (string);
  'progressive'?: (boolean);
  'hasExif'?: (boolean);
  'hasIccProfile'?: (boolean);
  /**
   * Bits per sample as stored, e.g. "uchar" (8) or "ushort" (16).
   */
  'depth'?: (string);
}

/**
 * What the decoder saw, before any analysis.
 */
export interface ImageFacts__Output {
  /**
   * "jpeg", "png" or "pdf".
   */
  'format': (string);
  /**
   * Pixels as stored in the file (images) or as rendered (PDF pages).
   */
  'storedWidth': (number);
  'storedHeight': (number);
  /**
   * EXIF orientation 1..8 (0 when absent); the analysed pixels are already upright.
   */
  'orientation': (number);
  'channels': (number);
  'hasAlpha': (boolean);
  /**
   * Colour space as the decoder names it, e.g. "srgb", "cmyk", "b-w".
   */
  'colorSpace': (string);
  /**
   * JPEG only: e.g. "4:2:0", and whether it is progressive.
   */
  'chromaSubsampling': (string);
  'progressive': (boolean);
  'hasExif': (boolean);
  'hasIccProfile': (boolean);
  /**
   * Bits per sample as stored, e.g. "uchar" (8) or "ushort" (16).
   */
  'depth': (string);
}
