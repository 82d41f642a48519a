import { Option, type Command } from 'commander';
import { systemClock } from '../platform/clock.js';
import { badRequest } from '../platform/errors.js';
import type { Registered } from '../domains/changes/change-service.js';
import { CHANGE_KINDS, OUTCOMES, PIPELINE_FIELDS, type PipelineInfo } from '../domains/changes/change-store.js';
import type { statusOf } from '../domains/changes/change-view.js';
import { ClientFailure, connect, DEFAULT_SERVER, type ApiClient, type ServerOpts } from './api-client.js';
import { EXIT, table, type Io } from './common.js';
import { listCommand } from './changes-list.js';

/**
 * `changeledger changes …`: what a pipeline runs around a deployment — register, wait for
 * approval, start, complete — as a client of the running server's pipeline listener (an API
 * token with changes:read and changes:write), so a pipeline needs neither curl nor jq.
 */

export type Status = ReturnType<typeof statusOf>;
type One = { change: Registered['change'] };
type AuditEvent = { action: string; data?: { reason?: unknown } };

/** The forms of a report `changes report` prints, and the route each comes from. */
export const REPORT_FORMATS = ['text', 'html', 'csv', 'json'] as const;
type ReportFormat = (typeof REPORT_FORMATS)[number];
const REPORT_EXTENSION: Record<ReportFormat, string> = { text: 'txt', html: 'html', csv: 'csv', json: 'json' };
/** The evidence horizon POST …/evaluate accepts (the spec's 15–1440). */
const EVIDENCE_MINUTES = { min: 15, max: 1440 } as const;

/** Waiting gave up while the change still waited: neither a go nor a no, so its own code. */
export const EXIT_TIMEOUT = 4;
const DEFAULT_TIMEOUT = '4h';
const DEFAULT_INTERVAL = '30s';
const MIN_INTERVAL_MS = 1_000;
const CLEAR_LINE = '\r\x1b[2K';

/** What the server's fields are called on this command line, so a refusal names the option to fix. */
const OPTION_OF: Record<string, string> = {
  title: '--title', kind: '--kind', description: '--description', ticketUrl: '--ticket-url', components: '--component', hops: '--hops',
  startNow: '--start-now', evidenceMinutes: '--surveillance', surveillanceMinutes: '--surveillance', maxDurationMinutes: '--max-duration',
  autoStart: '--auto-start', callbackUrl: '--callback-url', confirmLarge: '--confirm-large', windowEnd: '--max-duration',
  'pipeline.pipeline': '--pipeline', 'pipeline.run': '--pipeline-run', 'pipeline.runUrl': '--pipeline-run-url', 'pipeline.commit': '--pipeline-commit',
  'pipeline.version': '--pipeline-version', 'pipeline.environment': '--pipeline-environment', 'pipeline.repo': '--pipeline-repo',
  emergencyReason: '--emergency-reason', incident: '--incident', template: '--template',
  previousVersion: '--previous-version', previousCommit: '--previous-commit', 'pipeline.baseCommit': '--base-commit', beforeState: '--previous-version',
};

/** Where the change stands for someone waiting on it: keep waiting, go, or stop with the reason. */
export type Assessment = { done: false; line: string } | { done: true; ok: true; line: string } | { done: true; ok: false; reason: string };

function approvalsLine(s: Status): string {
  if (s.approval.approvals === null) return 'no approval required';
  return `${s.approval.approvals} of ${s.approval.required ?? '?'} approval${s.approval.required === 1 ? '' : 's'}`;
}

/**
 * Pure. `why` is the reason the ledger gave for an expiry or a cancellation (the status does not
 * carry it); without it the reason is told from what the status shows.
 */
