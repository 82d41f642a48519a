import { existsSync, lstatSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase, engineNames } from '../support/engines.js';
import { createOwner, runCli, startServer, type ServerProcess } from '../support/spawn-server.js';

const EMAIL = 'owner@example.test';
const PASSWORD = 'correct horse battery staple';
const SOCKET = 'changeledger.sock';
type AuditItem = { action: string; actor: { kind: string; name: string }; source: string; data: Record<string, unknown> };

async function storeArgs(engine: 'pglite' | 'postgres'): Promise<{ args: string[]; drop: () => Promise<void> }> {
  if (engine === 'pglite') return { args: [], drop: async () => undefined };
  const pgdb = await emptyPostgresDatabase('cli_beside');
  return { args: ['--database-url', pgdb.url], drop: pgdb.drop };
}

async function getJson<T>(url: string, token: string): Promise<{ status: number; body: T }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as T };
}

for (const engine of engineNames()) describe(`the store commands beside a running server [${engine}]`, { timeout: 180_000 }, () => {
  let dataDir: string;
  let store: { args: string[]; drop: () => Promise<void> } | undefined;
  let server: ServerProcess | undefined;
  let token: string;
  const cli = (args: string[], opts: { input?: string; env?: Record<string, string> } = {}) => runCli([...args, '--data', dataDir, ...store!.args], opts);
  // With the embedded store the server does the work for the operator; on PostgreSQL the CLI writes itself.
  const operator = engine === 'pglite' ? /^cli:\S+@\S+ \(via the local admin socket\)$/ : /^cli:\S+@\S+$/;
  const audit = async (action: string) => (await getJson<{ items: AuditItem[] }>(`${server!.pipelineUrl}/api/audit?action=${action}`, token)).body.items;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'changeledger-beside-'));
    store = await storeArgs(engine);
    await createOwner(dataDir, EMAIL, PASSWORD, store.args);
    server = await startServer({ dataDir, args: store.args });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await store?.drop();
  });

  it('users add and tokens create work while the server runs: the new member signs in, the token reads the ledger, which names the operator', async () => {
    const added = await cli(['users', 'add', '--email', 'second@example.test', '--role', 'admin', '--password-stdin'], { input: `${PASSWORD}\n` });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe('added second@example.test to My organisation as admin\n');
    const signIn = await fetch(`${server!.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'second@example.test', password: PASSWORD }) });
    expect(signIn.status).toBe(200);

    const created = await cli(['tokens', 'create', '--user', EMAIL, '--name', 'beside', '--scopes', 'audit:read,catalogue:read,catalogue:write,flags:read,flags:write', '--json']);
    expect(created.code, created.stderr).toBe(0);
    token = (JSON.parse(created.stdout) as { secret: string }).secret;

    const [membership] = await audit('membership.added');
    expect(membership).toMatchObject({ source: 'cli', actor: { kind: 'system' }, data: { email: 'second@example.test', role: 'admin' } });
    expect(membership!.actor.name).toMatch(operator);
    const [tokenEvent] = await audit('token.created');
    expect(tokenEvent).toMatchObject({ source: 'cli', data: { name: 'beside', owner: EMAIL } });
    expect(tokenEvent!.actor.name).toMatch(operator);
  });

  it('audit query and audit verify read the ledger while the server runs', async () => {
    const q = await cli(['audit', 'query', '--action', 'token.created', '--json']);
    expect(q.code, q.stderr).toBe(0);
    const items = JSON.parse(q.stdout) as AuditItem[];
    expect(items.map((e) => e.data.name)).toEqual(['beside']);
    expect(items[0]!.actor.name).toMatch(operator);
    const v = await cli(['audit', 'verify']);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toMatch(/^my-organisation: intact, \d+ events/);
  });

  it('catalogue import while the server runs: the server serves the imported entities, and the ledger names the operator', async () => {
    const file = join(dataDir, 'estate.yaml');
    writeFileSync(file, 'format: changeledger/catalogue/1\nentities:\n  - { key: "svc:beside-a", kind: service }\n  - { key: "svc:beside-b", kind: service }\nlinks:\n  - { from: "svc:beside-a", to: "svc:beside-b", via: calls }\n');
    const r = await cli(['catalogue', 'import', file, '--format', 'changeledger', '--source', 'beside']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/entities\s+2\s+0\s+0\s+0/);
    expect((await getJson(`${server!.pipelineUrl}/api/catalog/inventory/${encodeURIComponent('svc:beside-a')}`, token)).status).toBe(200);
    const [ev] = await audit('catalogue.imported');
    expect(ev!.source).toBe('cli');
    expect(ev!.actor.name).toMatch(operator);
  });

  it('flagctl works with a token made while the server runs', async () => {
    const env = { CHANGELEDGER_URL: server!.pipelineUrl, CHANGELEDGER_TOKEN: token };
    const r = await runCli(['flags', 'create', 'ops.beside.switch', '--type', 'boolean', '--risk', 'low'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect((await getJson(`${server!.pipelineUrl}/api/flags/ops.beside.switch`, token)).status).toBe(200);
  });

  it('a bad e-mail or role exits 2 naming the option, and nothing is written', async () => {
    const before = (await getJson<{ items: unknown[] }>(`${server!.pipelineUrl}/api/audit?limit=500`, token)).body.items.length;
    const email = await cli(['users', 'add', '--email', 'not-an-address', '--role', 'admin']);
    expect(email.code).toBe(2);
    expect(email.stderr).toBe('changeledger: --email must be an e-mail address such as ops@example.com, not "not-an-address" (field: email)\n');
    const role = await cli(['users', 'add', '--email', 'third@example.test', '--role', 'boss']);
    expect(role.code).toBe(2);
    expect(role.stderr).toMatch(/--role must be one of owner, admin, member/);
    expect((await getJson<{ items: unknown[] }>(`${server!.pipelineUrl}/api/audit?limit=500`, token)).body.items.length).toBe(before);
  });

  it('importing a missing file exits 2 with a sentence naming the file', async () => {
    const missing = join(dataDir, 'no-such-estate.yaml');
    const r = await cli(['catalogue', 'import', missing, '--format', 'changeledger']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`changeledger: there is no file ${missing}\n`);
  });

  if (engine === 'pglite') {
    it('the admin socket is a socket of mode 0600 in the data directory', () => {
      const st = lstatSync(join(dataDir, SOCKET));
      expect(st.isSocket()).toBe(true);
      expect((st.mode & 0o777).toString(8)).toBe('600');
    });

    it('a server without the socket (older than the CLI) gets the lock message, exit 3', async () => {
      const path = join(dataDir, SOCKET);
      renameSync(path, `${path}.away`);
      try {
        const r = await cli(['audit', 'verify']);
        expect(r.code).toBe(3);
        expect(r.stderr).toContain(`in use by "changeledger serve`);
      } finally {
        renameSync(`${path}.away`, path);
      }
      expect((await cli(['audit', 'verify'])).code).toBe(0);
    });
  } else {
    it('on PostgreSQL the server opens no socket', () => {
      expect(existsSync(join(dataDir, SOCKET))).toBe(false);
    });
  }
});

