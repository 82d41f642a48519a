import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineNames } from '../../test/support/engines.js';
import { cliEntry, runCli } from '../../test/support/spawn-server.js';
import { startPipelineServer, type PipelineServer } from '../../test/fixtures/pipelines/pipeline-server.js';
import { packageRoot } from '../platform/paths.js';
import { assess, changeCommands, deliveryLine, durationOf, EXIT_TIMEOUT, pipelineFromEnv, registerBody, ticketLine, type Status } from './changes.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A /status answer as the server gives it, changed where a case says. */
function aStatus(over: { status: Status['status']; approval?: Partial<Status['approval']>; deployment?: Partial<Status['deployment']> } & Partial<Pick<Status, 'mapping' | 'classification'>>): Status {
  const links = { change: 'http://cl/?view=changes&change=chg_1', approve: 'http://cl/?view=changes&change=chg_1&approve=1' };
  return {
    id: 'chg_1', displayId: 'CHG-00000001', title: 'Deploy', criticality: 'important', criticalitySource: 'components', ticket: null, pipeline: null, links,
    surveillance: { minutes: 60, evaluateAt: null, reportedAt: null, impact: null, aiImpact: null },
    ...over,
    approval: { state: 'pending', approvals: 0, required: 2, expiresAt: null, decidedAt: null, reason: null, criticalRequired: false, criticalApproved: null, blockedOn: null, ...over.approval },
    deployment: { startedAt: null, finishedAt: null, windowStart: '2026-01-01T00:00:00.000Z', windowEnd: '2026-01-01T01:00:00.000Z', outcome: null, autoStart: false, ...over.deployment },
  } as Status;
}

describe('changes status: the callback and ticket lines', () => {
  const step = { deliveryId: 'dlv_1', event: 'change.started', action: 'update' as const, attempts: 2, httpStatus: 503, error: 'answered 503', note: null, via: 'server' as const, at: '2026-01-01T00:00:00.000Z' };
  it('says where a delivery stands, with the next attempt of a retry and the error of a failure', () => {
    expect(deliveryLine(null)).toBe('-');
    expect(deliveryLine({ ...step, state: 'retrying', nextAttemptAt: '2026-01-01T00:05:00.000Z' })).toBe('change.started retrying (HTTP 503), next attempt 2026-01-01T00:05:00.000Z — answered 503');
    expect(deliveryLine({ ...step, state: 'delivered', httpStatus: 200, error: null, note: 'state not changed: ServiceNow kept New', nextAttemptAt: null })).toBe('change.started delivered (HTTP 200) — state not changed: ServiceNow kept New');
  });
  it('names the ticket by its key and link, or says it is not opened yet', () => {
    expect(ticketLine(null)).toBe('-');
    expect(ticketLine({ kind: 'jira', id: '10001', key: 'OPS-7', url: 'https://acme.atlassian.net/browse/OPS-7', steps: [{ ...step, state: 'delivered', httpStatus: 201, error: null, nextAttemptAt: null, event: 'change.approved' }] }))
      .toBe('jira OPS-7 https://acme.atlassian.net/browse/OPS-7; last step change.approved delivered (HTTP 201)');
    expect(ticketLine({ kind: 'asana', id: null, key: null, url: null, steps: [] })).toBe('asana (not opened yet)');
  });
});

