// Original file: docverify/sidecar/v1/analyzer.proto


export interface Point {
  'x'?: (number | string);
  'y'?: (number | string);
}

export interface Point__Output {
  'x': (number);
  'y': (number);
}
