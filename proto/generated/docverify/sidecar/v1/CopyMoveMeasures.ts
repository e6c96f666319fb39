// Original file: docverify/sidecar/v1/analyzer.proto


export interface CopyMoveMeasures {
  /**
   * Correlation from which a CopyMove counts, 0..1.
   */
  'minCorrelation'?: (number | string);
  /**
   * Mean noise residual of the paper away from text; the search counts only on noisy paper.
   */
  'paperNoise'?: (number | string);
  /**
   * Matches found repeating at a period (guilloches, MRZ fillers): counted, not reported.
   */
  'periodicMatches'?: (number);
  '_minCorrelation'?: "minCorrelation";
  '_paperNoise'?: "paperNoise";
  '_periodicMatches'?: "periodicMatches";
}

export interface CopyMoveMeasures__Output {
  /**
   * Correlation from which a CopyMove counts, 0..1.
   */
  'minCorrelation'?: (number);
  /**
   * Mean noise residual of the paper away from text; the search counts only on noisy paper.
   */
  'paperNoise'?: (number);
  /**
   * Matches found repeating at a period (guilloches, MRZ fillers): counted, not reported.
   */
  'periodicMatches'?: (number);
  '_minCorrelation'?: "minCorrelation";
  '_paperNoise'?: "paperNoise";
  '_periodicMatches'?: "periodicMatches";
}
