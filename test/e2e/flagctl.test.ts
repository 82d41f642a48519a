import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase, engineNames } from '../support/engines.js';
import { main } from '../../src/cli/main.js';
import { createOwner, runCli, startServer, type ServerProcess } from '../support/spawn-server.js';

const EMAIL = 'ops@example.test';
const PASSWORD = 'correct horse battery staple';
const JQ = '/usr/bin/jq';
// The filter of the incident how-to, character for character.
const JQ_FILTER = '.[] | "\\(.ts) \\(.actor) \\(.flag): \\(.from)->\\(.to) (\\(.reason))"';

type Rec = { ts: string; actor: string; flag: string; env: string | null; from: unknown; to: unknown; reason: string; change: string; source: string; correlationId: string | null; definition: unknown };

/** How jq's string interpolation shows a value: strings as they are, anything else as compact JSON. */
const jqText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

async function createToken(dataDir: string, name: string, scopes: string, store: string[]): Promise<string> {
  const r = await runCli(['tokens', 'create', '--user', EMAIL, '--name', name, '--scopes', scopes, '--json', '--data', dataDir, ...store]);
  if (r.code !== 0) throw new Error(`tokens create failed (${r.code}): ${r.stderr}`);
  return (JSON.parse(r.stdout) as { secret: string }).secret;
}

/** A loopback port nothing listens on: bound, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

// Each step spawns a CLI process (≈ 1–2 s through tsx); a loaded machine needs more than the default.
/** A fresh PostgreSQL database for the server process, or nothing extra for the embedded one. */
async function storeArgs(engine: 'pglite' | 'postgres'): Promise<{ args: string[]; drop: () => Promise<void> }> {
  if (engine === 'pglite') return { args: [], drop: async () => undefined };
  const pgdb = await emptyPostgresDatabase('flagctl');
  return { args: ['--database-url', pgdb.url], drop: pgdb.drop };
}

