/** The report as plain text. */
import type { ReportInput } from './report-input.js';

export function renderText(input: ReportInput): string {
  return `Report v${input.version}\n`;
}
