/**
 * What the composition root and the HTTP layer may use of evidence. Evidence sits above changes,
 * catalogue and alerts: it collects at a change's horizon (through changes' ChangeReporter seam),
 * judges, assesses and renders, and hands the report back to ChangeService.recordReport.
 * Helpers of the evidence domain add one export line here for what compose.ts or app.ts needs.
 */
export type * from './evidence-types.js';
export { promqlReader } from './validation-reads.js';
