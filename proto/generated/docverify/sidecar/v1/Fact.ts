// Original file: docverify/sidecar/v1/analyzer.proto


export interface Fact {
  'name'?: (string);
  'number'?: (number | string);
  'text'?: (string);
  'flag'?: (boolean);
  'value'?: "number"|"text"|"flag";
}

export interface Fact__Output {
  'name': (string);
  'number'?: (number);
  'text'?: (string);
  'flag'?: (boolean);
  'value'?: "number"|"text"|"flag";
}
