import { describe, expect, it } from 'vitest';
import {
  alert, alertsMeasured, cmp, emptyEvidence, evidence, fingerprint, fired, logsMeasured, metricsMeasured, red, resolved, subject,
} from '../../../test/support/evidence-sample.js';
import type { Evidence, Impact, NotCountedKind, VerdictRule } from './evidence-types.js';
import { DEFAULT_THRESHOLDS } from './thresholds.js';
import { judge } from './verdict.js';

const T0 = '2026-03-01T10:05:00.000Z';
const T1 = '2026-03-01T10:10:00.000Z';
const T2 = '2026-03-01T10:15:00.000Z';
const T3 = '2026-03-01T10:20:00.000Z';
const T4 = '2026-03-01T10:25:00.000Z';
const T5 = '2026-03-01T10:35:00.000Z';

const quiet = () => logsMeasured([fingerprint('order <n> placed', false)]);
const withAlerts = (...subjects: Parameters<typeof subject>[0][]) => evidence({ alerts: alertsMeasured(subjects.map((s) => subject(s))), logs: [quiet()] });

type Case = { name: string; e: Evidence; impact: Impact; rule: VerdictRule; reason: RegExp; notCounted?: NotCountedKind[] };

const latencyZero = alert({ fingerprint: 'fp-lat', alertname: 'CheckoutLatency', label: 'Checkout API · CheckoutLatency · prom-main', latencyThresholdZero: true });

