import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../test/support/test-app.js';
import { listenerUrl } from '../platform/http/listener-routes.js';
import { alertRow } from './alerts.js';
import type { Io } from './common.js';
import { main } from './main.js';

const ESTATE = `
entities:
  - { key: "svc:checkout", kind: service, name: checkout }
  - { key: "svc:search", kind: service, name: search }
`;

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = { out: (s) => void (stdout += s), err: (s) => void (stderr += s), stdin: async () => '' };
  const code = await main(argv, { io });
  return { code, stdout, stderr };
}

describe('alerts list: one row', () => {
  it('prints the subject by name and the holding change by CHG- id and title', () => {
    const base = {
      orgId: 'org_1', fingerprint: '0123456789abcdef', alertname: 'Down', labels: {}, annotations: {}, state: 'firing' as const, startsAt: '', endsAt: null, generatorURL: null,
      subject: { kind: 'service' as const, key: 'svc:checkout', name: 'checkout' }, subjectLabel: 'checkout · Down · api', source: 'am', firstSeen: '', lastSeen: '2026-03-01T10:00:00.000Z',
    };
    expect(alertRow({ ...base, heldBy: { changeId: 'chg_1', displayId: 'CHG-00000001', title: 'Deploy' } })).toEqual(['2026-03-01T10:00:00Z', 'firing', 'checkout · Down · api', 'held · CHG-00000001 "Deploy"', '0123456789abcdef']);
    expect(alertRow({ ...base, heldBy: null })[3]).toBe('-');
  });
});

describeEachEngine('changeledger alerts list, against a running pipeline listener', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let url: string;
  let reader: string;
  let change: { id: string; displayId: string };

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Cli');
    await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    await t.pipeline.listen({ port: 0, host: '127.0.0.1' });
    url = listenerUrl(t.pipeline, '127.0.0.1')!;
    reader = (await createToken(t, owner, ['alerts:read'], 'cli')).secret;
    const reg = await t.main.inject({ method: 'POST', url: '/api/changes', headers: owner.headers, payload: { title: 'Deploy checkout', components: [{ key: 'svc:checkout' }] } });
    change = (reg.json() as { change: { id: string; displayId: string } }).change;
    await engine.db().query('INSERT INTO hold_subjects (org_id, subject_kind, subject_key, change_id) VALUES ($1, $2, $3, $4)', [owner.org.id, 'service', 'svc:checkout', change.id]);
    const now = t.clock.now().getTime();
    const old = new Date(now - 3 * 3600_000).toISOString();
    // search fired three hours ago (last seen then); checkout fires now, inside the hold.
    t.clock.advance(-3 * 3600_000);
    await t.main.inject({ method: 'POST', url: '/api/alerts/alertmanager', headers: owner.headers, payload: { version: '4', alerts: [{ status: 'firing', labels: { alertname: 'Slow', service: 'search' }, startsAt: old }] } });
    t.clock.advance(3 * 3600_000);
    await t.main.inject({ method: 'POST', url: '/api/alerts/alertmanager', headers: owner.headers, payload: { version: '4', externalURL: 'http://am:9093', alerts: [{ status: 'firing', labels: { alertname: 'ErrorRate', service: 'checkout', job: 'api' }, startsAt: new Date(now).toISOString() }] } });
  });
  afterAll(async () => t.close());

  const args = (...rest: string[]) => ['alerts', 'list', '--server', url, '--token', reader, ...rest];

  it('prints a table of subjects by name, last seen first; --since narrows it; exit 0', async () => {
    const r = await cli(args());
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^LAST SEEN\s+STATE\s+SUBJECT\s+HELD\s+FINGERPRINT$/);
    expect(lines[1]).toMatch(new RegExp(`firing\\s+checkout · ErrorRate · api\\s+held · ${change.displayId} "Deploy checkout"`));
    expect(lines[2]).toMatch(/firing\s+search · Slow · alertmanager\s+-\s/);
    const recent = await cli(args('--since', '1h'));
    expect(recent.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('--held and --change keep what the hold held; --json prints the answer', async () => {
    const held = await cli(args('--held', '--json'));
    expect(held.code).toBe(0);
    const body = JSON.parse(held.stdout) as { alerts: Array<{ subjectLabel: string; heldBy: { displayId: string } }> };
    expect(body.alerts.map((a) => [a.subjectLabel, a.heldBy.displayId])).toEqual([['checkout · ErrorRate · api', change.displayId]]);
    const byChange = await cli(args('--change', change.displayId));
    expect(byChange.stdout).toContain('checkout · ErrorRate · api');
    expect(byChange.stdout).not.toContain('search');
    const none = await cli(args('--state', 'resolved'));
    expect(none).toMatchObject({ code: 0, stdout: '', stderr: 'no alerts match\n' });
  });

  it('exits 2 on a bad option or an unknown change (naming it), 2 without a token, 3 when the server cannot be reached', async () => {
    const since = await cli(args('--since', 'soon'));
    expect(since).toMatchObject({ code: 2, stdout: '' });
    expect(since.stderr).toMatch(/--since must be a duration/);
    const unknown = await cli(args('--change', 'CHG-00000000'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Change \(?.*is not a change of this organisation.*(option --change)/);
    const noToken = await cli(['alerts', 'list', '--server', url]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/no API token.*--scopes alerts:read/);
    const down = await cli(['alerts', 'list', '--server', 'http://127.0.0.1:9', '--token', reader]);
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/cannot reach the changeledger server/);
    const help = await cli(['alerts', 'list', '--help']);
    expect(help.stdout).toMatch(/--since <when>[\s\S]*--held[\s\S]*--change <id>[\s\S]*--json/);
  });
});
