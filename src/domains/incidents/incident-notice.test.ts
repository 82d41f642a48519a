import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatChange, pagerDutySignatureValid, parseGeneric, parsePagerDuty } from './incident-notice.js';

const pd = (over: Record<string, unknown> = {}) => ({
  event: {
    id: '5ac64822', event_type: 'incident.triggered', resource_type: 'incident', occurred_at: '2026-07-22T14:00:00.000Z',
    data: { id: 'PT4KHLK', type: 'incident', html_url: 'https://acme.pagerduty.com/incidents/PT4KHLK', title: 'Checkout errors', created_at: '2026-07-22T14:00:00Z', service: { id: 'PIJ90N7', summary: 'payments', type: 'service_reference' } },
    ...over,
  },
});

describe('incident notices', () => {
  it('reads a PagerDuty v3 incident.triggered event', () => {
    expect(parsePagerDuty(pd())).toEqual({ kind: 'incident', notice: { externalId: 'PT4KHLK', title: 'Checkout errors', services: ['payments'], startedAt: new Date('2026-07-22T14:00:00Z'), url: 'https://acme.pagerduty.com/incidents/PT4KHLK' } });
  });
  it('ignores other PagerDuty event types', () => {
    expect(parsePagerDuty(pd({ event_type: 'incident.acknowledged' }))).toMatchObject({ kind: 'ignored' });
  });
  it('names the missing field of a broken payload', () => {
    expect(parsePagerDuty({})).toMatchObject({ kind: 'invalid', field: 'event' });
    expect(parseGeneric({ title: 'x', services: [], startedAt: '2026-07-22T14:00:00Z' })).toMatchObject({ kind: 'invalid', field: 'services' });
    expect(parseGeneric({ title: 'x', services: ['a'], startedAt: 'yesterday' })).toMatchObject({ kind: 'invalid', field: 'startedAt' });
  });
  it('gives a plain notice without an id a stable id, so a retried post is recognised', () => {
    const a = parseGeneric({ title: 'Checkout down', services: ['payments'], startedAt: '2026-07-22T14:00:00Z' });
    const b = parseGeneric({ title: 'Checkout down', services: ['payments'], startedAt: '2026-07-22T14:00:00.000Z' });
    expect(a.kind === 'incident' && b.kind === 'incident' && a.notice.externalId === b.notice.externalId).toBe(true);
  });
  it('checks the PagerDuty signature over the raw body, accepting any of several', () => {
    const raw = JSON.stringify(pd());
    const sig = createHmac('sha256', 'whsec').update(raw).digest('hex');
    expect(pagerDutySignatureValid(raw, `v1=${sig}`, 'whsec')).toBe(true);
    expect(pagerDutySignatureValid(raw, `v1=deadbeef,v1=${sig}`, 'whsec')).toBe(true);
    expect(pagerDutySignatureValid(raw, `v1=${sig}`, 'other')).toBe(false);
    expect(pagerDutySignatureValid(`${raw} `, `v1=${sig}`, 'whsec')).toBe(false);
    expect(pagerDutySignatureValid(raw, undefined, 'whsec')).toBe(false);
  });
  it('prints one readable line per change', () => {
    const line = formatChange({ ts: '2026-07-22T13:56:00.000Z', actor: 'alice@x.test', flag: 'ops.payments.new-processor', env: 'production', from: false, to: true, reason: 'GA' } as never);
    expect(line).toBe('2026-07-22T13:56:00.000Z alice@x.test ops.payments.new-processor [production]: false->true (GA)');
  });
});
