import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { packageRoot } from '../../src/platform/paths.js';
import { emptyPostgresDatabase, engineNames } from '../support/engines.js';
import { createOwner, startServer, type ServerProcess } from '../support/spawn-server.js';

// A rolling upgrade: the new release migrates the database while replicas of the previous one
// still serve it. Here the previous release is the code just before the newest migration was
// added (from git history); it serves a database this tree has migrated, and its people, tokens,
// changes and ledger work as before.

const PASSWORD = 'correct horse battery staple';
const OWNER = 'ops@upgrade.test';

function git(...args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: packageRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** The commit before the newest migration was added, or why there is none to test with. */
function previousRelease(): { commit: string } | { missing: string } {
  if (git('rev-parse', '--is-inside-work-tree') !== 'true') return { missing: 'this tree is not a git checkout' };
  if (git('rev-parse', '--is-shallow-repository') === 'true') return { missing: 'this clone is shallow: the previous release is not in its history' };
  const added = git('log', '--diff-filter=A', '--format=%H', '-1', '--', 'migrations/');
  if (!added) return { missing: 'no commit added a migration' };
  const parent = git('rev-parse', '--verify', '--quiet', `${added}^`);
  return parent ? { commit: parent } : { missing: 'the newest migration came with the first commit' };
}

const hasPostgres = engineNames().includes('postgres');
const previous = previousRelease();
if (!hasPostgres) console.warn('no PostgreSQL reachable: the rolling-upgrade test is skipped');
if ('missing' in previous) console.warn(`rolling-upgrade test skipped: ${previous.missing}`);

describe.runIf(hasPostgres && 'commit' in previous)('a rolling upgrade: the previous release serves the migrated schema', () => {
  const tree = mkdtempSync(join(tmpdir(), 'changeledger-previous-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-upgrade-'));
  let pg: { url: string; drop(): Promise<void> };
  let server: ServerProcess | null = null;
  let migrated = 0;

  beforeAll(async () => {
    const commit = (previous as { commit: string }).commit;
    // The previous release's source, beside this tree's installed packages.
    execFileSync('sh', ['-c', `git archive --format=tar "${commit}" | tar -x -C "${tree}"`], { cwd: packageRoot });
    symlinkSync(join(packageRoot, 'node_modules'), join(tree, 'node_modules'), 'dir');
    pg = await emptyPostgresDatabase('upgrade');
    // This release migrates…
    const db = await openDatabase({ engine: 'postgres', url: pg.url });
    try {
      migrated = (await migrate(db)).current;
    } finally {
      await db.close();
    }
    await createOwner(dataDir, OWNER, PASSWORD, ['--database-url', pg.url]);
    // …and the previous one starts on that schema.
    server = await startServer({ dataDir, env: { DATABASE_URL: pg.url }, args: ['--database-url', pg.url], cli: join(tree, 'src', 'cli', 'main.ts') });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await pg?.drop();
    rmSync(tree, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('knows fewer migrations than the database has, and still signs in, issues tokens, registers changes and verifies its ledger', async () => {
    const known = readdirSync(join(tree, 'migrations')).filter((f) => f.endsWith('.sql')).length;
    expect(known).toBeLessThan(migrated);
    expect(existsSync(join(tree, 'migrations', readdirSync(join(packageRoot, 'migrations')).sort().at(-1)!))).toBe(false);
    const s = server!;

    const signedIn = await fetch(`${s.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: OWNER, password: PASSWORD }) });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('cl_session='))!.split(';')[0]!;
    const csrf = ((await signedIn.json()) as { csrfToken: string }).csrfToken;
    const session = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' };

    const made = await fetch(`${s.url}/api/tokens`, { method: 'POST', headers: session, body: JSON.stringify({ name: 'deploy', scopes: ['changes:read', 'changes:write', 'audit:read'] }) });
    expect(made.status).toBe(201);
    const bearer = { authorization: `Bearer ${((await made.json()) as { secret: string }).secret}`, 'content-type': 'application/json' };

    const imported = await fetch(`${s.url}/api/catalog/imports?format=changeledger&source=cmdb`, {
      method: 'POST', headers: { ...session, 'content-type': 'application/yaml' }, body: 'entities:\n  - { key: "svc:web", kind: service, name: web, tier: standard }\n',
    });
    expect(imported.status).toBe(200);
    const change = await fetch(`${s.pipelineUrl}/api/changes`, { method: 'POST', headers: bearer, body: JSON.stringify({ title: 'Deploy web 2.0 during the upgrade', components: [{ query: 'web' }] }) });
    expect(change.status, await change.clone().text()).toBe(201);
    const id = ((await change.json()) as { change: { id: string } }).change.id;
    expect((await fetch(`${s.pipelineUrl}/api/changes/${id}/status`, { headers: bearer })).status).toBe(200);

    const verified = (await (await fetch(`${s.pipelineUrl}/api/audit/verify`, { headers: bearer })).json()) as { ok: boolean; checked: number };
    expect(verified.ok).toBe(true);
    expect(verified.checked).toBeGreaterThan(3);
  }, 120_000);
});
