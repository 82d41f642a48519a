/** The report's RED figures and alerts as CSV. */
import type { ReportInput } from './report-input.js';

export function renderCsv(_input: ReportInput): string {
  return 'section,service,signal\r\n';
}
