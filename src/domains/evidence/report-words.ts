/** Short words shared by every form of the report. */
import type { AiAssessment, Verdict } from './evidence-types.js';

export function summaryLine(verdict: Verdict, _ai: AiAssessment): string {
  return `Impact ${verdict.impact}: ${verdict.reason}`;
}

export function disagreement(_verdict: Verdict, _ai: AiAssessment): string | null {
  return null;
}
