/** What every renderer of a report version reads: the frozen evidence and its answers. */
import type { AiAssessment, Evidence, Verdict } from './evidence-types.js';

export type ReportInput = { version: number; createdAt: string; evidence: Evidence; verdict: Verdict; ai: AiAssessment };
