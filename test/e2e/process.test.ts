import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { emptyPostgresDatabase, engineNames } from '../support/engines.js';
import { createOwner, runCli, startServer, type ServerProcess } from '../support/spawn-server.js';

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'ops@example.test';

type Target = { args: string[]; env: Record<string, string>; dataDir: string; cleanup(): Promise<void> };

/** A fresh store for one real-process test: a PGlite directory, or a new PostgreSQL database. */
async function freshTarget(engine: 'pglite' | 'postgres'): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-e2e-'));
  if (engine === 'pglite') return { args: ['--data', dataDir], env: {}, dataDir, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
  const pgdb = await emptyPostgresDatabase('e2e');
  return {
    args: ['--database-url', pgdb.url], env: { DATABASE_URL: pgdb.url }, dataDir,
    cleanup: async () => {
      await pgdb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function signIn(server: ServerProcess): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${server.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cl_session='))!.split(';')[0]!;
  return { cookie, csrf: ((await res.json()) as { csrfToken: string }).csrfToken };
}

for (const engine of engineNames()) {
  describe(`a real server process [${engine}]`, () => {
    const targets: Target[] = [];
    afterAll(async () => {
      for (const t of targets) await t.cleanup();
    });

    it('keeps every write it acknowledged through kill -9, and its chain verifies afterwards', async () => {
      const target = await freshTarget(engine);
      targets.push(target);
      await createOwner(target.dataDir, EMAIL, PASSWORD, engine === 'postgres' ? target.args : []);
      const server = await startServer({ dataDir: target.dataDir, env: target.env, args: engine === 'postgres' ? target.args : [] });
      const acknowledged: string[] = [];
      try {
        const s = await signIn(server);
        for (let i = 0; i < 15; i++) {
          const res = await fetch(`${server.url}/api/tokens`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrf },
            body: JSON.stringify({ name: `deploy-${i}`, scopes: ['audit:read'] }),
          });
          expect(res.status).toBe(201);
          acknowledged.push(((await res.json()) as { token: { id: string } }).token.id);
        }
      } finally {
        await server.kill9();
      }
      const list = await runCli(['tokens', 'list', '--json', ...target.args]);
      expect(list.code, list.stderr).toBe(0);
      const ids = (JSON.parse(list.stdout) as Array<{ id: string }>).map((t) => t.id);
      expect(ids).toEqual(expect.arrayContaining(acknowledged));
      const verify = await runCli(['audit', 'verify', '--json', ...target.args]);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      const events = await runCli(['audit', 'query', '--action', 'token.created', '--limit', '100', '--json', ...target.args]);
      expect((JSON.parse(events.stdout) as unknown[]).length).toBe(15);
      // And it starts again on the same store after the crash.
      const again = await startServer({ dataDir: target.dataDir, env: target.env, args: engine === 'postgres' ? target.args : [] });
      expect(await again.stop()).toBe(0);
    }, 240_000);

    it('keeps every change transition it acknowledged through kill -9, with the callback deliveries each one owes', async () => {
      const target = await freshTarget(engine);
      targets.push(target);
      await createOwner(target.dataDir, EMAIL, PASSWORD, engine === 'postgres' ? target.args : []);
      const server = await startServer({ dataDir: target.dataDir, env: target.env, args: engine === 'postgres' ? target.args : [] });
      /** The last state the server acknowledged per change, and the callbacks that state owes. */
      const acked = new Map<string, { status: string; events: string[] }>();
      let stop = false;
      let lanes: Promise<unknown> = Promise.resolve();
      try {
        const s = await signIn(server);
        const call = (base: string, method: string, path: string, body?: unknown) =>
          fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', cookie: s.cookie, 'x-csrf-token': s.csrf }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
        const me = (await (await call(server.url, 'GET', '/api/session')).json()) as { organization: { id: string } };
        expect((await call(server.url, 'PUT', `/api/organizations/${me.organization.id}/change-settings`, { approvalRequired: 'none', requireBeforeState: 'never' })).status).toBe(200);
        const estate = await fetch(`${server.url}/api/catalog/imports?format=changeledger&source=cmdb`, {
          method: 'POST', headers: { 'content-type': 'application/yaml', cookie: s.cookie, 'x-csrf-token': s.csrf },
          body: 'entities:\n  - { key: "svc:checkout", kind: service, name: checkout, tier: important }\n',
        });
        expect(estate.status, await estate.clone().text()).toBe(200);
        // A private address: the outbound guard refuses it without a connection (private callbacks are
        // not allowed), so each delivery is recorded and attempted, and nothing leaves the machine.
        const callbackUrl = 'https://10.20.30.40/changeledger';
        const failures: string[] = [];
        /** Until the kill every answer must be the expected one; after it, a refused connection ends the lane. */
        const ok = async (res: Response | null, want: number, what: string) => {
          if (res?.status === want) return true;
          if (!stop && res) failures.push(`${what}: ${res.status} ${await res.text()}`);
          return false;
        };
        const pipeline = async (lane: number) => {
          for (let i = 0; !stop; i++) {
            const made = await call(server.url, 'POST', '/api/changes', { title: `kill-9 lane ${lane} #${i}`, kind: 'deploy', components: [{ query: 'checkout' }], callbackUrl }).catch(() => null);
            if (!(await ok(made, 201, 'register'))) return;
            const { id, status } = ((await made!.json()) as { change: { id: string; status: string } }).change;
            acked.set(id, { status, events: [] });
            for (const [step, event] of [['start', 'change.started'], ['complete', 'change.completed']] as const) {
              const res = await call(server.url, 'POST', `/api/changes/${id}/${step}`, {}).catch(() => null);
              if (!(await ok(res, 200, step))) return;
              const status = ((await res!.json()) as { change: { status: string } }).change.status;
              acked.set(id, { status, events: [...acked.get(id)!.events, event] });
            }
          }
        };
        lanes = Promise.all([0, 1, 2].map(pipeline));
        // Killed while the lanes are mid-flight, after a fair number of acknowledged transitions.
        const transitions = () => [...acked.values()].reduce((n, a) => n + a.events.length + 1, 0);
        for (const t0 = Date.now(); transitions() < 24 && failures.length === 0 && Date.now() - t0 < 60_000;) await new Promise((r) => setTimeout(r, 20));
        expect(failures).toEqual([]);
        expect(transitions()).toBeGreaterThanOrEqual(24);
      } finally {
        await server.kill9();
        stop = true;
        await lanes;
      }

      const again = await startServer({ dataDir: target.dataDir, env: target.env, args: engine === 'postgres' ? target.args : [] });
      try {
        const s2 = await signIn(again);
        const read = async (path: string) => (await fetch(`${again.url}${path}`, { headers: { cookie: s2.cookie } })).json();
        for (const [id, want] of acked) {
          const got = (await read(`/api/changes/${id}`)) as { change: { status: string } };
          // A transition in flight at the kill may have committed without its answer arriving. A change
          // registered without approval is scheduled until it starts.
          const rank: Record<string, number> = { scheduled: 0, approved: 0, active: 1, evaluating: 2, reported: 3 };
          expect(rank[want.status], `${id}: registered as ${want.status}`).toBeDefined();
          expect(rank[got.change.status] ?? -1, `${id}: acknowledged ${want.status}, found ${got.change.status}`).toBeGreaterThanOrEqual(rank[want.status]!);
          const deliveries = (await read(`/api/changes/${id}/deliveries`)) as { deliveries: Array<{ event: string; channel: string }> };
          const owed = deliveries.deliveries.filter((d) => d.channel === 'callback').map((d) => d.event);
          expect(owed, id).toEqual(expect.arrayContaining(want.events));
          // Nothing owed twice.
          expect(new Set(owed).size, id).toBe(owed.length);
        }
      } finally {
        expect(await again.stop()).toBe(0);
      }
      const verify = await runCli(['audit', 'verify', '--json', ...target.args]);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    }, 240_000);

    it('shuts down gracefully on SIGTERM: a request in flight is answered, then the process exits 0', async () => {
      const target = await freshTarget(engine);
      targets.push(target);
      await createOwner(target.dataDir, EMAIL, PASSWORD, engine === 'postgres' ? target.args : []);
      const server = await startServer({ dataDir: target.dataDir, env: target.env, args: engine === 'postgres' ? target.args : [] });
      // Headers and half the body go first, so the request is surely in flight when SIGTERM lands.
      const body = JSON.stringify({ email: EMAIL, password: PASSWORD });
      const u = new URL(`${server.url}/api/session`);
      let status = 0;
      const answered = new Promise<void>((resolve, reject) => {
        const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          status = res.statusCode ?? 0;
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.write(body.slice(0, 10));
        setTimeout(() => {
          void server.stop();
          setTimeout(() => req.end(body.slice(10)), 300);
        }, 300);
      });
      await answered;
      const code = await server.stop();
      expect(status).toBe(200);
      expect(code).toBe(0);
      expect(server.stderr()).toMatch(/SIGTERM: finishing requests in flight/);
      if (engine === 'pglite') expect(existsSync(join(target.dataDir, 'changeledger.lock'))).toBe(false);
    }, 300_000);
  });
}

describe('one process per embedded data directory', () => {
  it('migrate or a second server refuses while a server holds the directory, naming it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-lock-'));
    try {
      await createOwner(dataDir, EMAIL, PASSWORD);
      const server = await startServer({ dataDir });
      try {
        // migrate needs the store itself (the other store commands go through the server's admin socket).
        const cli = await runCli(['migrate', '--data', dataDir]);
        expect(cli.code).toBe(3);
        expect(cli.stderr).toContain(`in use by "changeledger serve`);
        expect(cli.stderr).toContain(`pid ${server.pid}`);
        const second = await runCli(['serve', '--data', dataDir, '--port', '0', '--pipeline-port', '0', '--host', '127.0.0.1', '--pipeline-host', '127.0.0.1']);
        expect(second.code).toBe(3);
        expect(second.stderr).toMatch(/only one process may open it/i);
        // The server was not disturbed.
        expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      const after = await runCli(['audit', 'verify', '--data', dataDir]);
      expect(after.code, after.stderr).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('the command line', () => {
  it('sets up without the UI, verifies, digests, names a tampered event and exits 1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-cli-'));
    try {
      await createOwner(dataDir, EMAIL, PASSWORD);
      const bad = await runCli(['users', 'add', '--email', 'x@example.test', '--role', 'king', '--data', dataDir]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--role must be one of owner, admin, member/);
      const tok = await runCli(['tokens', 'create', '--user', EMAIL, '--name', 'gitlab-ci', '--scopes', 'changes:write,audit:read', '--expires', '30d', '--json', '--data', dataDir]);
      expect(tok.code, tok.stderr).toBe(0);
      expect((JSON.parse(tok.stdout) as { secret: string }).secret).toMatch(/^clt_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
      const badScope = await runCli(['tokens', 'create', '--user', EMAIL, '--name', 'x', '--scopes', 'everything', '--data', dataDir]);
      expect(badScope.code).toBe(2);
      expect(badScope.stderr).toMatch(/unknown scope "everything"/);
      const digest = await runCli(['audit', 'digest', '--json', '--data', dataDir]);
      const head = (JSON.parse(digest.stdout) as Array<{ seq: number; hash: string }>)[0]!;
      expect(head.seq).toBeGreaterThanOrEqual(4);
      expect((await runCli(['audit', 'verify', '--data', dataDir])).stdout).toMatch(/intact/);

      const db = await openDatabase({ engine: 'pglite', dataDir, lock: false });
      try {
        await db.exec('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
        await db.query("UPDATE audit_log SET actor_name = 'someone else' WHERE seq = 2");
        await db.exec('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
      } finally {
        await db.close();
      }
      const verify = await runCli(['audit', 'verify', '--json', '--data', dataDir]);
      expect(verify.code).toBe(1);
      expect(JSON.parse(verify.stdout)[0]).toMatchObject({ ok: false, firstBrokenSeq: 2 });
      const human = await runCli(['audit', 'verify', '--data', dataDir]);
      expect(human.stdout).toMatch(/BROKEN at event 2/);
      const query = await runCli(['audit', 'query', '--action', 'token.', '--since', '1h', '--data', dataDir]);
      expect(query.stdout).toMatch(/token\.created\s+token:/);
      const migrate = await runCli(['migrate', '--data', dataDir]);
      expect(migrate.stdout).toMatch(/schema up to date/);
      expect((await runCli(['--help'])).code).toBe(0);
      expect((await runCli(['audit', 'bogus'])).code).toBe(2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('first start on an empty database', () => {
  it('creates the organisation and owner and prints a working one-time link, reissued at each start until a password is set', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-first-'));
    const linkOf = (text: string) => /\/signin\/link#([A-Za-z0-9_-]{43})/.exec(text)?.[1];
    try {
      const first = await startServer({ dataDir, args: ['--org-name', 'Platform team', '--owner-email', 'lead@example.test'] });
      let session: { cookie: string; csrf: string };
      try {
        expect(first.stderr()).toMatch(/first start: created organisation "Platform team" and its owner lead@example\.test/);
        const token = linkOf(first.stderr());
        expect(token).toBeDefined();
        const res = await fetch(`${first.url}/api/session/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ role: 'owner', organization: { name: 'Platform team' }, user: { email: 'lead@example.test', hasPassword: false } });
        const reused = await fetch(`${first.url}/api/session/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
        expect(reused.status).toBe(401);
      } finally {
        expect(await first.stop()).toBe(0);
      }
      const second = await startServer({ dataDir });
      try {
        expect(second.stderr()).toMatch(/no owner has set a password yet; lead@example\.test can sign in once/);
        const token = linkOf(second.stderr())!;
        const res = await fetch(`${second.url}/api/session/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
        const body = (await res.json()) as { csrfToken: string };
        session = { cookie: res.headers.getSetCookie()[0]!.split(';')[0]!, csrf: body.csrfToken };
        const pw = await fetch(`${second.url}/api/me/password`, { method: 'PUT', headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf }, body: JSON.stringify({ newPassword: PASSWORD }) });
        expect(pw.status).toBe(204);
      } finally {
        expect(await second.stop()).toBe(0);
      }
      const third = await startServer({ dataDir });
      try {
        expect(linkOf(third.stderr())).toBeUndefined();
        // What the server wrote by itself at start-up is labelled system; the password, the UI's.
        const audit = await fetch(`${third.url}/api/audit?limit=50`, { headers: { cookie: session.cookie } });
        expect(audit.status).toBe(200);
        const events = ((await audit.json()) as { items: { action: string; source: string; actor: { kind: string } }[] }).items;
        const byServer = events.filter((e) => e.actor.kind === 'system');
        expect(byServer.map((e) => e.action)).toContain('organization.created');
        expect(byServer.map((e) => e.source)).toEqual(byServer.map(() => 'system'));
        expect(events.find((e) => e.action === 'user.password_set')?.source).toBe('ui');
      } finally {
        await third.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('catalogue import from the command line', () => {
  it('imports a file, reports added/changed/stale, changes nothing the second time, and names a broken field', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-catalogue-cli-'));
    try {
      await createOwner(dataDir, EMAIL, PASSWORD);
      const file = join(dataDir, 'estate.yaml');
      writeFileSync(file, 'format: changeledger/catalogue/1\nentities:\n  - { key: "svc:a", kind: service }\n  - { key: "svc:b", kind: service }\nlinks:\n  - { from: "svc:a", to: "svc:b", via: calls }\n');
      const first = await runCli(['catalogue', 'import', file, '--format', 'changeledger', '--source', 'cmdb', '--data', dataDir]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/imported changeledger from source "cmdb"/);
      expect(first.stdout).toMatch(/entities\s+2\s+0\s+0\s+0/);
      const again = await runCli(['catalogue', 'import', file, '--format', 'changeledger', '--source', 'cmdb', '--json', '--data', dataDir]);
      expect(JSON.parse(again.stdout)).toMatchObject({ entities: { added: 0, changed: 0, unchanged: 2, stale: 0 }, links: { unchanged: 1 } });
      writeFileSync(file, 'entities:\n  - { key: "svc:a", kind: spaceship }\n');
      const broken = await runCli(['catalogue', 'import', file, '--format', 'changeledger', '--data', dataDir]);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toMatch(/\(field: entities\.0\.kind\)/);
      expect((await runCli(['catalogue', 'import', file, '--format', 'csv', '--data', dataDir])).code).toBe(2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