export function assess(s: Status, why: string | null = null): Assessment {
  const line = (rest: string) => `${s.status} — ${rest}`;
  switch (s.status) {
    case 'approved':
      return { done: true, ok: true, line: line(approvalsLine(s)) };
    case 'active':
      return { done: true, ok: true, line: line(approvalsLine(s)) };
    case 'scheduled':
      // autoStart: it starts by itself when its window opens; otherwise the pipeline may start it now.
      return s.deployment.autoStart
        ? { done: false, line: line(`no approval required; starts at ${s.deployment.windowStart}`) }
        : { done: true, ok: true, line: line('no approval required') };
    case 'pending_mapping': {
      const m = s.mapping;
      return { done: false, line: line(`unrecognised components: ${m?.unresolved.join(', ') ?? '?'} — map them at ${m?.url ?? s.links.change}`) };
    }
    case 'pending_approval': {
      let rest = approvalsLine(s);
      if (s.approval.blockedOn === 'classification') rest += ` — waiting for an approver to classify ${s.classification?.unknown.join(', ') ?? 'its components'} at ${s.classification?.url ?? s.links.approve}`;
      if (s.approval.blockedOn === 'critical_approver') rest += ' — needs a critical approver';
      return { done: false, line: line(rest) };
    }
    case 'draft':
      return { done: false, line: line('not submitted yet') };
    case 'rejected':
      return { done: true, ok: false, reason: `rejected: ${s.approval.reason ?? why ?? 'no reason given'}` };
    case 'expired': {
      const approved = s.approval.approvals !== null && s.approval.required !== null && s.approval.approvals >= s.approval.required;
      return { done: true, ok: false, reason: `expired: ${why ?? (approved ? 'it was approved but not started in time' : `it was not approved in time (${approvalsLine(s)})`)}` };
    }
    case 'cancelled':
      return { done: true, ok: false, reason: `cancelled${why ? `: ${why}` : ''}` };
    case 'evaluating':
    case 'reported':
      return { done: true, ok: false, reason: `it ran already: it is ${s.status} (outcome ${s.deployment.outcome ?? 'unknown'}); register a new change` };
  }
}

/**
 * Pure. For a rollback job blocked on a change (`changes wait --rollback`): go (0) once a rollback is
 * requested — the pipeline redeploys what was there before, then reports it with `changes rollback-done` —
 * or when it is rolled back already; stop (1) when the rollback failed; otherwise keep waiting.
 */
export function assessRollback(s: Status): Assessment {
  const before = s.beforeState.captures.map((x) => x.previousVersion ? `version ${x.previousVersion}` : x.previousCommit ? `commit ${x.previousCommit}` : x.artifactName ?? `an artifact (${x.sha256.slice(0, 12)})`);
  const what = before.length ? `the before-state: ${[...new Set(before)].join(', ')}` : 'no before-state was captured';
  switch (s.rollback.state) {
    case 'requested':
      return { done: true, ok: true, line: `rollback requested at ${s.rollback.requestedAt} — roll back to ${what}` };
    case 'rolled_back':
      return { done: true, ok: true, line: `rolled back at ${s.rollback.completedAt ?? '?'} — nothing left to do` };
    case 'failed':
      return { done: true, ok: false, reason: `its rollback failed at ${s.rollback.completedAt ?? '?'}` };
    default: {
      const d = s.rollback.decision;
      return { done: false, line: `${s.status} — no rollback requested${d ? ` (the sweep: ${d.reason})` : ''}` };
    }
  }
}

/** The pipeline fields GitHub Actions and GitLab CI already know; options given on the command line win. */
export function pipelineFromEnv(env: NodeJS.ProcessEnv): PipelineInfo {
  const pick = (o: Record<string, string | undefined>): PipelineInfo =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as PipelineInfo;
  if (env.GITHUB_ACTIONS === 'true') {
    const runUrl = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : undefined;
    return pick({ pipeline: env.GITHUB_WORKFLOW, run: env.GITHUB_RUN_ID, runUrl, commit: env.GITHUB_SHA, repo: env.GITHUB_REPOSITORY });
  }
  if (env.GITLAB_CI === 'true') {
    return pick({ pipeline: env.CI_PROJECT_PATH, run: env.CI_PIPELINE_ID, runUrl: env.CI_PIPELINE_URL, commit: env.CI_COMMIT_SHA, environment: env.CI_ENVIRONMENT_NAME, repo: env.CI_PROJECT_URL });
  }
  return {};
}

