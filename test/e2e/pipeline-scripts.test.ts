import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineNames } from '../support/engines.js';
import { startPipelineServer, type Person, type PipelineServer } from '../fixtures/pipelines/pipeline-server.js';

/**
 * The spec's GitLab CI and GitHub Actions scripts (test/fixtures/pipelines), run by bash with curl
 * and jq against a real server process, while two approvers decide through the session API of
 * the main listener — the pipeline and the people each on their own listener, as in production.
 */

const FIXTURES = fileURLToPath(new URL('../fixtures/pipelines/', import.meta.url));
const GITLAB = join(FIXTURES, 'gitlab-deploy.sh');
const GITHUB = join(FIXTURES, 'github-deploy.sh');
const TOOLS = ['curl', 'jq'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Finished = { code: number; stdout: string; stderr: string };
type Job = { dir: string; output(): string; done: Promise<Finished>; saw(text: string, timeoutMs?: number): Promise<void> };

/** Runs a pipeline script in a directory of its own (with ./deploy.sh), with only the environment a runner gives it. */
function runJob(script: string, env: Record<string, string>): Job {
  const dir = mkdtempSync(join(tmpdir(), 'changeledger-job-'));
  copyFileSync(join(FIXTURES, 'deploy.sh'), join(dir, 'deploy.sh'));
  const child = spawn('bash', [script], {
    cwd: dir,
    // GITHUB_ENV: the runner's file of KEY=value lines, here in the job's directory (the GitLab script ignores it).
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', POLL_INTERVAL: '1', GITHUB_ENV: join(dir, 'github.env'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
  return {
    dir, done,
    output: () => stdout,
    async saw(text, timeoutMs = 20_000) {
      const until = new Date().getTime() + timeoutMs;
      while (!stdout.includes(text)) {
        if (child.exitCode !== null || new Date().getTime() > until) throw new Error(`the job never printed "${text}":\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

const sha = () => Array.from({ length: 40 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');

for (const engine of engineNames()) describe(`the spec's pipeline scripts, run by bash against a real server [${engine}]`, { timeout: 120_000 }, () => {
  let ps: PipelineServer;
  const jobs: Job[] = [];

  beforeAll(async () => {
    for (const tool of TOOLS) if (spawnSync('bash', ['-c', `command -v ${tool}`]).status !== 0) throw new Error(`${tool} is missing: the spec's scripts need curl and jq (apt-get install curl jq; .ci/run installs them)`);
    ps = await startPipelineServer(engine);
  }, 120_000);
  afterAll(async () => {
    await ps?.stop();
    for (const j of jobs) rmSync(j.dir, { recursive: true, force: true });
  });

  const decide = async (who: Person, id: string, how: 'approve' | 'reject', body: Json = {}) => {
    const r = await ps.call(who, 'POST', `/api/changes/${id}/${how}`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const changeOf = async (id: string) => (await ps.call('owner', 'GET', `/api/changes/${id}?include=events`)).body as { change: Json; events: Json[] };
  const actions = (events: Json[]) => events.map((e) => e.action as string);

  describe('GitLab CI: register with autoStart, wait for active, deploy, complete in after_script', () => {
    const gitlab = async (token: string, commit: string, extra: Record<string, string> = {}) => {
      const job = runJob(GITLAB, {
        CHANGELEDGER_URL: ps.server.pipelineUrl, CHANGELEDGER_TOKEN: token,
        CI_PROJECT_NAME: 'shop', CI_PROJECT_PATH: 'acme/shop', CI_COMMIT_SHA: commit, CI_COMMIT_SHORT_SHA: commit.slice(0, 8),
        CI_PIPELINE_ID: '4711', CI_PIPELINE_URL: 'https://gitlab.example.com/acme/shop/-/pipelines/4711', CI_ENVIRONMENT_NAME: 'production', ...extra,
      });
      jobs.push(job);
      const change = await ps.changeTitled(`Deploy shop ${commit.slice(0, 8)}`);
      return { job, change };
    };

    it('ends with the change evaluating, outcome success, and the job green once two approvers approved', async () => {
      const commit = sha();
      const { job, change } = await gitlab(await ps.token('gitlab-ok'), commit);
      await job.saw('pending_approval — 0 of 2 approvals');
      expect(await decide('alice', change.id, 'approve', { comment: 'fine by me' })).toMatchObject({ status: 'pending_approval', approvals: 1 });
      await job.saw('pending_approval — 1 of 2 approvals');
      // With autoStart the second approval starts the change in the same transaction.
      expect(await decide('bob', change.id, 'approve')).toMatchObject({ status: 'active', approvals: 2 });
      const r = await job.done;
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(readFileSync(join(job.dir, 'change.env'), 'utf8')).toBe(`CHANGE_ID=${change.id}\n`);
      expect(readFileSync(join(job.dir, 'deploy.log'), 'utf8')).toMatch(/^deploying CHG-[0-9A-F]{8} while it is active\n$/);
      expect(r.stdout).not.toContain('after_script failed');
      const { change: c, events } = await changeOf(change.id);
      expect(c).toMatchObject({
        status: 'evaluating', outcome: 'success', kind: 'deploy', autoStart: true, maxDurationMinutes: 60, gated: true, quorum: 2,
        pipeline: { pipeline: 'acme/shop', run: '4711', runUrl: 'https://gitlab.example.com/acme/shop/-/pipelines/4711', commit, environment: 'production' },
      });
      expect((c.components as Json[]).map((x) => x.key).sort()).toEqual(['svc:checkout-api', 'svc:payments-api']);
      expect(actions(events)).toEqual(['change.registered', 'change.approval_given', 'change.approval_given', 'change.approved', 'change.started', 'change.completed']);
      expect(events.find((e) => e.action === 'change.registered')).toMatchObject({ actor: { kind: 'token' }, source: 'api' });
    });

    it('fails the job printing "Rejected: <reason>" when an approver rejects; nothing is deployed', async () => {
      const { job, change } = await gitlab(await ps.token('gitlab-rejected'), sha());
      await job.saw('pending_approval — 0 of 2 approvals');
      expect(await decide('alice', change.id, 'reject', { reason: 'not during the sale' })).toEqual({ status: 'rejected' });
      const r = await job.done;
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('Rejected: not during the sale\n');
      expect(existsSync(join(job.dir, 'deploy.log'))).toBe(false);
      // The spec's after_script completes whatever the job's status: a rejected change answers 409, and curl -f fails.
      expect(r.stdout).toContain('after_script failed (22)');
      const { change: c, events } = await changeOf(change.id);
      expect(c).toMatchObject({ status: 'rejected', rejectionReason: 'not during the sale', outcome: null });
      expect(actions(events)).toEqual(['change.registered', 'change.rejected']);
    });

    it('a failed deploy fails the job, and after_script completes the change as rolled_back', async () => {
      const { job, change } = await gitlab(await ps.token('gitlab-rollback'), sha(), { DEPLOY_EXIT: '1' });
      await job.saw('pending_approval — 0 of 2 approvals');
      await decide('alice', change.id, 'approve');
      await decide('bob', change.id, 'approve');
      const r = await job.done;
      expect(r.code).toBe(1);
      expect(readFileSync(join(job.dir, 'deploy.log'), 'utf8')).toContain('while it is active');
      expect(r.stdout).not.toContain('after_script failed');
      expect((await changeOf(change.id)).change).toMatchObject({ status: 'evaluating', outcome: 'rolled_back', aborted: false });
    });
  });

  describe('GitHub Actions: register, wait for approval, start, deploy, complete always', () => {
    const github = async (token: string, commit: string, extra: Record<string, string> = {}) => {
      const job = runJob(GITHUB, {
        CHANGELEDGER_URL: ps.server.pipelineUrl, CHANGELEDGER_TOKEN: token,
        GITHUB_SHA: commit, GITHUB_WORKFLOW: 'deploy', GITHUB_RUN_ID: '98765', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/checkout', ...extra,
      });
      jobs.push(job);
      const change = await ps.changeTitled(`Deploy checkout-api ${commit}`);
      return { job, change };
    };

    it('starts the approved change, deploys in its window and completes it with outcome success', async () => {
      const commit = sha();
      const { job, change } = await github(await ps.token('github-ok'), commit);
      await job.saw('waiting for approval (0 of 2)');
      await decide('bob', change.id, 'approve');
      await job.saw('waiting for approval (1 of 2)');
      expect(await decide('alice', change.id, 'approve')).toMatchObject({ status: 'approved' });
      const r = await job.done;
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('approved (2 of 2)');
      // The callback secret was returned once and masked; the change keeps only its sealed form.
      expect(r.stdout).toMatch(/::add-mask::cs_[A-Za-z0-9_-]{43}\n/);
      expect(readFileSync(join(job.dir, 'github.env'), 'utf8')).toBe(`CHANGE_ID=${change.id}\n`);
      expect(readFileSync(join(job.dir, 'deploy.log'), 'utf8')).toContain('while it is active');
      // The server calls the pipeline back at approved, started and completed. ci-hooks.lan resolves
      // nowhere here: the receiver is unreachable, so each callback waits for its next attempt a
      // minute later (as after a timeout), with the name in the error; it is not refused for good.
      let callbacks: Json[] = [];
      for (let i = 0; i < 100; i++) {
        callbacks = ((await ps.call('owner', 'GET', `/api/changes/${change.id}/deliveries`)).body as { deliveries: Json[] }).deliveries;
        if (callbacks.length === 3 && callbacks.every((d) => d.attempts >= 1)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(callbacks.map((d) => [d.event, d.state, d.attempts, d.httpStatus])).toEqual([['change.approved', 'retrying', 1, null], ['change.started', 'retrying', 1, null], ['change.completed', 'retrying', 1, null]]);
      for (const d of callbacks) expect(d.error).toMatch(/ci-hooks\.lan (does not resolve|could not be resolved)/);
      for (const d of callbacks) expect(Date.parse(d.nextAttemptAt) - Date.parse(d.attemptLog[0].at)).toBeGreaterThanOrEqual(60_000);
      for (const d of callbacks) expect(Date.parse(d.nextAttemptAt) - Date.parse(d.attemptLog[0].at)).toBeLessThan(70_000);
      const { change: c, events } = await changeOf(change.id);
      expect(c).toMatchObject({
        status: 'evaluating', outcome: 'success', autoStart: false, evidenceMinutes: 60, maxDurationMinutes: 45, callbackUrl: 'https://ci-hooks.lan/topologix',
        pipeline: { pipeline: 'deploy', run: '98765', commit, runUrl: 'https://github.com/acme/checkout/actions/runs/98765', repo: 'acme/checkout', environment: 'production' },
      });
      // The pipeline window was re-stamped at the start: now … now + 45 min.
      expect(Date.parse(c.windowEnd) - Date.parse(c.windowStart)).toBe(45 * 60_000);
      expect(c.windowStart).toBe(c.startedAt);
      const lifecycle = actions(events).filter((a) => !a.startsWith('change.callback_'));
      expect(lifecycle).toEqual(['change.registered', 'change.approval_given', 'change.approval_given', 'change.approved', 'change.started', 'change.completed']);
      // Still being retried: no callback has ended, so none is audited as failed (or delivered) yet.
      expect(actions(events).filter((x) => x.startsWith('change.callback_'))).toEqual([]);
    });

    it('fails at "Wait for approval" with the reason when rejected; Deploy is skipped, Complete still runs', async () => {
      const { job, change } = await github(await ps.token('github-rejected'), sha());
      await job.saw('waiting for approval (0 of 2)');
      await decide('bob', change.id, 'reject', { reason: 'freeze until Monday' });
      const r = await job.done;
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('::error::rejected: freeze until Monday\n');
      expect(r.stdout).toContain('::group::Deploy (skipped)');
      expect(existsSync(join(job.dir, 'deploy.log'))).toBe(false);
      // `if: always()` completes with rolled_back; a rejected change cannot be completed (409): that step fails too.
      expect(r.stdout).toContain('::error::step "Complete the change" failed (22)');
      expect((await changeOf(change.id)).change).toMatchObject({ status: 'rejected', rejectionReason: 'freeze until Monday' });
    });

    it('a failed deploy completes the change as rolled_back', async () => {
      const { job, change } = await github(await ps.token('github-rollback'), sha(), { DEPLOY_EXIT: '1' });
      await job.saw('waiting for approval (0 of 2)');
      await decide('alice', change.id, 'approve');
      await decide('bob', change.id, 'approve');
      const r = await job.done;
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('::error::step "Deploy" failed (1)');
      expect(r.stdout).not.toContain('step "Complete the change" failed');
      expect((await changeOf(change.id)).change).toMatchObject({ status: 'evaluating', outcome: 'rolled_back' });
    });
  });

  // Last in the file: these add a certified template, the standard-by-default policy and freezes to the organisation.
  describe('governance: a standard change runs without approval; a freeze refuses or defers the start', () => {
    const freeze = async (name: string, seconds: number) => {
      const now = Date.now();
      const r = await ps.call('owner', 'POST', '/api/change-windows', {
        name, kind: 'freeze', scope: { type: 'all' },
        schedule: { type: 'once', start: new Date(now - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z'), end: new Date(now + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    };
    const unfreeze = async (id: string) => expect((await ps.call('owner', 'DELETE', `/api/change-windows/${id}`)).status).toBe(204);

    it('GitLab CI to staging under a certified template: standard, L1, no approval; it starts in its window and completes', async () => {
      const drafted = await ps.call('ci', 'POST', '/api/change-templates', {
        name: 'Shop deploy to staging', kind: 'deploy', services: ['checkout-api', 'payments-api'], environments: ['staging'], pipelines: ['acme/*'], maxBlastServices: 10, hops: 1,
      });
      expect(drafted.status, JSON.stringify(drafted.body)).toBe(201);
      expect((await ps.call('alice', 'POST', `/api/change-templates/${drafted.body.id as string}/certify`)).status).toBe(200);
      const me = (await ps.call('owner', 'GET', '/api/session')).body as Json;
      expect((await ps.call('owner', 'PUT', `/api/organizations/${me.organization.id as string}/change-settings`, { changeClassPolicy: 'standard_by_default' })).status).toBe(200);
      const commit = sha();
      const job = runJob(GITLAB, {
        CHANGELEDGER_URL: ps.server.pipelineUrl, CHANGELEDGER_TOKEN: await ps.token('gitlab-standard'),
        CI_PROJECT_NAME: 'shop', CI_PROJECT_PATH: 'acme/shop', CI_COMMIT_SHA: commit, CI_COMMIT_SHORT_SHA: commit.slice(0, 8),
        CI_PIPELINE_ID: '4712', CI_PIPELINE_URL: 'https://gitlab.example.com/acme/shop/-/pipelines/4712', CI_ENVIRONMENT_NAME: 'staging',
      });
      jobs.push(job);
      const change = await ps.changeTitled(`Deploy shop ${commit.slice(0, 8)}`);
      const r = await job.done;
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(readFileSync(join(job.dir, 'deploy.log'), 'utf8')).toContain('while it is active');
      const { change: c, events } = await changeOf(change.id);
      expect(c).toMatchObject({ status: 'evaluating', outcome: 'success', changeClass: 'standard', changeClassSource: 'template', riskTier: 'L1', gated: false, quorum: null });
      expect(c.changeClassReason).toContain('“Shop deploy to staging” v1');
      expect(actions(events)).toEqual(['change.registered', 'change.started', 'change.completed']);
    });

    it('GitHub Actions during a freeze: the approved change’s start is refused (409 naming the freeze); nothing is deployed', async () => {
      const id = await freeze('Black Friday freeze', 600);
      try {
        const { job, change } = await (async () => {
          const commit = sha();
          const j = runJob(GITHUB, {
            CHANGELEDGER_URL: ps.server.pipelineUrl, CHANGELEDGER_TOKEN: await ps.token('github-freeze'),
            GITHUB_SHA: commit, GITHUB_WORKFLOW: 'deploy', GITHUB_RUN_ID: '98766', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/checkout',
          });
          jobs.push(j);
          return { job: j, change: await ps.changeTitled(`Deploy checkout-api ${commit}`) };
        })();
        await job.saw('waiting for approval (0 of 2)');
        await decide('alice', change.id, 'approve');
        expect(await decide('bob', change.id, 'approve')).toMatchObject({ status: 'approved' });
        const r = await job.done;
        expect(r.code).toBe(1);
        expect(r.stdout).toContain('::error::step "Wait for approval" failed (22)');
        expect(r.stdout).toContain('::group::Deploy (skipped)');
        expect(existsSync(join(job.dir, 'deploy.log'))).toBe(false);
        const refused = await ps.call('owner', 'POST', `/api/changes/${change.id}/start`);
        expect(refused.status).toBe(409);
        expect(refused.body.error).toContain('the freeze “Black Friday freeze”');
        expect(refused.body.nextOpening).toEqual(expect.any(String));
        const { change: c, events } = await changeOf(change.id);
        expect(c).toMatchObject({ status: 'approved', changeClass: 'normal', riskTier: 'L2' });
        expect(actions(events)).not.toContain('change.started');
      } finally {
        await unfreeze(id);
      }
    });

    it('GitLab CI with autoStart during a freeze: approved, its start deferred until the freeze ends, then it runs', async () => {
      const id = await freeze('Short freeze', 12);
      try {
        const commit = sha();
        const job = runJob(GITLAB, {
          CHANGELEDGER_URL: ps.server.pipelineUrl, CHANGELEDGER_TOKEN: await ps.token('gitlab-freeze'),
          CI_PROJECT_NAME: 'shop', CI_PROJECT_PATH: 'acme/shop', CI_COMMIT_SHA: commit, CI_COMMIT_SHORT_SHA: commit.slice(0, 8),
          CI_PIPELINE_ID: '4713', CI_PIPELINE_URL: 'https://gitlab.example.com/acme/shop/-/pipelines/4713', CI_ENVIRONMENT_NAME: 'production',
        });
        jobs.push(job);
        const change = await ps.changeTitled(`Deploy shop ${commit.slice(0, 8)}`);
        await job.saw('pending_approval — 0 of 2 approvals');
        await decide('alice', change.id, 'approve');
        // The quorum is reached inside the freeze: approved, and autoStart waits for the freeze to end.
        expect(await decide('bob', change.id, 'approve')).toMatchObject({ status: 'approved' });
        await job.saw('approved — 2 of 2 approvals');
        const r = await job.done;
        expect(r.code, r.stdout + r.stderr).toBe(0);
        const { change: c, events } = await changeOf(change.id);
        expect(c).toMatchObject({ status: 'evaluating', outcome: 'success' });
        expect(actions(events)).toEqual(['change.registered', 'change.approval_given', 'change.approval_given', 'change.approved', 'change.start_deferred', 'change.started', 'change.completed']);
        const deferred = events.find((e) => e.action === 'change.start_deferred')!;
        expect(deferred.data.reason).toContain('the freeze “Short freeze”');
        expect(Date.parse(c.startedAt)).toBeGreaterThanOrEqual(Date.parse(deferred.data.nextOpening));
      } finally {
        await unfreeze(id);
      }
    });
  });
});
