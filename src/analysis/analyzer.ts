// The seam between the service and the analysis: the API, batches and the CLI depend on
// this interface, not on which detectors run or where.
import type { IntakeDocument } from "../intake/document";
import type { AnalysisReport } from "./report";

export interface Analyzer {
  analyze(doc: IntakeDocument): Promise<AnalysisReport>;
}