/** `30s`, `5m`, `4h` (or plain seconds). */
export function durationOf(text: string, option: string): number {
  const t = text.trim();
  const m = /^(\d{1,7})([smhd]?)$/.exec(t);
  const ms = m ? Number(m[1]) * { '': 1_000, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as '' | 's' | 'm' | 'h' | 'd'] : NaN;
  if (!Number.isFinite(ms) || ms < MIN_INTERVAL_MS) throw badRequest(`--${option} must be a duration of 1s or more, such as 30s, 5m or 4h`, option);
  return ms;
}

function wholeNumber(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,6}$/.test(text.trim())) throw badRequest(`--${option} must be a whole number`, option);
  return Number(text);
}

/** A whole number option of 1 or more, refused as a usage error (exit 2) naming the option. */
function positive(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,6}$/.test(text.trim()) || Number(text) < 1) throw new ClientFailure(`--${option} must be a whole number`, EXIT.usage, option);
  return Number(text);
}

const TOKEN_HINT =
  'create one with `changeledger tokens create --user ci@example.com --name pipeline --scopes changes:read,changes:write` ' +
  '(where the server keeps its data directory, or with its DATABASE_URL; the server may be running) or in the web UI under API tokens';

/** The flags commands' --server and --token, with this group's scopes in the help. */
function withServerOptions(cmd: Command): Command {
  return cmd
    .option('--server <url>', `the server's pipeline listener (default: $CHANGELEDGER_URL or ${DEFAULT_SERVER})`)
    // No default value here: commander would print it in --help, and the token must never be shown.
    .option('--token <token>', 'API token with changes:read and changes:write; prefer $CHANGELEDGER_TOKEN, since arguments show in ps');
}

function connectTo(o: ServerOpts, env: NodeJS.ProcessEnv): ApiClient {
  if (!(o.token ?? env.CHANGELEDGER_TOKEN ?? '').trim()) throw new ClientFailure(`no API token: pass --token or set CHANGELEDGER_TOKEN; ${TOKEN_HINT}`, EXIT.usage, 'token');
  return connect(o, env);
}

type Step = NonNullable<Status['callback']>;

/** One delivery in a line: what, where it stands, the answer. Pure. */
export function deliveryLine(d: Step | null): string {
  if (!d) return '-';
  const answer = d.httpStatus !== null ? ` (HTTP ${d.httpStatus})` : '';
  const next = d.state === 'retrying' && d.nextAttemptAt ? `, next attempt ${d.nextAttemptAt}` : '';
  const error = d.state !== 'delivered' && d.error ? ` — ${d.error}` : '';
  const note = d.note ? ` — ${d.note}` : '';
  return `${d.event} ${d.state}${answer}${next}${error}${note}`;
}

/** The ticket and its last step. Pure. */
export function ticketLine(t: Status['ticket']): string {
  if (!t) return '-';
  const ref = t.key ? `${t.kind} ${t.key}${t.url ? ` ${t.url}` : ''}` : `${t.kind ?? 'ticket'} (not opened yet)`;
  const last = t.steps.at(-1);
  return last ? `${ref}; last step ${deliveryLine(last)}` : ref;
}

const statusPath = (id: string) => `/api/changes/${encodeURIComponent(id)}`;
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const collect = (v: string, prev: string[]) => [...prev, v];

/** A change by its id (chg_…) or the CHG-… display id people read on the page. */
async function resolveId(api: ApiClient, given: string): Promise<string> {
  if (!/^CHG-[0-9A-F]{8}$/i.test(given)) return given;
  const { changes } = (await api.get<{ changes: Array<{ id: string; displayId: string }> }>('/api/changes', { q: given.toUpperCase(), limit: 200 })).body;
  const hits = changes.filter((c) => c.displayId === given.toUpperCase());
  if (hits.length === 0) throw new ClientFailure(`no change ${given}`, EXIT.usage, 'id');
  if (hits.length > 1) throw new ClientFailure(`${given} names ${hits.length} changes; use the id (chg_…)`, EXIT.usage, 'id');
  return hits[0]!.id;
}