for (const engine of engineNames()) describe(`flagctl: the flags command line against a real server process [${engine}]`, { timeout: 120_000 }, () => {
  let dataDir: string;
  let store: { args: string[]; drop: () => Promise<void> } | undefined;
  let server: ServerProcess | undefined;
  let secret: string;
  let readOnly: string;
  let auditor: string;
  let env: Record<string, string>;
  const flags = (args: string[], extra: Record<string, string> = {}) => runCli(['flags', ...args], { env: { ...env, ...extra } });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'changeledger-flagctl-'));
    store = await storeArgs(engine);
    await createOwner(dataDir, EMAIL, PASSWORD, store.args);
    server = await startServer({ dataDir, args: store.args });
    // Tokens are made while the server runs (with the embedded store, through its admin socket).
    secret = await createToken(dataDir, 'flagctl-e2e', 'flags:read,flags:write', store.args);
    readOnly = await createToken(dataDir, 'flagctl-reader', 'flags:read', store.args);
    auditor = await createToken(dataDir, 'ledger-reader', 'audit:read', store.args);
    env = { CHANGELEDGER_URL: server.pipelineUrl, CHANGELEDGER_TOKEN: secret };
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await store?.drop();
  });

  it('creates flags and sets them with reasons, printing from -> to and the record', async () => {
    const hi = await flags(['create', 'ops.payments.new-processor', '--type', 'boolean', '--risk', 'high', '--owner', 'payments', '--tag', 'payments', '--reason', 'PAY-12 introduce the new processor']);
    expect(hi.code, hi.stderr).toBe(0);
    expect(hi.stdout).toBe('created ops.payments.new-processor (boolean, high risk), off in production, staging\n');
    const lo = await flags(['create', 'ops.payments.retry', '--type', 'boolean', '--risk', 'low', '--json']);
    expect(lo.code, lo.stderr).toBe(0);
    expect(JSON.parse(lo.stdout)).toMatchObject({ key: 'ops.payments.retry', risk: 'low', ownerService: null });

    const on = await flags(['set', 'ops.payments.new-processor', '--env', 'production', '--on', '--reason', 'INC-4411 switch to the new processor']);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toMatch(/^ops\.payments\.new-processor \[production\]: false -> true \(recorded #\d+\)\n$/);
    const retry = await flags(['set', 'ops.payments.retry', '--env', 'production', '--on', '--reason', 'retry failed captures']);
    expect(retry.code, retry.stderr).toBe(0);
    const again = await flags(['set', 'ops.payments.retry', '--env', 'production', '--on', '--reason', 'make sure']);
    expect(again.stdout).toMatch(/^ops\.payments\.retry \[production\]: unchanged, still true \(recorded #\d+\)\n$/);
    const rollout = await flags(['set', 'ops.payments.retry', '--env', 'staging', '--rollout', '25', '--bucket-by', 'userId', '--reason', 'try on a quarter']);
    expect(rollout.code, rollout.stderr).toBe(0);
    expect(rollout.stdout).toContain('-> {"rollout":{"percentage":25,"bucketBy":"userId"}}');

    const list = await flags(['list', '--namespace', 'ops.payments.*']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^KEY\s+TYPE\s+RISK\s+OWNER\s+PRODUCTION\s+STAGING$/);
    expect(list.stdout).toMatch(/ops\.payments\.new-processor\s+boolean\s+high\s+payments\s+on\s+off/);
    expect(list.stdout).toMatch(/ops\.payments\.retry\s+boolean\s+low\s+-\s+on\s+off/);
  });

  it('refuses "." as the reason for a high-risk flag with exit 2, naming the field, and changes nothing', async () => {
    const r = await flags(['set', 'ops.payments.new-processor', '--env', 'staging', '--on', '--reason', '.']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/too thin for a high-risk flag.*\(field: reason\)/);
    const got = await flags(['get', 'ops.payments.new-processor', '--json']);
    expect((JSON.parse(got.stdout) as { states: Array<{ env: string; enabled: boolean }> }).states.find((s) => s.env === 'staging')?.enabled).toBe(false);
  });

  it('the kill switch turns a namespace off: one line per flag, one shared correlation id', async () => {
    const r = await flags(['kill', 'ops.payments.*', '--env', 'production', '--reason', 'INC-4412 payment errors climbing']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ops\.payments\.new-processor \[production\]: changed true -> false, recorded #\d+; correlation (\S+)$/);
    expect(lines[1]).toMatch(/^ops\.payments\.retry \[production\]: changed true -> false, recorded #\d+; correlation (\S+)$/);
    const ids = lines.map((l) => /correlation (\S+)$/.exec(l)![1]);
    expect(ids[0]).toBe(ids[1]);
    expect(r.stderr).toContain(`2 turned off, 0 already off; correlation id ${ids[0]}`);
  });

  it('audit query --json is an array of change records that the how-to\'s jq line turns into one line per change', async () => {
    const r = await flags(['audit', 'query', '--namespace', 'ops.payments.*', '--since', '1h', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as Rec[];
    expect(Array.isArray(records)).toBe(true);
    // two creations, three sets (one unchanged), one rollout, two kill-switch records; the refused "." wrote nothing
    expect(records).toHaveLength(8);
    expect(records.every((x) => x.actor === `token "flagctl-e2e" of ${EMAIL}` && x.source === 'cli')).toBe(true);
    expect(records.some((x) => x.reason === '.')).toBe(false);
    const killed = records.filter((x) => x.reason === 'INC-4412 payment errors climbing');
    expect(killed.map((x) => [x.flag, x.from, x.to])).toEqual([['ops.payments.retry', true, false], ['ops.payments.new-processor', true, false]]);
    expect(new Set(killed.map((x) => x.correlationId)).size).toBe(1);

    // The spec's completeness test holds for every kind the query returns: creations, toggles, an unchanged write, a rollout, a kill switch.
    for (const x of records) for (const f of ['ts', 'actor', 'flag', 'from', 'to', 'reason'] as const) expect(x[f] ?? '', `${f} of ${JSON.stringify(x)}`).not.toBe('');
    const expected = records.map((x) => `${x.ts} ${x.actor} ${x.flag}: ${jqText(x.from)}->${jqText(x.to)} (${x.reason})`);
    expect(expected).toContain(`${killed[1]!.ts} token "flagctl-e2e" of ${EMAIL} ops.payments.new-processor: true->false (INC-4412 payment errors climbing)`);
    const created = (key: string) => records.find((x) => x.flag === key && x.change === 'created')!;
    expect(expected).toContain(`${created('ops.payments.new-processor').ts} token "flagctl-e2e" of ${EMAIL} ops.payments.new-processor: (absent)->false (PAY-12 introduce the new processor)`);
    expect(expected).toContain(`${created('ops.payments.retry').ts} token "flagctl-e2e" of ${EMAIL} ops.payments.retry: (absent)->false ((no reason required))`);
    expect(created('ops.payments.new-processor').definition).toMatchObject({ type: 'boolean', risk: 'high', ownerService: 'payments', tags: ['payments'] });
    if (!existsSync(JQ)) {
      console.warn(`flagctl e2e: ${JQ} is missing, so the jq pipeline of the how-to was NOT run (apt-get install jq); checked the parsed JSON only`);
      return;
    }
    const jq = spawnSync(JQ, ['-r', JQ_FILTER], { input: r.stdout, encoding: 'utf8' });
    expect(jq.status, jq.stderr).toBe(0);
    const lines = jq.stdout.trimEnd().split('\n');
    expect(lines).toEqual(expected);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z token "flagctl-e2e" of \S+ ops\.payments\.[a-z-]+: .+->.+ \(.+\)$/);
    for (const line of lines) expect(line).not.toMatch(/: null->|->null /);
    expect(lines).toContain(`${records.find((x) => x.reason === 'INC-4411 switch to the new processor')!.ts} token "flagctl-e2e" of ${EMAIL} ops.payments.new-processor: false->true (INC-4411 switch to the new processor)`);
  });

  it('its writes are recorded in the ledger with source cli: the client names itself, the token stays the actor', async () => {
    const res = await fetch(`${server!.pipelineUrl}/api/audit?action=flag.&limit=500`, { headers: { authorization: `Bearer ${auditor}` } });
    expect(res.status, await res.clone().text()).toBe(200);
    const events = ((await res.json()) as { items: Array<{ action: string; source: string; actor: { kind: string; name: string } }> }).items;
    expect(events.length).toBeGreaterThanOrEqual(8);
    expect(events.map((e) => [e.source, e.actor.kind, e.actor.name])).toEqual(events.map(() => ['cli', 'token', `token "flagctl-e2e" of ${EMAIL}`]));
  });

  it('history and the audit table read the same records', async () => {
    const h = await flags(['history', 'ops.payments.retry', '--env', 'staging', '--json']);
    expect(h.code, h.stderr).toBe(0);
    expect((JSON.parse(h.stdout) as Rec[]).map((x) => [x.env, x.reason])).toEqual([['staging', 'try on a quarter']]);
    const t = await flags(['audit', 'query', '--namespace', 'ops.payments.retry', '--limit', '2']);
    expect(t.code, t.stderr).toBe(0);
    const rows = t.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^TIME\s+ACTOR\s+FLAG\s+ENV\s+FROM -> TO\s+REASON$/);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(/ops\.payments\.retry\s+production\s+true -> false\s+INC-4412 payment errors climbing$/);
  });

  it('answers to the name flagctl, with --server and --token given as options', async () => {
    let out = '';
    let err = '';
    const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t), stdin: async () => '' };
    const code = await main(['flags', 'list', '--namespace', 'ops.payments.*', '--server', server!.pipelineUrl, '--token', secret], { programName: 'flagctl', io });
    expect(code, err).toBe(0);
    expect(out).toMatch(/ops\.payments\.retry\s+boolean\s+low\s+-\s+off\s+off/);
    out = '';
    expect(await main(['flags', 'audit', 'query', '--help'], { programName: 'flagctl', io })).toBe(0);
    expect(out).toMatch(/^Usage: flagctl audit query \[options\]/);
    expect(out).toContain('--server <url>');
    expect(out).toContain('--token <token>');
  });

  it('a change that needs approval is proposed, not applied: set and kill say so and exit 0', async () => {
    // Approval policies are for signed-in owners: set one through the main listener's session API.
    const signIn = await fetch(`${server!.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().find((c) => c.startsWith('cl_session='))!.split(';')[0]!;
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const policy = await fetch(`${server!.url}/api/environments/production`, {
      method: 'PUT', headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrfToken }, body: JSON.stringify({ approvalPolicy: 'high-risk', approvalsNeeded: 2 }),
    });
    expect(policy.status, await policy.text()).toBe(200);

    const set = await flags(['set', 'ops.payments.new-processor', '--env', 'production', '--on', '--reason', 'INC-4413 back on after the fix']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^ops\.payments\.new-processor \[production\]: change request \S+ proposed; needs 2 approval\(s\)\n$/);
    expect(set.stderr).toContain('approved');
    const kill = await flags(['kill', 'ops.payments.*', '--env', 'production', '--reason', 'INC-4414 second kill']);
    expect(kill.code, kill.stderr).toBe(0);
    expect(kill.stdout).toMatch(/^ops\.payments\.new-processor \[production\]: change request \S+ proposed; needs 2 approval\(s\); correlation \S+\n/m);
    expect(kill.stdout).toMatch(/^ops\.payments\.retry \[production\]: unchanged, recorded #\d+; correlation \S+$/m);
    expect(kill.stderr).toContain('0 turned off, 1 already off, 1 waiting for approval');
  });

  it('without a token: exit 2 saying how to create one, before anything is sent', async () => {
    // A closed port as well: had the command tried to connect, it would have answered 3.
    const r = await flags(['list'], { CHANGELEDGER_TOKEN: '', CHANGELEDGER_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no API token: pass --token or set CHANGELEDGER_TOKEN');
    expect(r.stderr).toContain('changeledger tokens create --user');
  });

  it('a token without flags:write gets exit 2 with the server\'s reason; the token never shows', async () => {
    const r = await flags(['set', 'ops.payments.retry', '--env', 'staging', '--off'], { CHANGELEDGER_TOKEN: readOnly });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('changeledger: this token lacks the scope flags:write\n');
    expect(r.stderr + r.stdout).not.toContain(readOnly);
  });

  it('a server that does not answer: exit 3 naming the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await flags(['list'], { CHANGELEDGER_URL: url });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`cannot reach the changeledger server at ${url}`);
    expect(r.stderr).not.toContain(secret);
  });
});