const cases: Case[] = [
  {
    name: 'outage: a component still in error at the end',
    e: withAlerts({ enteredError: 1, openAtEnd: true, transitions: [fired('fp-1', T0)] }),
    impact: 'outage', rule: 'component_error_open', reason: /^Checkout API \(component\) was still in error at the end of the window\.$/,
  },
  {
    name: 'outage: a component down for 5 minutes or more, recovered since',
    e: withAlerts({ enteredError: 1, firedAndRecovered: true, downMinutes: 7, longestErrorMinutes: 7, transitions: [fired('fp-1', T0), resolved('fp-1', T2)] }),
    impact: 'outage', rule: 'component_down', reason: /^Checkout API \(component\) was down for 7 min \(5 min or more is an outage\)\.$/,
  },
  {
    name: 'the first rule of the tier names the verdict; the rest are listed too',
    e: withAlerts({ downMinutes: 9, enteredError: 1, openAtEnd: true, transitions: [fired('fp-1', T0)] }),
    impact: 'outage', rule: 'component_error_open', reason: /still in error at the end of the window \(and 1 more\)\.$/,
  },
  {
    name: 'significant: a component moved against both baselines (error ratio)',
    e: evidence({ metrics: [metricsMeasured([red('svc:checkout', 'Checkout API', 'component', { errorRatio: cmp(0.04, 0.003, 0.004) })])] }),
    impact: 'significant', rule: 'component_moved',
    reason: /^Checkout API \(component\): error ratio 4 % against 0\.3 % the hour before and 0\.4 % a week earlier \(prom-main\)\.$/,
  },
  {
    name: 'significant: a component p95 moved against both baselines',
    e: evidence({ metrics: [metricsMeasured([red('svc:checkout', 'Checkout API', 'component', { p95: cmp(0.9, 0.2, 0.25) })])] }),
    impact: 'significant', rule: 'component_moved', reason: /p95 latency 900 ms against 200 ms the hour before and 250 ms a week earlier/,
  },
  {
    name: 'significant: a component whose traffic halved',
    e: evidence({ metrics: [metricsMeasured([red('svc:checkout', 'Checkout API', 'component', { rate: cmp(4, 20, 18) })])] }),
    impact: 'significant', rule: 'component_moved', reason: /request rate 4 req\/s against 20 req\/s the hour before and 18 req\/s a week earlier/,
  },
  {
    name: 'significant: an alert of the blast radius fired and recovered',
    e: withAlerts({ role: 'neighbour', key: 'svc:payments', label: 'Payments', enteredError: 1, firedAndRecovered: true, transitions: [fired('fp-1', T0), resolved('fp-1', T1)] }),
    impact: 'significant', rule: 'alert_fired_recovered', reason: /^Payments \(neighbour\): an alert fired in the window and recovered\.$/,
  },
  {
    name: 'significant: a neighbour still in error at the end (not an outage: not a component)',
    e: withAlerts({ role: 'neighbour', key: 'svc:payments', label: 'Payments', enteredError: 1, openAtEnd: true, downMinutes: 20, transitions: [fired('fp-1', T0)] }),
    impact: 'significant', rule: 'neighbour_error_open', reason: /^Payments \(neighbour\) was still in error at the end of the window\.$/,
  },
  {
    name: 'minor: a flapping component (3 entries) is not an open error',
    e: withAlerts({
      enteredError: 3, openAtEnd: true, transitions: [fired('fp-1', T0), resolved('fp-1', T1), fired('fp-1', T2), resolved('fp-1', T3), fired('fp-1', T4)],
    }),
    impact: 'minor', rule: 'minor', reason: /^Checkout API \(component\) is flapping: it entered error 3 times\.$/, notCounted: ['flapping'],
  },
  {
    name: 'flapping that stayed down 5 minutes or more is still an outage',
    e: withAlerts({ enteredError: 3, openAtEnd: true, downMinutes: 12 }),
    impact: 'outage', rule: 'component_down', reason: /was down for 12 min/, notCounted: ['flapping'],
  },
  {
    name: 'pre-existing: already in error at the start, still open — a caveat, not counted',
    e: withAlerts({ preExisting: true, openAtEnd: true, downMinutes: 60 }),
    impact: 'none', rule: 'nothing_moved', reason: /^Alerts; logs \(loki-eu\) measured, and nothing moved/, notCounted: ['pre_existing'],
  },
  {
    name: 'pre-existing that also flaps counts as flapping: minor',
    e: withAlerts({ preExisting: true, enteredError: 4, openAtEnd: true }),
    impact: 'minor', rule: 'minor', reason: /Checkout API \(component\) is flapping: it entered error 4 times/, notCounted: ['flapping'],
  },
  {
    name: 'rule defect: a latency alarm at threshold 0 open at the end is skipped, and makes it minor',
    e: withAlerts({ alerts: [latencyZero], enteredError: 1, openAtEnd: true, transitions: [fired('fp-lat', T0, 'CheckoutLatency')] }),
    impact: 'minor', rule: 'minor', reason: /^Checkout API: the latency alarm at threshold 0 \(CheckoutLatency\) was still open at the end — a rule defect, minor\.$/,
    notCounted: ['rule_defect'],
  },
  {
    name: 'rule defect that fired and recovered once: skipped, nothing else moved',
    e: withAlerts({ alerts: [latencyZero], enteredError: 1, firedAndRecovered: true, transitions: [fired('fp-lat', T0, 'CheckoutLatency'), resolved('fp-lat', T1, 'CheckoutLatency')] }),
    impact: 'none', rule: 'nothing_moved', reason: / measured, and nothing moved against both baselines/, notCounted: ['rule_defect'],
  },
  {
    name: 'a rule defect beside a real alert: the real one still counts',
    e: withAlerts({
      alerts: [latencyZero, alert()], enteredError: 2, openAtEnd: true, firedAndRecovered: true,
      transitions: [fired('fp-lat', T0, 'CheckoutLatency'), fired('fp-1', T1), resolved('fp-1', T2)],
    }),
    impact: 'significant', rule: 'alert_fired_recovered', reason: /^Checkout API \(component\): an alert fired in the window and recovered\.$/,
    notCounted: ['rule_defect'],
  },
  {
    name: 'at Kubernetes cluster scope a threshold of 0 is by design: counted',
    e: withAlerts({ kind: 'asset', key: 'k8s:prod', label: 'prod cluster', alerts: [alert({ fingerprint: 'fp-lat', latencyThresholdZero: true, clusterScope: true })], enteredError: 1, openAtEnd: true, transitions: [fired('fp-lat', T0)] }),
    impact: 'outage', rule: 'component_error_open', reason: /^prod cluster \(component\) was still in error/,
  },
  {
    name: 'minor: a neighbour moved against both baselines',
    e: evidence({ metrics: [metricsMeasured([red('svc:checkout', 'Checkout API', 'component'), red('svc:payments', 'Payments', 'neighbour', { errorRatio: cmp(0.05, 0.001, 0.001) })])] }),
    impact: 'minor', rule: 'minor', reason: /^Payments \(neighbour\): error ratio 5 % against 0\.1 % the hour before and 0\.1 % a week earlier \(prom-main\): a neighbour moved\.$/,
  },
  {
    name: 'minor: a new error fingerprint in the logs',
    e: evidence({ logs: [logsMeasured([fingerprint('order <n> placed', false), fingerprint('payment <n> refused: card <hex>', true, 9)])] }),
    impact: 'minor', rule: 'minor', reason: /^A new error log message \(loki-eu\), in neither baseline: “payment <n> refused: card <hex>” × 9\.$/,
  },
  {
    name: 'none: measured, nothing moved (one baseline worse is not "every baseline")',
    e: evidence({ metrics: [metricsMeasured([red('svc:checkout', 'Checkout API', 'component', { errorRatio: cmp(0.04, 0.003, 0.03) })])] }),
    impact: 'none', rule: 'nothing_moved', reason: /^RED metrics \(prom-main\) measured, and nothing moved against both baselines \(not measured: alerts: no alert source is configured; logs: no log source\)\.$/,
  },
  {
    name: 'none needs both baselines: a missing week earlier is not a movement',
    e: evidence({ metrics: [metricsMeasured([red('svc:checkout', 'Checkout API', 'component', { errorRatio: cmp(0.04, 0.003, null) })])] }),
    impact: 'none', rule: 'nothing_moved', reason: / measured, and nothing moved against both baselines/,
  },
  {
    name: 'unknown: nothing measured, each part says why',
    e: evidence({ metrics: [{ source: { id: 's', kind: 'prometheus', name: 'prom-main' }, status: 'not_measured', reason: 'connect ECONNREFUSED 127.0.0.1:9' }] }),
    impact: 'unknown', rule: 'nothing_measured',
    reason: /^Nothing was measured \(alerts: no alert source is configured; RED metrics \(prom-main\): connect ECONNREFUSED 127\.0\.0\.1:9; logs: no log source\)\.$/,
  },
  {
    name: 'unknown: a reachable Prometheus with no series for the blast radius measured nothing',
    e: evidence({ metrics: [metricsMeasured([red('svc:checkout', 'Checkout API', 'component', { rate: cmp(null), errorRatio: cmp(null), p95: cmp(null) })])] }),
    impact: 'unknown', rule: 'nothing_measured', reason: /RED metrics \(prom-main\): no series for the services of the blast radius/,
  },
];

