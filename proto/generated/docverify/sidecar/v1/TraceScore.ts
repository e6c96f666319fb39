// Original file: docverify/sidecar/v1/analyzer.proto


export interface TraceScore {
  'trace'?: (string);
  'score'?: (number | string);
}

export interface TraceScore__Output {
  'trace': (string);
  'score': (number);
}
