// The stored evidence of a report version, as GET /api/changes/{id}/report.json answers it under
// `evidence`: the server's own words (src/domains/evidence/evidence-types.ts, a file without
// imports, read here as types only). An old report (before evidence) has its old body instead,
// which is why every reader checks `schema === 1` first (isEvidence).
import type { ReportJson } from './types';

import type { AiAssessment, Evidence, Impact, RedSignal, Verdict } from '../../../src/domains/evidence/evidence-types';

export type {
  AiAssessment, AiFindingTag, AlertsPart, Compared, ComparedSeries, Evidence, Figure, Impact, LogFingerprint, LogsPart, Matched,
  Measured, MetricsPart, NotCounted, NotCountedKind, RedSignal, RegisteredBy, Role, Series, ServiceRed, ServiceRef, SourceRef,
  SubjectHealth, Verdict,
} from '../../../src/domains/evidence/evidence-types';

export const impacts = ['outage', 'significant', 'minor', 'none', 'unknown'] as const satisfies readonly Impact[];
export const redSignals = ['rate', 'errorRatio', 'p95'] as const satisfies readonly RedSignal[];

/**
 * GET /api/changes/{id}/report.json: one version of the report and its evidence. The route types
 * the verdict, the AI assessment and the evidence as open objects; the page reads them as above.
 */
export type ReportAnswer = Omit<ReportJson, 'report'> & {
  report: Omit<ReportJson['report'], 'verdict' | 'ai'> & { verdict: Verdict | null; ai: AiAssessment | null };
};

export function isEvidence(body: unknown): body is Evidence {
  return typeof body === 'object' && body !== null && (body as { schema?: unknown }).schema === 1;
}