describe('arguments are judged before anything opens', { timeout: 60_000 }, () => {
  it.each([
    ['a bad e-mail', ['users', 'add', '--email', 'bob@', '--role', 'owner'], /--email must be an e-mail address/],
    ['an unknown role', ['users', 'add', '--email', 'bob@example.test', '--role', 'boss'], /--role must be one of/],
    ['an unknown scope', ['tokens', 'create', '--user', 'bob@example.test', '--name', 'x', '--scopes', 'flags:fly'], /unknown scope "flags:fly"/],
    ['a missing file', ['catalogue', 'import', '/nonexistent/estate.yaml', '--format', 'changeledger'], /^changeledger: there is no file \/nonexistent\/estate\.yaml\n$/],
  ])('%s: exit 2, and the data directory is never created', async (_what, args, message) => {
    const parent = mkdtempSync(join(tmpdir(), 'changeledger-untouched-'));
    const dataDir = join(parent, 'data');
    try {
      const r = await runCli([...args, '--data', dataDir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('the admin socket across a crash and a restart', () => {
  it('kill -9 leaves a stale socket; the CLI then opens the store itself, the next server replaces the socket and removes it on stop', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-stale-'));
    const path = join(dataDir, SOCKET);
    try {
      await createOwner(dataDir, EMAIL, PASSWORD);
      const first = await startServer({ dataDir });
      await first.kill9();
      expect(lstatSync(path).isSocket()).toBe(true);
      const offline = await runCli(['users', 'list', '--data', dataDir]);
      expect(offline.code, offline.stderr).toBe(0);
      expect(offline.stdout).toContain(EMAIL);

      const second = await startServer({ dataDir });
      try {
        expect((lstatSync(path).mode & 0o777).toString(8)).toBe('600');
        const added = await runCli(['users', 'add', '--email', 'later@example.test', '--role', 'member', '--data', dataDir]);
        expect(added.code, added.stderr).toBe(0);
        // Streamed over the socket: one JSON line per event, newest first.
        const exported = await runCli(['audit', 'export', '--action', 'membership.added', '--data', dataDir]);
        expect(exported.code, exported.stderr).toBe(0);
        // The last line is the export's trailer, which names the head the events lead to.
        const lines = exported.stdout.trim().split('\n').map((l) => JSON.parse(l) as AuditItem & { trailer?: { complete: boolean } });
        expect(lines.pop()?.trailer?.complete).toBe(false);
        expect(lines.map((l) => l.data.email)).toEqual(['later@example.test', EMAIL]);
      } finally {
        expect(await second.stop()).toBe(0);
      }
      expect(existsSync(path)).toBe(false);
      // Without a server the commands open the store as before, and see what the server wrote.
      const q = await runCli(['audit', 'query', '--action', 'membership.added', '--json', '--data', dataDir]);
      expect(q.code, q.stderr).toBe(0);
      expect((JSON.parse(q.stdout) as AuditItem[]).map((e) => [e.data.email, e.actor.name.endsWith('(via the local admin socket)')])).toEqual([
        ['later@example.test', true],
        [EMAIL, false],
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 420_000);
});
