/**
 * Evidence as the collector stores it, built for the verdict's tables, the renderers' tests and
 * bench/report-render.ts. Keys differ from names on purpose (svc:… / "Checkout API"), so a test
 * can assert that the report prints names, never keys.
 */
import { DEFAULT_THRESHOLDS } from '../../src/domains/evidence/thresholds.js';
import type {
  AlertsPart, Compared, ComparedSeries, Evidence, LogFingerprint, LogsPart, MetricsPart, Role, Series, ServiceRed, SubjectAlert, SubjectHealth,
} from '../../src/domains/evidence/evidence-types.js';

export const WINDOW = {
  start: '2026-03-01T10:00:00.000Z', finish: '2026-03-01T10:30:00.000Z', end: '2026-03-01T11:00:00.000Z', evidenceMinutes: 30,
  hourBefore: { start: '2026-03-01T09:00:00.000Z', end: '2026-03-01T10:00:00.000Z' },
  weekEarlier: { start: '2026-02-22T10:00:00.000Z', end: '2026-02-22T11:00:00.000Z' },
};

export const cmp = (window: number | null, hourBefore: number | null = window, weekEarlier: number | null = hourBefore): Compared => ({ window, hourBefore, weekEarlier });

const series = (start: string, base: number, n: number, bump = 0): Series => ({
  stepSeconds: 60, start, values: Array.from({ length: n }, (_, i) => (i % 17 === 5 ? null : base * (1 + 0.1 * Math.sin(i / 3)) + (i > n / 2 ? bump : 0))),
});

export function compared(base: number, bump = 0, points = 60): ComparedSeries {
  return { window: series(WINDOW.start, base, points, bump), weekEarlier: series(WINDOW.weekEarlier.start, base, points), hourBefore: series(WINDOW.hourBefore.start, base, points) };
}

export function red(key: string, name: string, role: Role, over: Partial<Pick<ServiceRed, 'rate' | 'errorRatio' | 'p95' | 'series'>> = {}): ServiceRed {
  return {
    key, name, role, rate: cmp(20), errorRatio: cmp(0.002), p95: cmp(0.12),
    series: { rate: compared(20), errorRatio: compared(0.002), p95: compared(0.12) }, ...over,
  };
}

export function alert(over: Partial<SubjectAlert> = {}): SubjectAlert {
  return {
    fingerprint: 'fp-1', alertname: 'HighErrorRate', label: 'Checkout API · HighErrorRate · prom-main', severity: 'critical', labels: { service: 'checkout' },
    down: false, latencyThresholdZero: false, clusterScope: false, ...over,
  };
}

export function subject(over: Partial<SubjectHealth> = {}): SubjectHealth {
  return {
    kind: 'service', key: 'svc:checkout', label: 'Checkout API', role: 'component', preExisting: false, enteredError: 0, openAtEnd: false,
    longestErrorMinutes: 0, downMinutes: 0, firedAndRecovered: false, transitions: [], alerts: [alert()], ...over,
  };
}

export const fired = (fingerprint: string, at: string, alertname = 'HighErrorRate') => ({ at, state: 'firing' as const, fingerprint, alertname });
export const resolved = (fingerprint: string, at: string, alertname = 'HighErrorRate') => ({ at, state: 'resolved' as const, fingerprint, alertname });

export const PROM = { id: 'src_prom', kind: 'prometheus' as const, name: 'prom-main' };
export const LOKI = { id: 'src_loki', kind: 'loki' as const, name: 'loki-eu' };
export const ALERTS = { id: 'alerts', kind: 'alerts' as const, name: 'alert history' };

export const alertsMeasured = (subjects: SubjectHealth[]): AlertsPart => ({ source: ALERTS, status: 'measured', value: { subjects, truncated: false } });
export const metricsMeasured = (services: ServiceRed[]): MetricsPart => ({ source: PROM, status: 'measured', value: { templates: 'otel', queries: 12, services } });
export const fingerprint = (template: string, isNew: boolean, window = 12): LogFingerprint => ({
  template, counts: cmp(window, isNew ? 0 : 3, isNew ? 0 : 2), isNew, sample: template.replace('<n>', '42'), services: ['Checkout API'],
});
export const logsMeasured = (fingerprints: LogFingerprint[] = []): LogsPart => ({
  source: LOKI, status: 'measured', value: { volume: cmp(5000, 4800, 5100), errors: cmp(40, 35, 38), fingerprints },
});

/** Nothing measured: every part says why. */
export function emptyEvidence(): Evidence {
  return {
    schema: 1, collectedAt: '2026-03-01T11:00:05.000Z',
    change: {
      id: 'chg_0123456789abcdef0123456789abcdef', displayId: 'CHG-01234567', title: 'Deploy checkout 2.4', kind: 'deploy', outcome: 'success',
      components: [{ key: 'svc:checkout', name: 'Checkout API', kind: 'service' }],
      registeredBy: { user: { email: 'ci-owner@acme.dev', name: 'Rita Owner' }, token: { id: 'tok_1', name: 'github-deploy' } },
      ticket: null, link: 'https://cl.acme.dev/?view=changes&change=chg_0123456789abcdef0123456789abcdef',
    },
    window: WINDOW, thresholds: { ...DEFAULT_THRESHOLDS },
    services: [{ key: 'svc:checkout', name: 'Checkout API', role: 'component' }, { key: 'svc:payments', name: 'Payments', role: 'neighbour' }],
    alerts: { source: ALERTS, status: 'not_measured', reason: 'no alert source is configured' },
    metrics: [], logs: [], mailConfigured: true,
  };
}

export function evidence(over: Partial<Evidence> = {}): Evidence {
  return { ...emptyEvidence(), ...over };
}

/** A change over `n` services, every part measured, for the renderers' bench. */
export function largeEvidence(n: number): Evidence {
  const services = Array.from({ length: n }, (_, i) => red(`svc:s-${i}`, `Service ${i}`, i < 3 ? 'component' : 'neighbour', {
    errorRatio: cmp(i % 50 === 0 ? 0.05 : 0.002, 0.002), series: { rate: compared(20), errorRatio: compared(0.002, i % 50 === 0 ? 0.05 : 0), p95: compared(0.12) },
  }));
  const subjects = Array.from({ length: Math.min(n, 60) }, (_, i) => subject({
    key: `svc:s-${i}`, label: `Service ${i}`, role: i < 3 ? 'component' : 'neighbour', enteredError: 1, firedAndRecovered: true,
    transitions: [fired(`fp-${i}`, '2026-03-01T10:05:00.000Z'), resolved(`fp-${i}`, '2026-03-01T10:09:00.000Z')],
    alerts: [alert({ fingerprint: `fp-${i}`, label: `Service ${i} · HighErrorRate · prom-main` })],
  }));
  return evidence({
    services: services.map(({ key, name, role }) => ({ key, name, role })),
    alerts: alertsMeasured(subjects), metrics: [metricsMeasured(services)],
    logs: [logsMeasured(Array.from({ length: 50 }, (_, i) => fingerprint(`order <n> failed: upstream ${i} timeout`, i % 5 === 0)))],
  });
}