describe('changes: where a waited-on change stands', () => {
  it.each([
    ['pending_approval counts the approvals', aStatus({ status: 'pending_approval', approval: { approvals: 1 } }), { done: false, line: 'pending_approval — 1 of 2 approvals' }],
    ['pending_approval names what it is blocked on: a classification', aStatus({ status: 'pending_approval', approval: { blockedOn: 'classification' }, classification: { unknown: ['untiered'], url: 'http://cl/a' } }),
      { done: false, line: 'pending_approval — 0 of 2 approvals — waiting for an approver to classify untiered at http://cl/a' }],
    ['pending_approval names what it is blocked on: a critical approver', aStatus({ status: 'pending_approval', approval: { approvals: 2, blockedOn: 'critical_approver' } }), { done: false, line: 'pending_approval — 2 of 2 approvals — needs a critical approver' }],
    ['pending_mapping names the names and the link', aStatus({ status: 'pending_mapping', approval: { state: 'mapping' }, mapping: { unresolved: ['wallet', 'ledger'], url: 'http://cl/m' } }),
      { done: false, line: 'pending_mapping — unrecognised components: wallet, ledger — map them at http://cl/m' }],
    ['approved goes', aStatus({ status: 'approved', approval: { state: 'approved', approvals: 2 } }), { done: true, ok: true, line: 'approved — 2 of 2 approvals' }],
    ['active goes', aStatus({ status: 'active', approval: { state: 'approved', approvals: 2 } }), { done: true, ok: true, line: 'active — 2 of 2 approvals' }],
    ['active without approval goes', aStatus({ status: 'active', approval: { state: 'not_required', approvals: null, required: null } }), { done: true, ok: true, line: 'active — no approval required' }],
    ['scheduled without approval goes: the pipeline may start it', aStatus({ status: 'scheduled', approval: { state: 'not_required', approvals: null, required: null } }), { done: true, ok: true, line: 'scheduled — no approval required' }],
    ['scheduled with autoStart waits for its window', aStatus({ status: 'scheduled', approval: { state: 'not_required', approvals: null, required: null }, deployment: { autoStart: true } }),
      { done: false, line: 'scheduled — no approval required; starts at 2026-01-01T00:00:00.000Z' }],
    ['rejected stops with the reason', aStatus({ status: 'rejected', approval: { state: 'rejected', reason: 'not during the sale' } }), { done: true, ok: false, reason: 'rejected: not during the sale' }],
    ['expired unapproved stops saying so', aStatus({ status: 'expired', approval: { state: 'expired', approvals: 1 } }), { done: true, ok: false, reason: 'expired: it was not approved in time (1 of 2 approvals)' }],
    ['expired after approval stops saying it was not started', aStatus({ status: 'expired', approval: { state: 'expired', approvals: 2 } }), { done: true, ok: false, reason: 'expired: it was approved but not started in time' }],
    ['cancelled stops', aStatus({ status: 'cancelled' }), { done: true, ok: false, reason: 'cancelled' }],
    ['evaluating stops: it ran already', aStatus({ status: 'evaluating', deployment: { outcome: 'success' } }), { done: true, ok: false, reason: 'it ran already: it is evaluating (outcome success); register a new change' }],
    ['a draft waits', aStatus({ status: 'draft' }), { done: false, line: 'draft — not submitted yet' }],
  ])('%s', (_, s, want) => {
    expect(assess(s)).toEqual(want);
  });

  it('takes the reason the ledger recorded for an expiry or a cancellation', () => {
    expect(assess(aStatus({ status: 'cancelled' }), 'superseded by 1.4.3')).toEqual({ done: true, ok: false, reason: 'cancelled: superseded by 1.4.3' });
    expect(assess(aStatus({ status: 'expired', approval: { state: 'expired' } }), 'its components were not mapped in time')).toEqual({ done: true, ok: false, reason: 'expired: its components were not mapped in time' });
  });

  it('reads durations as 30s, 5m, 4h or seconds, and refuses less than a second naming the option', () => {
    expect([durationOf('30s', 'interval'), durationOf('5m', 'interval'), durationOf('4h', 'timeout'), durationOf('2', 'interval')]).toEqual([30_000, 300_000, 14_400_000, 2_000]);
    for (const bad of ['0s', '', '1.5s', '10x', '-1m']) expect(() => durationOf(bad, 'interval'), bad).toThrow(expect.objectContaining({ field: 'interval' }));
  });

  it('fills the pipeline fields from GitHub Actions and GitLab CI; the options win', () => {
    expect(pipelineFromEnv({ GITHUB_ACTIONS: 'true', GITHUB_WORKFLOW: 'deploy', GITHUB_RUN_ID: '9', GITHUB_SHA: 'abc', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/shop' }))
      .toEqual({ pipeline: 'deploy', run: '9', runUrl: 'https://github.com/acme/shop/actions/runs/9', commit: 'abc', repo: 'acme/shop' });
    expect(pipelineFromEnv({ GITLAB_CI: 'true', CI_PROJECT_PATH: 'acme/shop', CI_PIPELINE_ID: '7', CI_PIPELINE_URL: 'https://gl/p/7', CI_COMMIT_SHA: 'def', CI_ENVIRONMENT_NAME: '' }))
      .toEqual({ pipeline: 'acme/shop', run: '7', runUrl: 'https://gl/p/7', commit: 'def' });
    expect(pipelineFromEnv({ CI: 'true' })).toEqual({});
    const body = registerBody({ title: 'T', component: ['checkout-api'], componentKey: ['svc:payments-api'], hops: '2', pipelineRun: 'manual', timeout: '4h', interval: '30s' }, { GITLAB_CI: 'true', CI_PIPELINE_ID: '7', CI_COMMIT_SHA: 'def' });
    expect(body).toEqual({ title: 'T', components: [{ query: 'checkout-api' }, { key: 'svc:payments-api' }], hops: 2, pipeline: { run: 'manual', commit: 'def' } });
    expect(() => registerBody({ title: 'T', component: [], componentKey: [], maxDuration: '45m', timeout: '4h', interval: '30s' }, {})).toThrow(expect.objectContaining({ field: 'max-duration' }));
  });
});

/** What wait said of the change's states, without the lines of a poll it is trying again. */
function stateLines(stderr: string): string[] {
  const lines = stderr.split('\n').filter((l) => l !== '' && !l.endsWith('; trying again'));
  return lines.filter((l, i) => l !== lines[i - 1]);
}

/** The CLI as its own process, with its output readable while it runs (runCli waits for the end). */
function startCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [...cliEntry(), ...args], { cwd: packageRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
  return {
    done,
    async saw(text: string, timeoutMs = 30_000) {
      const until = new Date().getTime() + timeoutMs;
      while (!stderr.includes(text) && !stdout.includes(text)) {
        if (child.exitCode !== null || new Date().getTime() > until) throw new Error(`never printed "${text}":\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

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

for (const engine of engineNames()) describe(`changeledger changes: the pipeline command line against a real server process [${engine}]`, { timeout: 120_000 }, () => {
  let ps: PipelineServer;
  let env: Record<string, string>;
  // Hermetic: a run inside CI must not fill the pipeline fields from the runner's own variables.
  const clean = { GITHUB_ACTIONS: '', GITLAB_CI: '' };
  const changes = (args: string[], extra: Record<string, string> = {}) => runCli(['changes', ...args], { env: { ...env, ...extra } });
  const register = async (args: string[]) => {
    const r = await changes(['register', ...args]);
    expect(r.code, r.stderr).toBe(0);
    const [id, displayId] = r.stdout.split('\n')[0]!.split(' ');
    return { id: id!, displayId: displayId!, r };
  };
  const decide = async (who: 'alice' | 'bob', id: string, how: 'approve' | 'reject', body: Json = {}) => {
    const r = await ps.call(who, 'POST', `/api/changes/${id}/${how}`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };

  beforeAll(async () => {
    ps = await startPipelineServer(engine);
    env = { CHANGELEDGER_URL: ps.server.pipelineUrl, CHANGELEDGER_TOKEN: await ps.token('cli'), ...clean };
  }, 120_000);
  afterAll(async () => ps?.stop());

  it('registers, waits (a line per change of state), starts, completes; status reads it by CHG- id', async () => {
    const { id, displayId, r } = await register(['--title', 'Deploy checkout-api 1.4.2', '--component', 'checkout-api', '--kind', 'deploy', '--hops', '2', '--max-duration', '45', '--surveillance', '30', '--pipeline', 'deploy', '--pipeline-run', '981']);
    expect(r.stdout).toMatch(/^chg_[0-9a-f]{32} CHG-[0-9A-F]{8}\n$/);
    expect(r.stderr).toContain(`registered ${displayId} "Deploy checkout-api 1.4.2": pending_approval — 0 of 2 approvals\n`);

    const wait = startCli(['changes', 'wait', displayId, '--interval', '1s'], env);
    await wait.saw('pending_approval — 0 of 2 approvals');
    await decide('alice', id, 'approve');
    await wait.saw('pending_approval — 1 of 2 approvals');
    await decide('bob', id, 'approve');
    const w = await wait.done;
    expect(w.code, w.stderr).toBe(0);
    // A poll the server could not answer in time (a busy machine) adds a line of its own, and the state is said again.
    expect(stateLines(w.stderr)).toEqual(['pending_approval — 0 of 2 approvals', 'pending_approval — 1 of 2 approvals']);
    expect(w.stdout).toBe('approved — 2 of 2 approvals\n');

    const started = await changes(['start', id]);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(new RegExp(`^started ${displayId}: active until \\S+Z\\n$`));
    // Started already (by the scheduler, or a retried step): what was asked for holds.
    const again = await changes(['start', id]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^${displayId} is already active \\(started \\S+Z\\), until \\S+Z\\n$`));

    const done = await changes(['complete', displayId, '--outcome', 'partial', '--notes', 'one pod kept the old image']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(new RegExp(`^completed ${displayId} \\(outcome partial\\): under surveillance until \\S+Z\\n$`));
    const twice = await changes(['complete', id]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe('changeledger: cannot complete a change that is evaluating: it is under surveillance\n');

    const s = await changes(['status', id, '--json']);
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ id, displayId, status: 'evaluating', approval: { state: 'approved', approvals: 2, required: 2 }, deployment: { outcome: 'partial' }, surveillance: { minutes: 30 }, pipeline: { pipeline: 'deploy', run: '981' } });
    const human = await changes(['status', displayId]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.split('\n')[0]).toBe(`${displayId}  Deploy checkout-api 1.4.2`);
    expect(human.stdout).toMatch(/^status\s+evaluating — it ran already: it is evaluating \(outcome partial\); register a new change$/m);
    expect(human.stdout).toMatch(/^pipeline\s+pipeline=deploy run=981$/m);
    const c = (await ps.call('owner', 'GET', `/api/changes/${id}`)).body.change as Json;
    expect(c).toMatchObject({ kind: 'deploy', hops: 2, maxDurationMinutes: 45, evidenceMinutes: 30, outcome: 'partial', notes: 'one pod kept the old image' });
  });

  it('register --auto-start --wait --json: JSON on stdout (the callback secret once), exit 0 when it is active', async () => {
    const run = startCli(['changes', 'register', '--title', 'Deploy payments-api 2.0.0', '--component', 'payments-api', '--auto-start', '--max-duration', '20',
      '--callback-url', 'https://ci-hooks.example.com/cl', '--wait', '--interval', '1s', '--json'], env);
    await run.saw('pending_approval — 0 of 2 approvals');
    const { id } = await ps.changeTitled('Deploy payments-api 2.0.0');
    await decide('alice', id, 'approve');
    await decide('bob', id, 'approve');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout) as Json;
    expect(body).toMatchObject({ change: { id, status: 'pending_approval', autoStart: true }, callbackSecret: expect.stringMatching(/^cs_[A-Za-z0-9_-]{43}$/) });
    expect(r.stderr.trim().split('\n').at(-1)).toBe('active — 2 of 2 approvals');
    const status = await changes(['status', id, '--json']);
    expect(status.stdout).not.toContain(body.callbackSecret);
  });

  it('prints the callback secret once, as the second line, when a callback URL is given', async () => {
    const { r } = await register(['--title', 'Deploy checkout-api 1.4.3', '--component', 'checkout-api', '--callback-url', 'https://ci-hooks.example.com/cl']);
    expect(r.stdout).toMatch(/^chg_[0-9a-f]{32} CHG-[0-9A-F]{8}\ncs_[A-Za-z0-9_-]{43}\n$/);
    expect(r.stderr).toContain('the callback secret (the second line) is shown only now');
  });

  it('wait exits 1 with the reason when an approver rejects', async () => {
    const { id, displayId } = await register(['--title', 'Deploy checkout-api 1.5.0', '--component', 'checkout-api']);
    await decide('bob', id, 'reject', { reason: 'not during the sale' });
    const r = await changes(['wait', id, '--interval', '1s']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`changeledger: ${displayId} rejected: not during the sale\n`);
  });

  it('wait exits 1 with the recorded reason when the change is cancelled', async () => {
    const { id, displayId } = await register(['--title', 'Deploy checkout-api 1.5.1', '--component', 'checkout-api']);
    const cancel = await fetch(`${ps.server.pipelineUrl}/api/changes/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${env.CHANGELEDGER_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'superseded by 1.5.2' }) });
    expect(cancel.status).toBe(200);
    const r = await changes(['wait', id]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`changeledger: ${displayId} cancelled: superseded by 1.5.2\n`);
  });

  it('while pending_mapping it prints the unrecognised names and the link; exit 4 when the time is up', async () => {
    const { id, displayId, r } = await register(['--title', 'Migrate wallet', '--component', 'wallet-db', '--component', 'checkout-api']);
    expect(r.stderr).toContain(`registered ${displayId} "Migrate wallet": pending_mapping — unrecognised components: wallet-db — map them at http`);
    const w = await changes(['wait', id, '--timeout', '2s', '--interval', '1s']);
    expect(w.code).toBe(EXIT_TIMEOUT);
    expect(w.stderr).toContain(`?view=changes&change=${id}\n`);
    expect(w.stderr.split('\n')[0]).toMatch(new RegExp(`^pending_mapping — unrecognised components: wallet-db — map them at http\\S+/\\?view=changes&change=${id}$`));
    expect(w.stderr).toContain(`changeledger: gave up waiting after 2s: ${displayId} is still pending_mapping — unrecognised components: wallet-db`);
    const start = await changes(['start', id]);
    expect(start.code).toBe(2);
    expect(start.stderr).toBe('changeledger: cannot start a change that is pending_mapping: it is waiting for its components to be mapped\n');
  });

  it('a refused registration exits 2 with the server\'s message, its field and the option to fix; nothing printed, nothing written', async () => {
    const count = async () => ((await ps.call('owner', 'GET', '/api/changes')).body.changes as Json[]).length;
    const before = await count();
    const base = ['register', '--title', 'Deploy', '--component', 'checkout-api'];
    const [short, none, url, hops, kind] = await Promise.all([
      changes([...base, '--max-duration', '4']), changes(['register', '--title', 'Deploy']), changes([...base, '--callback-url', 'ftp://ci/hook']),
      changes([...base, '--hops', 'two']), changes([...base, '--kind', 'party']),
    ]);
    for (const r of [short, none, url, hops, kind]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(short.stderr).toBe('changeledger: Duration (minutes) must be at least 5 (field: maxDurationMinutes, option --max-duration)\n');
    expect(none.stderr).toBe('changeledger: name at least one component (field: components, option --component)\n');
    expect(url.stderr).toBe('changeledger: Callback URL must be an http(s) URL (field: callbackUrl, option --callback-url)\n');
    expect(hops.stderr).toBe('changeledger: --hops must be a whole number (field: hops)\n');
    expect(kind.stderr).toContain("option '--kind <kind>' argument 'party' is invalid");
    expect(await count()).toBe(before);
  });

  it('an unknown change exits 2; no token exits 2 saying how to make one; an unreachable server exits 3', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const [unknown, display, noToken, unreachable, waiting] = await Promise.all([
      changes(['status', 'chg_nope']), changes(['wait', 'CHG-FFFFFFFF']), changes(['wait', 'chg_x'], { CHANGELEDGER_TOKEN: '' }), changes(['complete', 'chg_x'], { CHANGELEDGER_URL: down }),
      changes(['wait', 'CHG-0000000A', '--interval', '1s', '--timeout', '2s'], { CHANGELEDGER_URL: down }),
    ]);
    expect([unknown.code, display.code, noToken.code, unreachable.code, waiting.code]).toEqual([2, 2, 2, 3, 4]);
    // wait keeps asking a server it cannot reach (a CHG- id too, looked up once it answers), until its time is up.
    expect(waiting.stderr).toBe(`cannot reach the changeledger server at ${down} (ECONNREFUSED); trying again\n`
      + `changeledger: gave up waiting after 2s: the last try failed: cannot reach the changeledger server at ${down} (ECONNREFUSED)\n`);
    expect(unknown.stderr).toBe('changeledger: no change chg_nope\n');
    expect(display.stderr).toBe('changeledger: no change CHG-FFFFFFFF\n');
    expect(noToken.stderr).toContain('no API token: pass --token or set CHANGELEDGER_TOKEN; create one with `changeledger tokens create --user ci@example.com --name pipeline --scopes changes:read,changes:write`');
    expect(unreachable.stderr).toBe(`changeledger: cannot reach the changeledger server at ${down} (ECONNREFUSED)\n`);
    expect(unreachable.stderr).not.toContain(env.CHANGELEDGER_TOKEN);
  });

  it('in GitLab CI the pipeline fields come from the job; an option overrides one', async () => {
    const { id } = await register(['--title', 'Deploy checkout-api 1.6.0', '--component-key', 'svc:checkout-api', '--pipeline-environment', 'prod-eu']);
    expect(((await ps.call('owner', 'GET', `/api/changes/${id}`)).body.change as Json).pipeline).toEqual({ environment: 'prod-eu' });
    const r = await changes(['register', '--title', 'Deploy checkout-api 1.6.1', '--component', 'checkout-api', '--pipeline-environment', 'prod-eu'], {
      GITLAB_CI: 'true', CI_PROJECT_PATH: 'acme/shop', CI_PIPELINE_ID: '4711', CI_PIPELINE_URL: 'https://gitlab.example.com/acme/shop/-/pipelines/4711', CI_COMMIT_SHA: 'abc123', CI_ENVIRONMENT_NAME: 'production',
    });
    expect(r.code, r.stderr).toBe(0);
    const c = (await ps.call('owner', 'GET', `/api/changes/${r.stdout.split(' ')[0]}`)).body.change as Json;
    expect(c.pipeline).toEqual({ pipeline: 'acme/shop', run: '4711', runUrl: 'https://gitlab.example.com/acme/shop/-/pipelines/4711', commit: 'abc123', environment: 'prod-eu' });
  });

  it('on a terminal, wait keeps one live line and ends it with the result', async () => {
    const { id } = await register(['--title', 'Deploy checkout-api 1.7.0', '--component', 'checkout-api']);
    let out = '';
    let err = '';
    let code = -1;
    const program = new Command('changeledger').exitOverride();
    changeCommands(program, { out: (t) => void (out += t), err: (t) => void (err += t), stdin: async () => '' }, (c) => (code = c), { tty: true, env });
    const waiting = program.parseAsync(['changes', 'wait', id, '--interval', '1s'], { from: 'user' });
    const until = new Date().getTime() + 20_000;
    while (!err.includes('0 of 2 approvals') && new Date().getTime() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    await decide('alice', id, 'approve');
    await decide('bob', id, 'approve');
    await waiting;
    expect(code).toBe(0);
    expect(err).toMatch(/^\r\x1b\[2Kpending_approval — 0 of 2 approvals \(\d+s\)/);
    expect(err).not.toContain('\n');
    expect(err.endsWith('\r\x1b[2K')).toBe(true);
    expect(out).toBe('approved — 2 of 2 approvals\n');
  });
});
