// The stored evidence of a report version, as GET /api/changes/{id}/report.json answers it under
// `evidence`. The server's words are src/domains/evidence/evidence-types.ts; the web cannot import
// server files (they type-check under other settings), so the parts the change page reads are
// restated here, field for field. An old report (before evidence) has its old body instead, which
// is why every reader checks `schema === 1` first (isEvidence).
import type { ReportJson } from './types';

export type Impact = 'outage' | 'significant' | 'minor' | 'none' | 'unknown';
export const impacts = ['outage', 'significant', 'minor', 'none', 'unknown'] as const satisfies readonly Impact[];

export type Figure = number | null;
export type Compared = { window: Figure; hourBefore: Figure; weekEarlier: Figure };
export type Series = { stepSeconds: number; start: string; values: Figure[] };
export type ComparedSeries = { window: Series; weekEarlier: Series; hourBefore: Series };
export type RedSignal = 'rate' | 'errorRatio' | 'p95';
export const redSignals = ['rate', 'errorRatio', 'p95'] as const satisfies readonly RedSignal[];

export type Measured<T> = { status: 'measured'; value: T } | { status: 'not_measured'; reason: string };
export type SourceRef = { id: string; kind: 'prometheus' | 'loki' | 'elasticsearch' | 'otlp' | 'alerts'; name: string };
export type Role = 'component' | 'neighbour';
export type ServiceRef = { key: string; name: string; role: Role };

export type ServiceRed = ServiceRef & {
  rate: Compared;
  errorRatio: Compared;
  p95: Compared;
  series: Record<RedSignal, ComparedSeries> | null;
};
export type MetricsPart = { source: SourceRef } & Measured<{ templates: string; queries: number; services: ServiceRed[] }>;

export type LogFingerprint = { template: string; counts: Compared; isNew: boolean; sample: string; services: string[] };
export type LogsPart = { source: SourceRef } & Measured<{ volume: Compared; errors: Compared; fingerprints: LogFingerprint[] }>;

export type SubjectHealth = {
  kind: 'service' | 'asset' | 'source';
  key: string;
  label: string;
  role: Role;
  preExisting: boolean;
  enteredError: number;
  openAtEnd: boolean;
  firedAndRecovered: boolean;
  alerts: Array<{ fingerprint: string; alertname: string; label: string; severity: string | null }>;
};
export type AlertsPart = { source: SourceRef } & Measured<{ subjects: SubjectHealth[]; truncated: boolean }>;

export type RegisteredBy = { user: { email: string; name: string | null }; token: { id: string; name: string } | null };

export type Evidence = {
  schema: 1;
  collectedAt: string;
  change: { id: string; displayId: string; title: string; registeredBy: RegisteredBy };
  window: { start: string; finish: string; end: string; evidenceMinutes: number; hourBefore: { start: string; end: string }; weekEarlier: { start: string; end: string } };
  services: ServiceRef[];
  alerts: AlertsPart;
  metrics: MetricsPart[];
  logs: LogsPart[];
  mailConfigured: boolean;
};

export type Matched = { rule: string; subject: string; text: string };
export type NotCountedKind = 'flapping' | 'pre_existing' | 'rule_defect';
export type NotCounted = { kind: NotCountedKind; subject: string; text: string };
export type Verdict = { impact: Impact; rule: string; reason: string; matched: Matched[]; notCounted: NotCounted[] };

export type AiFindingTag = 'impact' | 'noise' | 'pre-existing' | 'rule defect';
export type AiAssessment =
  | {
    status: 'done';
    provider: { kind: 'openai' | 'anthropic'; model: string };
    tier: Impact;
    confidence: number;
    summary: string;
    findings: Array<{ tag: AiFindingTag; text: string }>;
    recommendations: string[];
  }
  | { status: 'off' }
  | { status: 'no_provider' }
  | { status: 'unavailable'; reason: string };

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
