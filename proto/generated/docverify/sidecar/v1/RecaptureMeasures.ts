// Original file: docverify/sidecar/v1/analyzer.proto


/**
 * Periodic peaks in the spectra of patches across the page (log10 power over the median).
 */
export interface RecaptureMeasures {
  'lumaPeak'?: (number | string);
  'chromaPeak'?: (number | string);
  'lumaPeakThreshold'?: (number | string);
  'chromaPeakThreshold'?: (number | string);
  /**
   * Patches peaking at one frequency, per channel; how many were measured; how many must agree.
   */
  'lumaAgreement'?: (number);
  'chromaAgreement'?: (number);
  'patches'?: (number);
  'agreementThreshold'?: (number);
  /**
   * "luma" or "chroma": the channel further above its threshold.
   */
  'strongestChannel'?: (string);
  '_lumaPeak'?: "lumaPeak";
  '_chromaPeak'?: "chromaPeak";
  '_lumaPeakThreshold'?: "lumaPeakThreshold";
  '_chromaPeakThreshold'?: "chromaPeakThreshold";
  '_lumaAgreement'?: "lumaAgreement";
  '_chromaAgreement'?: "chromaAgreement";
  '_patches'?: "patches";
  '_agreementThreshold'?: "agreementThreshold";
  '_strongestChannel'?: "strongestChannel";
}

/**
 * Periodic peaks in the spectra of patches across the page (log10 power over the median).
 */
export interface RecaptureMeasures__Output {
  'lumaPeak'?: (number);
  'chromaPeak'?: (number);
  'lumaPeakThreshold'?: (number);
  'chromaPeakThreshold'?: (number);
  /**
   * Patches peaking at one frequency, per channel; how many were measured; how many must agree.
   */
  'lumaAgreement'?: (number);
  'chromaAgreement'?: (number);
  'patches'?: (number);
  'agreementThreshold'?: (number);
  /**
   * "luma" or "chroma": the channel further above its threshold.
   */
  'strongestChannel'?: (string);
  '_lumaPeak'?: "lumaPeak";
  '_chromaPeak'?: "chromaPeak";
  '_lumaPeakThreshold'?: "lumaPeakThreshold";
  '_chromaPeakThreshold'?: "chromaPeakThreshold";
  '_lumaAgreement'?: "lumaAgreement";
  '_chromaAgreement'?: "chromaAgreement";
  '_patches'?: "patches";
  '_agreementThreshold'?: "agreementThreshold";
  '_strongestChannel'?: "strongestChannel";
}