/** The reason the ledger recorded for an expiry or a cancellation; null when it cannot be read. */
async function recordedReason(api: ApiClient, s: Status): Promise<string | null> {
  if (s.status !== 'expired' && s.status !== 'cancelled') return null;
  try {
    const { events } = (await api.get<{ events?: AuditEvent[] }>(statusPath(s.id), { include: 'events' })).body;
    const reason = [...(events ?? [])].reverse().find((e) => e.action === `change.${s.status}`)?.data?.reason;
    return typeof reason === 'string' && reason.trim() ? reason : null;
  } catch {
    return null;
  }
}

type WaitOpts = { timeoutMs: number; intervalMs: number; tty: boolean; program: string; finalTo: 'out' | 'err'; rollback?: boolean; json?: boolean };

/**
 * Polls /status until the change may go (0), will not (1, with the reason) or the time is up (4).
 * Progress goes to standard error — one live line on a terminal, a line per change otherwise —
 * so standard output stays for the result. An unreachable or busy server is retried until the end.
 */
export async function waitFor(api: ApiClient, given: string, io: Io, o: WaitOpts): Promise<number> {
  const started = systemClock.now().getTime();
  let last = '';
  // The last state read, and why the last poll read none (said when the time is up).
  let state = '';
  let failure = '';
  let id: string | null = null;
  let displayId = given;
  let live = false;
  const show = (line: string) => {
    if (o.tty) {
      const waited = Math.round((systemClock.now().getTime() - started) / 1000);
      io.err(`${CLEAR_LINE}${line} (${waited}s)`);
      live = true;
    } else if (line !== last) io.err(`${line}\n`);
    last = line;
  };
  const clear = () => {
    if (live) io.err(CLEAR_LINE);
    live = false;
  };
  for (;;) {
    try {
      // A CHG- id is looked up inside the loop, so a server that cannot be reached yet is retried here too.
      id ??= await resolveId(api, given);
      const s = (await api.get<Status>(`${statusPath(id)}/status`)).body;
      displayId = s.displayId;
      failure = '';
      const a = o.rollback ? assessRollback(s) : assess(s);
      if (a.done && a.ok) {
        clear();
        if (o.rollback && o.json) {
          io.err(`${a.line}\n`);
          io.out(json({ id: s.id, displayId: s.displayId, rollback: s.rollback, beforeState: s.beforeState, pipeline: s.pipeline }));
        } else (o.finalTo === 'out' ? io.out : io.err)(`${a.line}\n`);
        return EXIT.ok;
      }
      if (a.done && o.rollback) {
        clear();
        io.err(`${o.program}: ${displayId} ${a.ok ? '' : a.reason}\n`);
        return EXIT.failed;
      }
      if (a.done) {
        const b = assess(s, await recordedReason(api, s));
        clear();
        io.err(`${o.program}: ${displayId} ${b.done && !b.ok ? b.reason : a.reason}\n`);
        return EXIT.failed;
      }
      state = a.line;
      show(a.line);
    } catch (err) {
      if (!(err instanceof ClientFailure) || err.exitCode !== EXIT.unavailable) {
        clear();
        throw err;
      }
      failure = err.message;
      show(`${err.message}; trying again`);
    }
    const left = o.timeoutMs - (systemClock.now().getTime() - started);
    if (left <= 0) {
      clear();
      const where = failure ? `${state ? `${displayId} was last ${state}; ` : ''}the last try failed: ${failure}` : `${displayId} is still ${state}`;
      io.err(`${o.program}: gave up waiting after ${Math.round(o.timeoutMs / 1000)}s: ${where}\n`);
      return EXIT_TIMEOUT;
    }
    await sleep(Math.min(o.intervalMs, left));
  }
}

