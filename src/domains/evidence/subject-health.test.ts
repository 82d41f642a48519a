import { describe, expect, it } from 'vitest';
import type { AlertEvidence, AlertRecord, Subject } from '../alerts/index.js';
import { isClusterScope, isDownAlert, isLatencyThresholdZero, subjectHealth } from './subject-health.js';

const window = { start: '2026-03-02T10:00:00.000Z', end: '2026-03-02T11:00:00.000Z' };
const min = (m: number) => new Date(Date.parse(window.start) + m * 60_000).toISOString();

const record = (fingerprint: string, subject: Subject, alertname: string, labels: Record<string, string> = {}, annotations: Record<string, string> = {}): AlertRecord & { outcome: null; inScope: boolean } => ({
  fingerprint, labels: { alertname, ...labels }, annotations, state: 'resolved', startsAt: window.start, endsAt: null, generatorURL: null, orgId: 'org',
  alertname, subject, subjectLabel: `${subject.name ?? 'unmapped'} · ${alertname} · am`, source: 'am', firstSeen: window.start, lastSeen: window.end,
  heldBy: null, outcome: null, inScope: true,
});
const t = (fingerprint: string, state: 'firing' | 'resolved', at: string) => ({ fingerprint, state, at, receivedAt: at, via: 'webhook' as const, heldBy: null });

const checkout: Subject = { kind: 'service', key: 'svc:checkout', name: 'checkout' };
const payments: Subject = { kind: 'service', key: 'svc:payments', name: 'payments' };
const prom: Subject = { kind: 'source', key: 'prom-eu', name: 'prom-eu' };

function evidence(): AlertEvidence {
  const alerts = [
    record('a-down', checkout, 'CheckoutDown'),
    record('a-lat', checkout, 'CheckoutHighLatency', { threshold: '0' }),
    record('b-err', payments, 'PaymentsErrors'),
    record('c-src', prom, 'TargetScrapeFailing'),
  ];
  return {
    change: { id: 'chg_1', displayId: 'CHG-1', title: 'Deploy' }, window: { start: window.start, end: window.end, open: false }, alerts, truncated: false,
    subjects: [
      { subject: checkout, label: 'checkout', inScope: true, preExisting: false, enteredError: 2, flapping: false, fingerprints: ['a-down', 'a-lat'],
        transitions: [t('a-down', 'firing', min(5)), t('a-lat', 'firing', min(6)), t('a-down', 'resolved', min(12)), t('a-lat', 'resolved', min(20))] },
      { subject: payments, label: 'payments', inScope: true, preExisting: true, enteredError: 0, flapping: false, fingerprints: ['b-err'], transitions: [] },
      { subject: prom, label: 'prom-eu', inScope: true, preExisting: false, enteredError: 1, flapping: false, fingerprints: ['c-src'], transitions: [t('c-src', 'firing', min(50))] },
      { subject: { kind: 'unmapped', key: null, name: null }, label: 'x · Y · am', inScope: false, preExisting: false, enteredError: 1, flapping: false, fingerprints: [], transitions: [] },
    ],
    preExisting: [{ subject: payments, label: 'payments', fingerprints: ['b-err'] }],
  };
}

describe('subject health from the alert history', () => {
  it('gives each subject of the scope its role, error entries, open-at-end, longest stretch, down minutes and fired-and-recovered', () => {
    const out = subjectHealth(evidence(), new Set(['svc:checkout']), window);
    expect(out.map((s) => [s.label, s.role, s.preExisting, s.enteredError, s.openAtEnd, s.longestErrorMinutes, s.downMinutes, s.firedAndRecovered])).toEqual([
      ['checkout', 'component', false, 2, false, 15, 7, true],
      ['payments', 'neighbour', true, 0, true, 60, 0, false],
      ['prom-eu (source health)', 'neighbour', false, 1, true, 10, 0, false],
    ]);
    expect(out[0]!.alerts.map((a) => [a.alertname, a.down, a.latencyThresholdZero, a.clusterScope])).toEqual([
      ['CheckoutDown', true, false, false], ['CheckoutHighLatency', false, true, false],
    ]);
  });

  it('decides the flags by the documented rules', () => {
    expect(isDownAlert({ alertname: 'InstanceUnreachable', labels: {} })).toBe(true);
    expect(isDownAlert({ alertname: 'Probe', labels: { health: 'down' } })).toBe(true);
    expect(isDownAlert({ alertname: 'HighErrorRate', labels: {} })).toBe(false);
    expect(isLatencyThresholdZero({ alertname: 'P95Slow', labels: {}, annotations: { threshold: '0.0' } })).toBe(true);
    expect(isLatencyThresholdZero({ alertname: 'P95Slow', labels: { threshold: '0.5' }, annotations: {} })).toBe(false);
    expect(isLatencyThresholdZero({ alertname: 'ErrorsHigh', labels: { threshold: '0' }, annotations: {} })).toBe(false);
    expect(isClusterScope({ labels: { scope: 'cluster' }, subject: checkout })).toBe(true);
    expect(isClusterScope({ labels: {}, subject: { kind: 'asset', key: 'cluster:eu-1', name: 'eu-1' } })).toBe(true);
    expect(isClusterScope({ labels: {}, subject: checkout })).toBe(false);
  });
});
