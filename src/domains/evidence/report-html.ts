/** The report as standalone HTML. */
import type { ReportInput } from './report-input.js';

export type { ReportInput };

export function renderHtml(input: ReportInput): string {
  return `<!doctype html><html><body><p>Report v${input.version}</p></body></html>`;
}