type RegisterOpts = ServerOpts & {
  title: string; component: string[]; componentKey: string[]; kind?: string; description?: string; ticketUrl?: string; hops?: string;
  maxDuration?: string; surveillance?: string; autoStart?: boolean; startNow?: boolean; callbackUrl?: string; confirmLarge?: boolean;
  pipeline?: string; pipelineRun?: string; pipelineRunUrl?: string; pipelineCommit?: string; pipelineVersion?: string; pipelineEnvironment?: string; pipelineRepo?: string;
  wait?: boolean; timeout: string; interval: string; json?: boolean;
  template?: string; emergency?: boolean; emergencyReason?: string; incident?: string;
  previousVersion?: string; previousCommit?: string; baseCommit?: string;
};

export function registerBody(o: RegisterOpts, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const given: PipelineInfo = Object.fromEntries(Object.entries({
    pipeline: o.pipeline, run: o.pipelineRun, runUrl: o.pipelineRunUrl, commit: o.pipelineCommit, version: o.pipelineVersion, environment: o.pipelineEnvironment, repo: o.pipelineRepo,
    baseCommit: o.baseCommit,
  }).filter(([, v]) => v !== undefined));
  const pipeline = { ...pipelineFromEnv(env), ...given };
  const optional = {
    kind: o.kind, description: o.description, ticketUrl: o.ticketUrl, hops: wholeNumber(o.hops, 'hops'), maxDurationMinutes: wholeNumber(o.maxDuration, 'max-duration'),
    surveillanceMinutes: wholeNumber(o.surveillance, 'surveillance'), autoStart: o.autoStart, startNow: o.startNow, callbackUrl: o.callbackUrl, confirmLarge: o.confirmLarge,
    pipeline: Object.keys(pipeline).length ? pipeline : undefined,
    template: o.template, emergency: o.emergency, emergencyReason: o.emergencyReason, incident: o.incident,
    previousVersion: o.previousVersion, previousCommit: o.previousCommit,
  };
  return {
    title: o.title,
    components: [...o.component.map((query) => ({ query })), ...o.componentKey.map((key) => ({ key }))],
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

/** The server's refusal, with the option of this command that the faulty field comes from. */
function withOption(err: ClientFailure): ClientFailure {
  const key = err.field?.replace(/^components\.\d+$/, 'components');
  const option = key ? OPTION_OF[key] : /confirmLarge/.test(err.message) ? OPTION_OF.confirmLarge : undefined;
  if (!option) return err;
  const message = err.field && err.message.endsWith(`(field: ${err.field})`) ? `${err.message.slice(0, -1)}, option ${option})` : `${err.message} (option ${option})`;
  return new ClientFailure(message, err.exitCode, err.field);
}

export type ChangeCommandOpts = { tty?: boolean; env?: NodeJS.ProcessEnv };

export function changeCommands(program: Command, io: Io, done: (code: number) => void, opts: ChangeCommandOpts = {}): void {
  const name = program.name();
  const env = opts.env ?? process.env;
  const tty = opts.tty ?? Boolean(process.stderr.isTTY);
  const changes = program.command('changes').description('register a change from a pipeline, wait for its approval, start and complete it (through the running server)');

  /** A client failure carries its own exit code (3: unreachable or rate-limited), so it is reported here. */
  const run =
    <A extends unknown[]>(fn: (...args: A) => Promise<number | void>) =>
    async (...args: A): Promise<void> => {
      try {
        done((await fn(...args)) ?? EXIT.ok);
      } catch (err) {
        if (!(err instanceof ClientFailure)) throw err;
        io.err(`${name}: ${err.message}\n`);
        done(err.exitCode);
      }
    };
  const waitOptions = (cmd: Command) => cmd
    .option('--timeout <duration>', 'give up (exit 4) after this long', DEFAULT_TIMEOUT)
    .option('--interval <duration>', 'poll this often (the token may make 60 requests a minute)', DEFAULT_INTERVAL);

  waitOptions(withServerOptions(changes.command('register').description('register a change; prints its id and display id (and, with --callback-url, the callback secret, once)'))
    .requiredOption('--title <text>', 'what changes, such as "Deploy checkout-api 1.4.2"')
    .option('--component <name>', 'a component by name, as the catalogue knows it (repeat for more)', collect, [])
    .option('--component-key <key>', 'a component by catalogue key, such as svc:checkout-api (repeat for more)', collect, [])
    .addOption(new Option('--kind <kind>', 'what kind of change (default: other)').choices(CHANGE_KINDS))
    .option('--description <text>')
    .option('--ticket-url <url>')
    .option('--hops <n>', 'how far the blast radius reaches: 1 or 2 calls (default 1)')
    .option('--max-duration <minutes>', 'a pipeline window: now … now + minutes, re-stamped when the change starts')
    .option('--surveillance <minutes>', 'the evidence horizon after completion (default: the organisation’s)')
    .option('--auto-start', 'start the moment it is approved')
    .option('--start-now', 'start at once when no approval is required')
    .option('--callback-url <url>', 'http(s) URL that receives a signed callback at every step')
    .option('--confirm-large', 'register even when the blast radius has 100 services or more')
    .option('--pipeline <name>', 'the pipeline (in GitHub Actions and GitLab CI these fields default to the run’s own)')
    .option('--pipeline-run <id>')
    .option('--pipeline-run-url <url>')
    .option('--pipeline-commit <sha>')
    .option('--pipeline-version <version>')
    .option('--pipeline-environment <env>')
    .option('--pipeline-repo <repo>')
    .option('--previous-version <version>', 'the version running before the change: its before-state (production changes need one to start)')
    .option('--previous-commit <sha>', 'the commit running before the change: its before-state')
    .option('--base-commit <sha>', 'the repository commit the change starts from, which is its before-state')
    .option('--template <name>', 'a certified standard-change template that covers the change: it is standard (no approval at L1)')
    .option('--emergency', 'an emergency change: needs --emergency-reason and --incident or --ticket-url; L3 (two approvers), may pass a closed window once approved')
    .option('--emergency-reason <text>', 'why it cannot wait (at least 5 characters)')
    .option('--incident <id-or-url>', 'the incident the emergency answers')
    .option('--wait', 'then wait as `changes wait` does (for active with --auto-start)')
    .option('--json', 'print the registration as JSON'))
    .action(run(async (o: RegisterOpts) => {
      const body = registerBody(o, env);
      const wait = o.wait ? { timeoutMs: durationOf(o.timeout, 'timeout'), intervalMs: durationOf(o.interval, 'interval') } : null;
      const api = connectTo(o, env);
      let r: Registered;
      try {
        r = (await api.post<Registered>('/api/changes', body)).body;
      } catch (err) {
        throw err instanceof ClientFailure ? withOption(err) : err;
      }
      const c = r.change;
      if (o.json) io.out(json(r));
      else {
        io.out(`${c.id} ${c.displayId}\n`);
        if (r.callbackSecret) io.out(`${r.callbackSecret}\n`);
      }
      let state: string = c.status;
      try {
        const a = assess((await api.get<Status>(`${statusPath(c.id)}/status`)).body);
        state = a.done && !a.ok ? a.reason : a.line;
      } catch (err) {
        // Registered all the same (its id is printed): a token without changes:read only loses this line.
        if (!(err instanceof ClientFailure)) throw err;
      }
      io.err(`registered ${c.displayId} "${c.title}": ${state}\n`);
      if (r.governance) io.err(`class ${r.governance.changeClass}, tier ${r.governance.riskTier} (${r.governance.riskReason}); ${r.governance.policy}\n`);
      for (const w of r.windows?.conflicts ?? []) io.err(`window: ${w.reason}\n`);
      const warning = r.approval?.warning;
      if (typeof warning === 'string') io.err(`warning: ${warning}\n`);
      if (r.callbackSecret && !o.json) io.err('the callback secret (the second line) is shown only now: give it to your callback receiver\n');
      if (!wait) return EXIT.ok;
      return waitFor(api, c.id, io, { ...wait, tty, program: name, finalTo: o.json ? 'err' : 'out' });
    }));

  waitOptions(withServerOptions(changes.command('wait').description('wait until the change is approved or active (exit 0); exit 1 when it is rejected, expired or cancelled, 4 on timeout').argument('<id>', 'chg_… or CHG-…')))
    .option('--rollback', 'instead, wait until a rollback of the change is requested (exit 0, with its before-state; --json prints it as JSON); exit 1 when the rollback failed')
    .option('--json', 'with --rollback: the rollback and before-state as JSON on stdout')
    .action(run(async (given: string, o: ServerOpts & { timeout: string; interval: string; rollback?: boolean; json?: boolean }) => {
      const timeoutMs = durationOf(o.timeout, 'timeout');
      const intervalMs = durationOf(o.interval, 'interval');
      const api = connectTo(o, env);
      return waitFor(api, given, io, { timeoutMs, intervalMs, tty, program: name, finalTo: 'out', rollback: o.rollback ?? false, json: o.json ?? false });
    }));

  withServerOptions(changes.command('rollback-done').description('report a requested rollback done (or --failed): the pipeline that rolled the change back').argument('<id>', 'chg_… or CHG-…'))
    .option('--failed', 'the rollback did not work')
    .option('--notes <text>', 'what was done')
    .action(run(async (given: string, o: ServerOpts & { failed?: boolean; notes?: string }) => {
      const api = connectTo(o, env);
      const id = await resolveId(api, given);
      const c = (await api.post<One>(`${statusPath(id)}/rollback/complete`, { result: o.failed ? 'failed' : 'rolled_back', ...(o.notes === undefined ? {} : { notes: o.notes }) })).body.change;
      io.out(`${c.displayId} ${o.failed ? 'rollback failed' : 'rolled back'}\n`);
      return EXIT.ok;
    }));

  withServerOptions(changes.command('start').description('start an approved or scheduled change now (a change already active is left as it is)').argument('<id>', 'chg_… or CHG-…'))
    .action(run(async (given: string, o: ServerOpts) => {
      const api = connectTo(o, env);
      const id = await resolveId(api, given);
      const { change: c, started } = (await api.post<One & { started?: boolean }>(`${statusPath(id)}/start`, {})).body;
      // The server leaves a change that is active already as it is (an earlier start, its window, or
      // autoStart on approval) and says so: report that rather than claim this start.
      if (started === false) io.out(`${c.displayId} is already active (started ${c.startedAt}), until ${c.windowEnd}\n`);
      else io.out(`started ${c.displayId}: active until ${c.windowEnd}\n`);
      return EXIT.ok;
    }));

  withServerOptions(changes.command('complete').description('complete a running change: it enters surveillance, and the report follows').argument('<id>', 'chg_… or CHG-…'))
    .addOption(new Option('--outcome <outcome>', 'how the deployment went').choices(OUTCOMES).default('success'))
    .option('--notes <text>', 'what happened, for the report')
    .action(run(async (given: string, o: ServerOpts & { outcome: string; notes?: string }) => {
      const api = connectTo(o, env);
      const id = await resolveId(api, given);
      const c = (await api.post<One>(`${statusPath(id)}/complete`, { outcome: o.outcome, ...(o.notes === undefined ? {} : { notes: o.notes }) })).body.change;
      io.out(`completed ${c.displayId} (outcome ${c.outcome ?? 'unknown'}): under surveillance until ${c.evaluateAt ?? '?'}\n`);
    }));

  withServerOptions(changes.command('report').description('print a report version of a change: the stored HTML, text or CSV, or the JSON with its evidence').argument('<id>', 'chg_… or CHG-…'))
    .option('--version <n>', 'the report version (default: the latest)')
    .addOption(new Option('--format <format>', 'which form to print').choices(REPORT_FORMATS).default('text'))
    .action(run(async (given: string, o: ServerOpts & { version?: string; format: ReportFormat }) => {
      const version = positive(o.version, 'version');
      const api = connectTo(o, env);
      const path = `${statusPath(await resolveId(api, given))}/report.${REPORT_EXTENSION[o.format]}`;
      const query = { version };
      if (o.format === 'json') return void io.out(json((await api.get<unknown>(path, query)).body));
      const text = (await api.getText(path, query)).body;
      io.out(text.endsWith('\n') ? text : `${text}\n`);
    }));

  withServerOptions(changes.command('evaluate').description('re-evaluate a reported change: a new report version over the same window (at once when its horizon has passed)').argument('<id>', 'chg_… or CHG-…'))
    .option('--evidence-minutes <n>', `a new evidence horizon after finish, ${EVIDENCE_MINUTES.min}–${EVIDENCE_MINUTES.max} minutes (default: the change's own)`)
    .action(run(async (given: string, o: ServerOpts & { evidenceMinutes?: string }) => {
      const minutes = positive(o.evidenceMinutes, 'evidence-minutes');
      if (minutes !== undefined && (minutes < EVIDENCE_MINUTES.min || minutes > EVIDENCE_MINUTES.max)) {
        throw new ClientFailure(`--evidence-minutes must be from ${EVIDENCE_MINUTES.min} to ${EVIDENCE_MINUTES.max}`, EXIT.usage, 'evidence-minutes');
      }
      const api = connectTo(o, env);
      const id = await resolveId(api, given);
      let c: One['change'];
      try {
        c = (await api.post<One>(`${statusPath(id)}/evaluate`, minutes === undefined ? {} : { evidenceMinutes: minutes })).body.change;
      } catch (err) {
        throw err instanceof ClientFailure && err.field === 'evidenceMinutes' ? new ClientFailure(`${err.message} (option --evidence-minutes)`, err.exitCode, err.field) : err;
      }
      io.out(`re-evaluating ${c.displayId} (${c.status}): the next report version is due ${c.evaluateAt ?? 'now'}\n`);
    }));

  listCommand(changes, { io, run, withServerOptions, connectTo: (o) => connectTo(o, env) });

  withServerOptions(changes.command('status').description('where a change stands: approval, deployment, surveillance').argument('<id>', 'chg_… or CHG-…'))
    .option('--json', 'print the status as JSON (the shape callbacks carry)')
    .action(run(async (given: string, o: ServerOpts & { json?: boolean }) => {
      const api = connectTo(o, env);
      const s = (await api.get<Status>(`${statusPath(await resolveId(api, given))}/status`)).body;
      if (o.json) return void io.out(json(s));
      const a = assess(s, await recordedReason(api, s));
      const d = s.deployment;
      // In the order of the fields, whichever order the engine's jsonb keeps them in.
      const pipeline = PIPELINE_FIELDS.filter((k) => s.pipeline?.[k] !== undefined).map((k) => `${k}=${s.pipeline![k]}`).join(' ');
      io.out(`${s.displayId}  ${s.title}\n`);
      io.out(table([
        ['status', a.done && !a.ok ? `${s.status} — ${a.reason}` : a.line],
        ['approval', `${s.approval.state}${s.approval.expiresAt ? `, deadline ${s.approval.expiresAt}` : ''}${s.approval.decidedAt ? `, decided ${s.approval.decidedAt}` : ''}`],
        ['criticality', s.criticality ? `${s.criticality} (${s.criticalitySource ?? '?'})` : '-'],
        ['window', `${d.windowStart} → ${d.windowEnd}${d.autoStart ? ' (auto-start)' : ''}`],
        ['deployment', `started ${d.startedAt ?? '-'}, finished ${d.finishedAt ?? '-'}, outcome ${d.outcome ?? '-'}`],
        ['surveillance', `${s.surveillance.minutes} min, evaluate at ${s.surveillance.evaluateAt ?? '-'}, impact ${s.surveillance.impact ?? '-'}${s.surveillance.aiImpact ? `, AI ${s.surveillance.aiImpact}` : ''}`],
        ['pipeline', pipeline || '-'],
        ['callback', deliveryLine(s.callback)],
        ['ticket', ticketLine(s.ticket)],
        ['link', s.links.change],
      ]));
    }));
}
