import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { labelSetFingerprint } from './fingerprint.js';

const ESTATE = `
format: changeledger/catalogue/1
entities:
  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }
  - { key: "svc:search", kind: service, name: search, tier: standard }
`;

type Evidence = {
  change: { displayId: string }; window: { start: string; end: string; open: boolean };
  alerts: Array<{ fingerprint: string; inScope: boolean; outcome: string | null }>;
  subjects: Array<{ label: string; subject: { key: string | null }; inScope: boolean; preExisting: boolean; enteredError: number; flapping: boolean; transitions: Array<{ state: string; at: string }> }>;
  preExisting: Array<{ label: string; fingerprints: string[] }>;
};

describeEachEngine('a change\'s alert evidence', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let reader: string;
  const at = (base: number, minutes: number) => new Date(base + minutes * 60_000).toISOString();
  const send = async (alerts: unknown[]) => {
    const r = await t.main.inject({ method: 'POST', url: '/api/alerts/alertmanager', headers: owner.headers, payload: { version: '4', externalURL: 'http://am:9093', alerts } });
    expect(r.statusCode, r.body).toBe(200);
  };
  const fire = (labels: Record<string, string>, startsAt: string) => ({ status: 'firing', labels, startsAt, endsAt: '0001-01-01T00:00:00Z' });
  const resolve = (labels: Record<string, string>, startsAt: string, endsAt: string) => ({ status: 'resolved', labels, startsAt, endsAt });

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Evidence');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    reader = (await createToken(t, owner, ['alerts:read'], 'verdict')).secret;
  });
  afterAll(async () => t.close());

  it('answers in one call what fired or recovered in the window, per subject, what was in error at its start, and who flapped', async () => {
    const T = t.clock.now().getTime();
    const flappy = { alertname: 'ErrorRate', service: 'checkout' };
    const old = { alertname: 'DiskSlow', service: 'search' };
    const gone = { alertname: 'Gone', service: 'search' };
    // Before the window: one alert fires and stays in error, another fires and recovers.
    await send([fire(old, at(T, -60)), resolve(gone, at(T, -50), at(T, -40))]);

    const reg = await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: 'Deploy checkout', components: [{ key: 'svc:checkout' }] } });
    expect(reg.statusCode, reg.body).toBe(201);
    const change = (reg.json() as { change: { id: string; displayId: string } }).change;
    // Running since T (approvals and the start are the changes domain's, tested there).
    await engine.db().query(`UPDATE changes SET status = 'active', started_at = $2 WHERE id = $1`, [change.id, new Date(T).toISOString()]);

    t.clock.advance(20 * 60_000);
    await send([fire(flappy, at(T, 1))]);
    await send([resolve(flappy, at(T, 1), at(T, 2))]);
    await send([fire(flappy, at(T, 3))]);
    await send([resolve(flappy, at(T, 3), at(T, 4))]);
    await send([fire(flappy, at(T, 5))]);
    await send([fire(flappy, at(T, 5))]); // a re-send: nothing new
    await send([resolve(old, at(T, -60), at(T, 10))]);

    const res = await t.pipeline.inject({ method: 'GET', url: `/api/changes/${change.displayId}/alerts`, headers: { authorization: `Bearer ${reader}` } });
    expect(res.statusCode, res.body).toBe(200);
    const ev = res.json() as Evidence;
    expect(ev.change.displayId).toBe(change.displayId);
    expect(ev.window.open).toBe(true);
    expect(ev.window.end).toBe(t.clock.now().toISOString());

    expect(ev.alerts.map((a) => a.fingerprint).sort()).toEqual([labelSetFingerprint(flappy), labelSetFingerprint(old)].sort());
    const bySubject = Object.fromEntries(ev.subjects.map((s) => [s.label, s]));
    expect(Object.keys(bySubject).sort()).toEqual(['checkout', 'search']);
    expect(bySubject.checkout).toMatchObject({ inScope: true, preExisting: false, enteredError: 3, flapping: true });
    expect(bySubject.checkout!.transitions.map((x) => x.state)).toEqual(['firing', 'resolved', 'firing', 'resolved', 'firing']);
    expect(bySubject.search).toMatchObject({ inScope: false, preExisting: true, enteredError: 0, flapping: false });
    expect(bySubject.search!.transitions.map((x) => `${x.state}@${x.at}`)).toEqual([`resolved@${new Date(at(T, 10)).toISOString()}`]);
    expect(ev.preExisting).toEqual([{ subject: { kind: 'service', key: 'svc:search', name: 'search' }, label: 'search', fingerprints: [labelSetFingerprint(old)] }]);
  });

  it('is 404 for a change of no one, and 403 for a token without alerts:read', async () => {
    expect((await t.main.inject({ method: 'GET', url: '/api/changes/CHG-00000000/alerts', headers: owner.headers })).statusCode).toBe(404);
    const other = (await createToken(t, owner, ['changes:read'], 'no-alerts')).secret;
    expect((await t.pipeline.inject({ method: 'GET', url: '/api/changes/CHG-00000000/alerts', headers: { authorization: `Bearer ${other}` } })).statusCode).toBe(403);
  });
});
