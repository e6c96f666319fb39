// Original file: docverify/sidecar/v1/analyzer.proto


/**
 * A black-and-white copy photographed: the colour spread where the page's text is (the
 * document) against the scene around it, in BT.601 chroma (0-255 units).
 */
export interface GreyDocumentMeasures {
  'documentSpread'?: (number | string);
  'sceneSpread'?: (number | string);
  /**
   * The document is grey in a coloured scene where its spread is at or under the first and the
   * scene's at or over the second.
   */
  'documentSpreadThreshold'?: (number | string);
  'sceneSpreadThreshold'?: (number | string);
  '_documentSpread'?: "documentSpread";
  '_sceneSpread'?: "sceneSpread";
  '_documentSpreadThreshold'?: "documentSpreadThreshold";
  '_sceneSpreadThreshold'?: "sceneSpreadThreshold";
}

/**
 * A black-and-white copy photographed: the colour spread where the page's text is (the
 * document) against the scene around it, in BT.601 chroma (0-255 units).
 */
export interface GreyDocumentMeasures__Output {
  'documentSpread'?: (number);
  'sceneSpread'?: (number);
  /**
   * The document is grey in a coloured scene where its spread is at or under the first and the
   * scene's at or over the second.
   */
  'documentSpreadThreshold'?: (number);
  'sceneSpreadThreshold'?: (number);
  '_documentSpread'?: "documentSpread";
  '_sceneSpread'?: "sceneSpread";
  '_documentSpreadThreshold'?: "documentSpreadThreshold";
  '_sceneSpreadThreshold'?: "sceneSpreadThreshold";
}
