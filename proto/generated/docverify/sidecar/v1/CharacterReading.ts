// Original file: docverify/sidecar/v1/analyzer.proto

import type { Alternative as _docverify_sidecar_v1_Alternative, Alternative__Output as _docverify_sidecar_v1_Alternative__Output } from '../../../docverify/sidecar/v1/Alternative';

export interface CharacterReading {
  /**
   * Probability of the character read, at the time step where it peaked.
   */
  'probability'?: (number | string);
  /**
   * The likeliest other characters at that step, most likely first.
   */
  'alternatives'?: (_docverify_sidecar_v1_Alternative)[];
}

export interface CharacterReading__Output {
  /**
   * Probability of the character read, at the time step where it peaked.
   */
  'probability': (number);
  /**
   * The likeliest other characters at that step, most likely first.
   */
  'alternatives': (_docverify_sidecar_v1_Alternative__Output)[];
}
