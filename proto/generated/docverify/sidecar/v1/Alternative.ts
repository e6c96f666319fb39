// Original file: docverify/sidecar/v1/analyzer.proto


export interface Alternative {
  'character'?: (string);
  'probability'?: (number | string);
}

export interface Alternative__Output {
  'character': (string);
  'probability': (number);
}
