import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { insertHoldSubject } from './alert-store.js';
import { labelSetFingerprint } from './fingerprint.js';

const ESTATE = `
format: changeledger/catalogue/1
entities:
  - { key: "svc:checkout", kind: service, name: Checkout }
  - { key: "svc:payments", kind: service, name: payments }
  - { key: "host:db-1", kind: host, name: db-1 }
sources:
  - { id: "blackbox-checkout", name: "Checkout probes", services: ["svc:checkout"] }
`;

const ZERO = '0001-01-01T00:00:00Z';
type Alert = { status: 'firing' | 'resolved'; labels: Record<string, string>; startsAt: string; endsAt?: string; fingerprint?: string; annotations?: Record<string, string>; generatorURL?: string };
const webhook = (alerts: Alert[]) => ({
  version: '4', groupKey: '{}:{alertname="HighLatency"}', status: alerts[0]?.status ?? 'firing', receiver: 'changeledger',
  groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://am.example:9093', truncatedAlerts: 0, alerts,
});
const firing = (labels: Record<string, string>, startsAt = '2026-03-01T10:00:00Z'): Alert => ({ status: 'firing', labels, startsAt, endsAt: ZERO, generatorURL: 'http://prom.example:9090/graph?g0.expr=up' });

describeEachEngine('alert intake and reads', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let token: string;
  let readOnly: string;
  const db = () => engine.db();
  const count = async (table: string) => Number((await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE org_id = $1`, [owner.org.id])).rows[0]!.n);
  const counts = async () => ({ alerts: await count('alerts'), transitions: await count('alert_transitions'), held: await count('held_alerts'), audit: await count('audit_events') });
  const postMain = (url: string, payload: unknown) => t.main.inject({ method: 'POST', url, headers: owner.headers, payload: payload as object });
  const postPipe = (url: string, payload: unknown, secret = token) => t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${secret}` }, payload: payload as object });
  const get = (url: string) => t.main.inject({ method: 'GET', url, headers: owner.headers });
  const audits = async () => (await db().query<{ data: Record<string, unknown> }>(`SELECT data FROM audit_events WHERE org_id = $1 AND action = 'alerts.received' ORDER BY seq`, [owner.org.id])).rows.map((r) => r.data);
  const register = async (title: string) => {
    const r = await postMain('/api/changes', { title, components: [{ key: 'svc:checkout' }] });
    expect(r.statusCode, r.body).toBe(201);
    return (r.json() as { change: { id: string; displayId: string } }).change;
  };

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Alerts');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    token = (await createToken(t, owner, ['alerts:write'], 'alertmanager')).secret;
    readOnly = (await createToken(t, owner, ['alerts:read'], 'reader')).secret;
  });
  afterAll(async () => t.close());

  it('records a webhook alert with its subject by name, its transition and one audit event; a re-send adds nothing but last_seen', async () => {
    const a = firing({ alertname: 'HighLatency', service: 'checkout', severity: 'page' });
    const first = await postPipe('/api/alerts/alertmanager', webhook([a]));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: 1, transitions: 1, repeats: 0, held: 0, unmapped: 0 });
    const fp = labelSetFingerprint(a.labels);
    const row = (await db().query<{ subject_kind: string; subject_key: string; subject_label: string; state: string; last_seen: Date }>('SELECT * FROM alerts WHERE org_id = $1 AND fingerprint = $2', [owner.org.id, fp])).rows[0]!;
    expect(row).toMatchObject({ subject_kind: 'service', subject_key: 'svc:checkout', subject_label: 'Checkout · HighLatency · am.example:9093', state: 'firing' });
    const [ev] = await audits();
    expect(ev).toMatchObject({ via: 'webhook', received: 1, transitions: 1, firing: 1, resolved: 0, held: 0, unmapped: 0 });

    t.clock.advance(60_000);
    const again = await postPipe('/api/alerts/alertmanager', webhook([a]));
    expect(again.json()).toEqual({ received: 1, transitions: 0, repeats: 1, held: 0, unmapped: 0 });
    expect(await audits()).toHaveLength(1);
    expect(await count('alert_transitions')).toBe(1);
    const later = (await db().query<{ last_seen: Date }>('SELECT last_seen FROM alerts WHERE org_id = $1 AND fingerprint = $2', [owner.org.id, fp])).rows[0]!;
    expect(new Date(later.last_seen).getTime()).toBe(new Date(row.last_seen).getTime() + 60_000);
  });

  it('keeps every firing → resolved transition: a resolution, then a new firing with a new startsAt, each once', async () => {
    const labels = { alertname: 'DiskFull', instance: 'db-1:9100', job: 'node' };
    await postPipe('/api/alerts/alertmanager', webhook([firing(labels, '2026-03-01T11:00:00Z')]));
    await postPipe('/api/alerts/alertmanager', webhook([{ status: 'resolved', labels, startsAt: '2026-03-01T11:00:00Z', endsAt: '2026-03-01T11:05:00Z' }]));
    await postPipe('/api/alerts/alertmanager', webhook([{ status: 'resolved', labels, startsAt: '2026-03-01T11:00:00Z', endsAt: '2026-03-01T11:05:00Z' }]));
    await postPipe('/api/alerts/alertmanager', webhook([firing(labels, '2026-03-01T11:20:00Z')]));
    const fp = labelSetFingerprint(labels);
    const res = await get(`/api/alerts/${fp}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { alert: { state: string; subject: unknown; subjectLabel: string }; transitions: Array<{ state: string; at: string }> };
    expect(body.alert.state).toBe('firing');
    expect(body.alert.subject).toEqual({ kind: 'asset', key: 'host:db-1', name: 'db-1' });
    expect(body.alert.subjectLabel).toBe('db-1 · DiskFull · node');
    expect(body.transitions.map((x) => `${x.state}@${x.at}`)).toEqual(['firing@2026-03-01T11:00:00.000Z', 'resolved@2026-03-01T11:05:00.000Z', 'firing@2026-03-01T11:20:00.000Z']);
  });

  it('holds an alert whose subject is in a live hold (held_by, held_alerts), never one outside it or unmapped', async () => {
    const change = await register('Deploy checkout');
    await insertHoldSubject(db(), owner.org.id, 'service', 'svc:checkout', change.id);
    const inScope = firing({ alertname: 'ErrorRate', service: 'checkout' });
    const outside = firing({ alertname: 'ErrorRate', service: 'payments' });
    const unmapped = firing({ alertname: 'ErrorRate', team: 'nobody-knows' });
    const res = await postMain('/api/alerts/alertmanager', webhook([inScope, outside, unmapped]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ received: 3, transitions: 3, held: 1, unmapped: 1 });
    const held = await db().query<{ fingerprint: string; held_by: string | null }>('SELECT fingerprint, held_by FROM alert_transitions WHERE org_id = $1 AND fingerprint = ANY($2::text[])', [owner.org.id, [inScope, outside, unmapped].map((a) => labelSetFingerprint(a.labels))]);
    const by = Object.fromEntries(held.rows.map((r) => [r.fingerprint, r.held_by]));
    expect(by).toEqual({ [labelSetFingerprint(inScope.labels)]: change.id, [labelSetFingerprint(outside.labels)]: null, [labelSetFingerprint(unmapped.labels)]: null });
    const rows = await db().query<{ fingerprint: string }>('SELECT fingerprint FROM held_alerts WHERE change_id = $1', [change.id]);
    expect(rows.rows.map((r) => r.fingerprint)).toEqual([labelSetFingerprint(inScope.labels)]);
    const ev = (await audits()).at(-1);
    expect(ev).toMatchObject({ held: 1, unmapped: 1, heldBy: [change.displayId] });

    const list = await get(`/api/alerts?change=${change.displayId}`);
    expect((list.json() as { alerts: Array<{ fingerprint: string; heldBy: { displayId: string } | null }> }).alerts).toEqual([
      expect.objectContaining({ fingerprint: labelSetFingerprint(inScope.labels), heldBy: { changeId: change.id, displayId: change.displayId, title: 'Deploy checkout' } }),
    ]);
    const heldOnly = (await get('/api/alerts?held=true')).json() as { alerts: Array<{ fingerprint: string }> };
    expect(heldOnly.alerts.map((a) => a.fingerprint)).toEqual([labelSetFingerprint(inScope.labels)]);
    const unmappedRow = (await get(`/api/alerts/${labelSetFingerprint(unmapped.labels)}`)).json() as { alert: { subject: unknown; subjectLabel: string } };
    expect(unmappedRow.alert).toMatchObject({ subject: { kind: 'unmapped', key: null, name: null }, subjectLabel: 'unmapped · ErrorRate · am.example:9093' });
  });

  it('takes the API v2 list as Prometheus sends it: firing while endsAt is ahead, resolved once past; one row with the webhook\'s alert', async () => {
    const labels = { alertname: 'Probe', job: 'blackbox-checkout', instance: 'https://shop.example' };
    const now = t.clock.now().getTime();
    const ahead = new Date(now + 4 * 60_000).toISOString();
    const r1 = await postPipe('/api/v2/alerts', [{ labels, annotations: { summary: 'down' }, startsAt: '2026-03-01T12:00:00Z', endsAt: ahead, generatorURL: 'http://prom.example:9090/graph' }]);
    expect(r1.statusCode, r1.body).toBe(200);
    const fp = labelSetFingerprint(labels);
    let a = (await get(`/api/alerts/${fp}`)).json() as { alert: { state: string; subject: unknown; subjectLabel: string; source: string } };
    expect(a.alert).toMatchObject({ state: 'firing', subject: { kind: 'source', key: 'blackbox-checkout', name: 'Checkout probes' }, subjectLabel: 'Checkout probes · Probe · Checkout probes', source: 'prom.example:9090' });
    // Prometheus stops re-sending: once endsAt has passed the alert reads as resolved, as Alertmanager has it.
    t.clock.advance(5 * 60_000);
    a = (await get(`/api/alerts/${fp}`)).json() as typeof a;
    expect(a.alert.state).toBe('resolved');
    const resolvedList = (await get('/api/alerts?state=resolved')).json() as { alerts: Array<{ fingerprint: string; state: string }> };
    expect(resolvedList.alerts.find((x) => x.fingerprint === fp)).toMatchObject({ state: 'resolved' });
    expect(((await get('/api/alerts?state=firing')).json() as { alerts: Array<{ fingerprint: string }> }).alerts.map((x) => x.fingerprint)).not.toContain(fp);
    // The same alert through the webhook, with Alertmanager's fingerprint: the same row.
    const wh = await postPipe('/api/alerts/alertmanager', webhook([{ ...firing(labels, '2026-03-01T12:00:00Z'), fingerprint: fp }]));
    expect(wh.json()).toMatchObject({ transitions: 0, repeats: 1 });
    expect(((await get(`/api/alerts/${fp}`)).json() as typeof a).alert.state).toBe('firing');
    const past = new Date(now - 1_000).toISOString();
    await postPipe('/api/v2/alerts', [{ labels, startsAt: '2026-03-01T12:00:00Z', endsAt: past }]);
    a = (await get(`/api/alerts/${fp}`)).json() as typeof a;
    expect(a.alert.state).toBe('resolved');
    expect(Number((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM alerts WHERE org_id = $1 AND fingerprint = $2', [owner.org.id, fp])).rows[0]!.n)).toBe(1);
  });

  it('records one firing however its start is written: nanoseconds from the webhook, milliseconds from the API, and a sender\'s own fingerprint', async () => {
    const labels = { alertname: 'Precise', service: 'checkout' };
    const fp = labelSetFingerprint(labels);
    // Alertmanager's webhook writes the start to the nanosecond, and a router of its own kind may compute another fingerprint.
    const r1 = await postPipe('/api/alerts/alertmanager', webhook([{ ...firing(labels, '2026-03-02T08:00:08.790803653Z'), fingerprint: '0123456789abcdef' }]));
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r1.json()).toMatchObject({ transitions: 1 });
    // Its API v2 (what silence mode's poll reads) writes the same moment to the millisecond.
    const r2 = await postPipe('/api/v2/alerts', [{ labels, startsAt: '2026-03-02T08:00:08.790Z' }]);
    expect(r2.json()).toMatchObject({ transitions: 0, repeats: 1 });
    const history = (await get(`/api/alerts/${fp}`)).json() as { alert: { startsAt: string }; transitions: Array<{ state: string; at: string }> };
    expect(history.transitions.map((x) => [x.state, x.at])).toEqual([['firing', '2026-03-02T08:00:08.790Z']]);
    expect((await get('/api/alerts/0123456789abcdef')).statusCode).toBe(404);
  });

  it('records what a silence held (recordHeld): via silence, held by the change whose scope has it, audited as the hold\'s poll', async () => {
    const change = await register('Config checkout');
    await insertHoldSubject(db(), owner.org.id, 'service', 'svc:checkout', change.id);
    const labels = { alertname: 'Saturation', service: 'checkout' };
    const incoming = [{ fingerprint: labelSetFingerprint(labels), labels, annotations: {}, state: 'firing' as const, startsAt: '2026-03-01T13:00:00Z', endsAt: null, generatorURL: null }];
    const r = await t.services.alerts.recordHeld(null, owner.org.id, 'silence', incoming, 'am-1.example:9093');
    expect(r).toMatchObject({ received: 1, transitions: 1, held: 1 });
    const row = (await db().query<{ via: string; held_by: string }>('SELECT via, held_by FROM alert_transitions WHERE org_id = $1 AND fingerprint = $2', [owner.org.id, incoming[0]!.fingerprint])).rows;
    expect(row).toEqual([{ via: 'silence', held_by: expect.any(String) }]);
    const holders = (await db().query<{ change_id: string }>('SELECT change_id FROM held_alerts WHERE fingerprint = $1 ORDER BY change_id', [incoming[0]!.fingerprint])).rows.map((x) => x.change_id);
    expect(holders).toContain(change.id);
    const ev = (await db().query<{ actor_name: string; source: string }>(`SELECT actor_name, source FROM audit_events WHERE org_id = $1 AND action = 'alerts.received' ORDER BY seq DESC LIMIT 1`, [owner.org.id])).rows[0];
    expect(ev).toEqual({ actor_name: 'changeledger alert holds', source: 'scheduler' });
    // The poll sees the same alert again: nothing new.
    expect(await t.services.alerts.recordHeld(null, owner.org.id, 'silence', incoming, 'am-1.example:9093')).toMatchObject({ transitions: 0, repeats: 1 });
  });

  describe('bad input', () => {
    it.each([
      ['a webhook of another version', '/api/alerts/alertmanager', { ...webhook([]), version: '3' }, 'version', /^Version must be "4"/],
      ['an alert without labels', '/api/alerts/alertmanager', webhook([{ status: 'firing', labels: {}, startsAt: '2026-03-01T10:00:00Z' }]), 'alerts.0.labels', /^Alert 1 › Labels must have at least 1 label/],
      ['a start that is no time', '/api/alerts/alertmanager', webhook([{ status: 'firing', labels: { a: 'b' }, startsAt: 'yesterday' }]), 'alerts.0.startsAt', /^Alert 1 › Starts at must be a date and time/],
      ['a resolution without its end', '/api/alerts/alertmanager', webhook([{ status: 'resolved', labels: { a: 'b' }, startsAt: '2026-03-01T10:00:00Z', endsAt: ZERO }]), 'alerts.0.endsAt', /^Alert 1 › Ends at is required for a resolved alert/],
      ['a label value with a NUL in it', '/api/v2/alerts', [{ labels: { alertname: 'x', job: 'a\u0000b' } }], '0.labels.job', /^Alert 1 › Labels › Job must not contain the NUL character/],
      ['no alerts list', '/api/alerts/alertmanager', { version: '4' }, 'alerts', /^Alerts is required/],
      ['an API v2 body that is not a list', '/api/v2/alerts', { labels: { a: 'b' } }, undefined, /must be a list/],
      ['an API v2 label value that is a number', '/api/v2/alerts', [{ labels: { a: 1 } }], '0.labels.a', /must be text/],
    ])('%s: 400 naming the field, nothing stored', async (_what, url, body, field, message) => {
      const before = await counts();
      const res = await postPipe(url, body);
      expect(res.statusCode, res.body).toBe(400);
      const b = res.json() as { error: string; field?: string };
      expect(b.error).toMatch(message);
      if (field !== undefined) expect(b.field).toBe(field);
      expect(await counts()).toEqual(before);
    });

    it('takes up to 1 MiB on the pipeline listener (its other routes stop at 64 KiB) and refuses more with 413 stating the limit, on both listeners', async () => {
      const many = Array.from({ length: 400 }, (_, i) => firing({ alertname: 'Big', service: 'payments', n: String(i), pad: 'x'.repeat(200) }));
      const big = await postPipe('/api/alerts/alertmanager', webhook(many));
      expect(big.statusCode, big.body).toBe(200);
      expect(JSON.stringify(webhook(many)).length).toBeGreaterThan(64 * 1024);
      const before = await counts();
      const huge = webhook([firing({ alertname: 'Huge', pad: 'x'.repeat(1024 * 1024) })]);
      for (const res of [await postPipe('/api/alerts/alertmanager', huge), await postMain('/api/alerts/alertmanager', huge), await postPipe('/api/v2/alerts', [huge.alerts[0]])]) {
        expect(res.statusCode, res.body).toBe(413);
        expect((res.json() as { error: string }).error).toBe('request body is over 1 MiB');
      }
      expect(await counts()).toEqual(before);
    });

    it('gives intake its own rate per token: past the change API\'s 60 a minute up to 1,200, and without eating that token\'s change-API minute', async () => {
      const both = (await createToken(t, owner, ['alerts:write', 'changes:read'], 'prometheus')).secret;
      const statuses: number[] = [];
      for (let i = 0; i < 1_200; i++) statuses.push((await postPipe('/api/v2/alerts', [], both)).statusCode);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      const over = await postPipe('/api/v2/alerts', [], both);
      expect(over.statusCode).toBe(429);
      expect((over.json() as { error: string }).error).toMatch(/^More than 1200 requests a minute for this token; retry in \d+ s$/i);
      expect(over.headers['retry-after']).toBeDefined();
      const changes = await t.pipeline.inject({ method: 'GET', url: '/api/changes', headers: { authorization: `Bearer ${both}` } });
      expect(changes.statusCode, changes.body).toBe(200);
    }, 180_000);

    it('refuses a token without alerts:write (403) and any call without a token (401)', async () => {
      const before = await counts();
      expect((await postPipe('/api/alerts/alertmanager', webhook([firing({ a: 'b' })]), readOnly)).statusCode).toBe(403);
      expect((await t.pipeline.inject({ method: 'POST', url: '/api/v2/alerts', payload: [] })).statusCode).toBe(401);
      expect(await counts()).toEqual(before);
      const read = await t.pipeline.inject({ method: 'GET', url: '/api/alerts', headers: { authorization: `Bearer ${readOnly}` } });
      expect(read.statusCode, read.body).toBe(200);
    });

    it('refuses an unreadable filter with 400 naming it', async () => {
      const res = await get('/api/alerts?since=soon');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: 'since' });
      const bad = await get('/api/alerts?change=CHG-NOPE0000');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ field: 'change' });
    });
  });
});
