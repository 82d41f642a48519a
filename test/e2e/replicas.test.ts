import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase, engineNames } from '../support/engines.js';
import { startSmtpCapture, type SmtpCapture } from '../support/smtp-capture.js';
import { createOwner, runCli, startServer, type ServerProcess } from '../support/spawn-server.js';

// Three `changeledger serve` processes on one PostgreSQL, as a team runs them behind a balancer:
// the token's rate and the sign-in throttle are counted once for all three, and what one replica
// writes, the others serve.

const PASSWORD = 'correct horse battery staple';
const OWNER = 'ops@replicas.test';
const APPROVER = 'ann@replicas.test';
const hasPostgres = engineNames().includes('postgres');
if (!hasPostgres) console.warn('no PostgreSQL reachable: the three-replica test is skipped');

type Session = { cookie: string; csrf: string };

async function signIn(server: ServerProcess, email: string, password = PASSWORD): Promise<Response> {
  return fetch(`${server.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
}
async function session(server: ServerProcess, email: string): Promise<Session> {
  const res = await signIn(server, email);
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cl_session='))!.split(';')[0]!;
  return { cookie, csrf: ((await res.json()) as { csrfToken: string }).csrfToken };
}
async function call(server: ServerProcess, s: Session, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe.runIf(hasPostgres)('three server processes on one PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-replicas-'));
  let pg: { url: string; drop(): Promise<void> };
  const replicas: ServerProcess[] = [];
  let owner: Session;
  let orgId: string;

  beforeAll(async () => {
    pg = await emptyPostgresDatabase('replicas');
    const args = ['--database-url', pg.url];
    await createOwner(dataDir, OWNER, PASSWORD, args);
    const added = await runCli(['users', 'add', '--email', APPROVER, '--role', 'member', '--password-stdin', ...args], { input: `${PASSWORD}\n` });
    expect(added.code, added.stderr).toBe(0);
    // Started one after the other: the first migrates, the others find the schema current.
    for (let i = 0; i < 3; i += 1) replicas.push(await startServer({ dataDir, env: { DATABASE_URL: pg.url }, args }));
    owner = await session(replicas[0]!, OWNER);
    orgId = ((await (await call(replicas[0]!, owner, 'GET', '/api/session')).json()) as { organization: { id: string } }).organization.id;
  }, 180_000);
  afterAll(async () => {
    for (const r of replicas) await r.stop();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('a token’s 60 requests a minute are counted once for all three: the 61st, on any replica, is 429', async () => {
    const made = await call(replicas[0]!, owner, 'POST', '/api/tokens', { name: 'busy', scopes: ['audit:read'] });
    expect(made.status).toBe(201);
    const secret = ((await made.json()) as { secret: string }).secret;
    const get = (r: ServerProcess) => fetch(`${r.pipelineUrl}/api/audit?limit=1`, { headers: { authorization: `Bearer ${secret}` } });
    // 20 on each, at once: 60 in all.
    const answers = await Promise.all(replicas.flatMap((r) => Array.from({ length: 20 }, () => get(r))));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 60 }, () => 200));
    for (const r of replicas) {
      const over = await get(r);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await over.json()) as { error: string }).error).toMatch(/^more than 60 requests a minute for this token; retry in \d+ s$/);
    }
  }, 60_000);

  it('what one replica writes, the others serve: a change registered on one, approved on another, is active on the third', async () => {
    // Settings written on replica 1, read on replica 2.
    const ann = (await runCli(['users', 'list', '--json', '--database-url', pg.url])).stdout;
    const annId = (JSON.parse(ann) as Array<{ email: string; id: string }>).find((u) => u.email === APPROVER)!.id;
    expect((await call(replicas[1]!, owner, 'PUT', `/api/organizations/${orgId}/change-settings`, { approvalRequired: 'all', quorum: 1, requireBeforeState: 'never' })).status).toBe(200);
    expect((await call(replicas[1]!, owner, 'PUT', `/api/organizations/${orgId}/change-approvers`, { userIds: [annId] })).status).toBe(200);
    const read = (await (await call(replicas[2]!, owner, 'GET', `/api/organizations/${orgId}/change-settings`)).json()) as { settings: { approvalRequired: string }; approvers: Array<{ userId: string }> };
    expect([read.settings.approvalRequired, read.approvers.map((a) => a.userId)]).toEqual(['all', [annId]]);

    const imported = await fetch(`${replicas[0]!.url}/api/catalog/imports?format=changeledger&source=cmdb`, {
      method: 'POST', headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf, 'content-type': 'application/yaml' },
      body: 'entities:\n  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }\n',
    });
    expect(imported.status).toBe(200);
    const made = await call(replicas[0]!, owner, 'POST', '/api/changes', { title: 'Deploy checkout 7.1', kind: 'deploy', components: [{ query: 'checkout' }], startNow: true });
    expect(made.status, await made.clone().text()).toBe(201);
    const change = ((await made.json()) as { change: { id: string; status: string } }).change;
    expect(change.status).toBe('pending_approval');
    const approver = await session(replicas[1]!, APPROVER);
    const approved = await call(replicas[1]!, approver, 'POST', `/api/changes/${change.id}/approve`, { comment: 'looked at the diff' });
    expect(approved.status, await approved.clone().text()).toBe(200);
    const seen = (await (await call(replicas[2]!, owner, 'GET', `/api/changes/${change.id}`)).json()) as { change: { status: string } };
    expect(seen.change.status).toBe('active');
  }, 60_000);

  // Last: the failures throttle the test's own address as well.
  it('the sign-in throttle is shared: failures on two replicas make the third wait', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12 && !codes.includes(429); i += 1) codes.push((await signIn(replicas[i % 2]!, APPROVER, 'wrong password, certainly')).status);
    expect(codes).toContain(429);
    const third = await signIn(replicas[2]!, APPROVER, 'wrong password, certainly');
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);
});

describe.runIf(hasPostgres)('serve --role: web-only and worker-only processes on one PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-roles-'));
  let pg: { url: string; drop(): Promise<void> };
  let smtp: SmtpCapture;
  const started: ServerProcess[] = [];
  beforeAll(async () => {
    pg = await emptyPostgresDatabase('roles');
    smtp = await startSmtpCapture();
    await createOwner(dataDir, OWNER, PASSWORD, ['--database-url', pg.url]);
  }, 60_000);
  afterAll(async () => {
    for (const s of started) await s.stop();
    await smtp?.close();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
  const start = async (role: string) => {
    const s = await startServer({ dataDir, env: { DATABASE_URL: pg.url }, args: ['--database-url', pg.url, '--role', role, '--smtp-url', smtp.url, '--mail-from', 'changes@roles.dev', '--public-url', 'https://changes.roles.test'] });
    started.push(s);
    return s;
  };

  it('a web process serves and sends nothing; the mail it queued goes out once a worker runs; the worker answers only its probes', async () => {
    const web = await start('web');
    await expect.poll(() => web.stderr(), { timeout: 10_000 }).toContain('--role web: this process runs no timers or outbox jobs');
    const owner = await session(web, OWNER);
    const orgId = ((await (await call(web, owner, 'GET', '/api/session')).json()) as { organization: { id: string } }).organization.id;
    const invited = await call(web, owner, 'POST', `/api/organizations/${orgId}/members`, { email: 'bea@roles.dev', role: 'member' });
    expect(invited.status, await invited.clone().text()).toBe(201);
    // Mailed (not a reserved test domain), but nobody works the outbox: the invitation waits.
    expect(((await invited.json()) as { delivery: string }).delivery).toBe('mail');
    await new Promise((r) => setTimeout(r, 2_500));
    expect(smtp.messages).toEqual([]);

    const worker = await start('worker');
    expect(worker.pipelineUrl).toBe('');
    await expect.poll(() => smtp.messages.length, { timeout: 60_000 }).toBe(1);
    expect(smtp.messages[0]!.envelope.to).toEqual(['bea@roles.dev']);
    expect(smtp.messages[0]!.mail.text).toContain('https://changes.roles.test/signin/link#');
    expect((await fetch(`${worker.url}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${worker.url}/metrics`)).text()).toContain('changeledger_jobs_total{kind="mail.send",outcome="done"} 1');
    const ui = await fetch(`${worker.url}/api/session`);
    expect(ui.status).toBe(404);
    expect(((await ui.json()) as { error: string }).error).toContain('this process is a worker (--role worker)');
  }, 180_000);

  it('refuses --role web on the embedded database, saying why', async () => {
    const r = await runCli(['serve', '--role', 'web', '--data', mkdtempSync(join(tmpdir(), 'changeledger-role-pglite-')), '--port', '0', '--pipeline-port', '0'], { env: { DATABASE_URL: '' } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--role web needs PostgreSQL (--database-url or DATABASE_URL): the embedded database serves one process');
  }, 60_000);
});