describe('judge', () => {
  it.each(cases)('$name', ({ e, impact, rule, reason, notCounted }) => {
    const v = judge(e);
    expect(v.impact).toBe(impact);
    expect(v.rule).toBe(rule);
    expect(v.reason).toMatch(reason);
    expect(v.notCounted.map((n) => n.kind)).toEqual(notCounted ?? []);
    // Names, not keys: no reason, match or caveat prints a catalogue key.
    const words = JSON.stringify([v.reason, v.matched.map((m) => [m.subject, m.text]), v.notCounted.map((n) => [n.subject, n.text])]);
    expect(words).not.toMatch(/svc:|k8s:|fp-/);
  });

  it('the caveats say what they are', () => {
    const v = judge(withAlerts(
      { key: 'svc:a', label: 'Search', preExisting: true, openAtEnd: true },
      { key: 'svc:b', label: 'Basket', enteredError: 3 },
      { key: 'svc:c', label: 'Checkout API', alerts: [latencyZero] },
    ));
    expect(v.notCounted).toEqual([
      { kind: 'pre_existing', subject: 'Search', text: 'Search was already in error when the window started: a caveat, not counted.' },
      { kind: 'flapping', subject: 'Basket', text: 'Basket entered error 3 times in the window: unstable (flapping), not counted as an open error.' },
      { kind: 'rule_defect', subject: 'Checkout API', text: "Checkout API: CheckoutLatency is a latency alarm at threshold 0, which fires on every sample — skipped. Raise the source's latency alarm threshold." },
    ]);
  });

  it('reads its thresholds from the evidence: an organisation that allows 10 min of down has no outage at 7', () => {
    const e = withAlerts({ enteredError: 1, firedAndRecovered: true, downMinutes: 7, transitions: [fired('fp-1', T0), resolved('fp-1', T2)] });
    expect(judge(e).impact).toBe('outage');
    expect(judge({ ...e, thresholds: { ...DEFAULT_THRESHOLDS, downMinutes: 10 } })).toMatchObject({ impact: 'significant', rule: 'alert_fired_recovered' });
    const m = evidence({ metrics: [metricsMeasured([red('svc:checkout', 'Checkout API', 'component', { errorRatio: cmp(0.04, 0.003, 0.004) })])] });
    expect(judge({ ...m, thresholds: { ...DEFAULT_THRESHOLDS, errorRatioPoints: 5 } }).impact).toBe('none');
  });

  it('is deterministic: the same evidence, the same verdict', () => {
    const e = withAlerts({ enteredError: 1, openAtEnd: true, transitions: [fired('fp-1', T5)] });
    expect(judge(structuredClone(e))).toEqual(judge(e));
    expect(judge(emptyEvidence()).impact).toBe('unknown');
  });
});
