import { Help, Option, type Command } from 'commander';
import type { Static } from 'typebox';
import { badRequest } from '../platform/errors.js';
import { FLAG_TYPES, RISKS } from '../domains/flags/flag.js';
import type * as S from '../domains/flags/flag-schemas.js';
import { ClientFailure, connect, withServerOptions, type ApiClient, type ServerOpts } from './api-client.js';
import { EXIT, table, type Io } from './common.js';

/**
 * `changeledger flags …`, also installed as `flagctl …`. These commands are a client of the running
 * server (its pipeline listener, with an API token): the server holds the store while it runs, and
 * every flag write must land with its change record through the server's one transaction.
 */

type Flag = Static<typeof S.FlagBody>;
type FlagState = Static<typeof S.StateBody>;
type FlagRecord = Static<typeof S.FlagRecordBody>;
type WriteResult = Static<typeof S.WriteResultBody>;
/**
 * What a write answers when the change needs approval first (202 for one flag, an item of the
 * results for a batch). Only the parts printed here are named, so a richer request still fits.
 */
type Proposed = { flag: string; env: string; result: 'proposed'; changeRequest: { id: string; approvalsNeeded: number; approvals?: unknown[] } };
type BulkResult = { correlationId: string; results: Array<WriteResult | Proposed> };
type Page = { items: FlagRecord[]; nextCursor: string | null };

const CLI_SOURCES = ['cli', 'gitops', 'automation'] as const;
const PAGE_MAX = 500;
const LIMIT_MAX = 10_000;
const DEFAULT_BUCKET_BY = 'targetingKey';
const APPROVAL_HINT = 'it applies once approved; approvals are given by signed-in people in the web UI, not with a token\n';

const path = (key: string) => `/api/flags/${encodeURIComponent(key)}`;
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
/** A value as people read it in a table: strings quoted, so "true" and true differ. */
const show = (v: unknown) => (v === undefined ? '-' : JSON.stringify(v));
const collect = (v: string, prev: string[]) => [...prev, v];

function limitOf(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > LIMIT_MAX) throw badRequest(`--limit must be 1 to ${LIMIT_MAX}`, 'limit');
  return n;
}

/** Follows nextCursor until `limit` records are in hand or there are no more. */
async function pages(api: ApiClient, url: string, query: Record<string, string | undefined>, limit: number): Promise<FlagRecord[]> {
  const out: FlagRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = (await api.get<Page>(url, { ...query, limit: Math.min(PAGE_MAX, limit - out.length), cursor })).body;
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && out.length < limit);
  return out.slice(0, limit);
}

function isProposed(r: WriteResult | Proposed): r is Proposed {
  return r.result === 'proposed';
}

function proposedLine(p: Proposed): string {
  const needs = p.changeRequest.approvalsNeeded - (p.changeRequest.approvals?.length ?? 0);
  return `${p.flag} [${p.env}]: change request ${p.changeRequest.id} proposed; needs ${needs} approval(s)`;
}

/** What a flag serves in one environment, for the list: on/off, or the value when not boolean. */
function stateCell(flag: Flag, s: FlagState | undefined): string {
  if (!s) return '-';
  if (!s.enabled) return 'off';
  let cell = flag.type === 'boolean' ? 'on' : show(s.value);
  if (s.rollout) cell += ` ${s.rollout.percentage}%`;
  if (s.rules.length > 0) cell += ` +${s.rules.length} rule${s.rules.length === 1 ? '' : 's'}`;
  return cell;
}

function writeLine(r: WriteResult): string {
  const what = r.result === 'changed' ? `${show(r.record.from)} -> ${show(r.record.to)}` : `unchanged, still ${show(r.record.to)}`;
  return `${r.flag} [${r.env}]: ${what} (recorded #${r.record.seq})`;
}

function recordRows(items: FlagRecord[], withFlag: boolean): string[][] {
  const head = withFlag ? ['TIME', 'ACTOR', 'FLAG', 'ENV', 'FROM -> TO', 'REASON'] : ['TIME', 'ENV', 'CHANGE', 'FROM -> TO', 'ACTOR', 'SOURCE', 'REASON'];
  const rows = items.map((r) =>
    withFlag
      ? [r.ts, r.actor, r.flag, r.env ?? '-', `${show(r.from)} -> ${show(r.to)}`, r.reason || '-']
      : [r.ts, r.env ?? '-', r.change, `${show(r.from)} -> ${show(r.to)}`, r.actor, r.source, r.reason || '-'],
  );
  return [head, ...rows];
}

type SetOpts = ServerOpts & {
  env: string; on?: boolean; off?: boolean; value?: string; rollout?: string; bucketBy?: string;
  reason?: string; source?: (typeof CLI_SOURCES)[number]; commit?: string; deployRun?: string; automation?: string; trigger?: string; json?: boolean;
};

/** The provenance part of a write: gitops names its commit and deploy run, automation itself and its trigger. */
function provenance(o: SetOpts): Record<string, unknown> {
  const source = o.source ?? (o.commit ? 'gitops' : o.automation ? 'automation' : 'cli');
  const meta: Record<string, unknown> = { source, ...(o.reason === undefined ? {} : { reason: o.reason }) };
  if (source === 'gitops') {
    if (!o.commit || !o.deployRun) throw badRequest('--source gitops needs --commit SHA and --deploy-run URL', o.commit ? 'deploy-run' : 'commit');
    meta.gitops = { commitSha: o.commit, deployRun: o.deployRun };
  } else if (o.commit || o.deployRun) {
    throw badRequest('--commit and --deploy-run go with --source gitops', o.commit ? 'commit' : 'deploy-run');
  }
  if (source === 'automation') {
    if (!o.automation || !o.trigger) throw badRequest('--source automation needs --automation NAME and --trigger WHAT', o.automation ? 'trigger' : 'automation');
    meta.automation = { name: o.automation, trigger: o.trigger };
  } else if (o.automation || o.trigger) {
    throw badRequest('--automation and --trigger go with --source automation', o.automation ? 'automation' : 'trigger');
  }
  return meta;
}

/** The state change of `set`: exactly one of --on, --off, --value, --rollout. */
async function patchOf(api: ApiClient, key: string, o: SetOpts): Promise<Record<string, unknown>> {
  const given = (['on', 'off', 'value', 'rollout'] as const).filter((k) => o[k] !== undefined);
  if (given.length !== 1) throw badRequest('say what to change with exactly one of --on, --off, --value JSON or --rollout PERCENT', given[1] ?? 'on');
  if (o.bucketBy !== undefined && o.rollout === undefined) throw badRequest('--bucket-by goes with --rollout', 'bucket-by');
  if (o.on) return { enabled: true };
  if (o.off) return { enabled: false };
  if (o.value !== undefined) {
    try {
      return { value: JSON.parse(o.value) as unknown };
    } catch {
      throw badRequest(`--value must be JSON: true, 42, '"blue"' (a string in quotes) or '{"a":1}'`, 'value');
    }
  }
  const percentage = Number(o.rollout!.replace(/%$/, ''));
  if (!o.rollout!.trim() || !Number.isFinite(percentage) || percentage < 0 || percentage > 100) throw badRequest('--rollout must be a percentage from 0 to 100', 'rollout');
  // Keep the flag's bucketing attribute unless told otherwise: changing it reshuffles who is in.
  let bucketBy = o.bucketBy;
  if (!bucketBy) {
    const flag = (await api.get<Flag>(path(key))).body;
    bucketBy = flag.states.find((s) => s.env === o.env)?.rollout?.bucketBy ?? DEFAULT_BUCKET_BY;
  }
  return { rollout: { percentage, bucketBy } };
}

export function flagCommands(program: Command, io: Io, done: (code: number) => void): void {
  const name = program.name();
  const what = 'feature flags through the running server: list, get, create, set, kill, history, audit';
  const flags = program.command('flags').description(name === 'flagctl' ? what : `${what}; also installed as flagctl`);
  if (name === 'flagctl') {
    // flagctl runs `flags …` underneath; its help should show the words people type.
    const usage = new Help();
    flags.configureHelp({ ...program.configureHelp(), commandUsage: (cmd: Command) => usage.commandUsage(cmd).replace(/^flagctl flags\b/, 'flagctl') });
  }

  /** A client failure carries its own exit code (3: unreachable or rate-limited), so it is reported here. */
  const run =
    <A extends unknown[]>(fn: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      try {
        await fn(...args);
        done(EXIT.ok);
      } catch (err) {
        if (!(err instanceof ClientFailure)) throw err;
        io.err(`${name}: ${err.message}\n`);
        done(err.exitCode);
      }
    };

  withServerOptions(flags.command('list').description('flags and what each serves in every environment'))
    .option('--namespace <pattern>', 'only flags under it, such as ops.payments.* (or one key)')
    .option('--json', 'print a JSON array')
    .action(run(async (o: ServerOpts & { namespace?: string; json?: boolean }) => {
      const api = connect(o);
      const { items } = (await api.get<{ items: Flag[] }>('/api/flags', { namespace: o.namespace })).body;
      if (o.json) return io.out(json(items));
      if (items.length === 0) return io.err('no flags match\n');
      const envs = (await api.get<{ items: Array<{ key: string }> }>('/api/environments')).body.items.map((e) => e.key);
      for (const f of items) for (const s of f.states) if (!envs.includes(s.env)) envs.push(s.env);
      io.out(table([
        ['KEY', 'TYPE', 'RISK', 'OWNER', ...envs.map((e) => e.toUpperCase())],
        ...items.map((f) => [f.key, f.type, f.risk, f.ownerService ?? '-', ...envs.map((e) => stateCell(f, f.states.find((s) => s.env === e)))]),
      ]));
    }));

  withServerOptions(flags.command('get').description('one flag and its state in each environment').argument('<key>'))
    .option('--json', 'print JSON')
    .action(run(async (key: string, o: ServerOpts & { json?: boolean }) => {
      const f = (await connect(o).get<Flag>(path(key))).body;
      if (o.json) return io.out(json(f));
      io.out(`${f.key}  ${f.type}, ${f.risk} risk, owner ${f.ownerService ?? '-'}\n`);
      if (f.description) io.out(`description: ${f.description}\n`);
      if (f.tags.length > 0) io.out(`tags: ${f.tags.join(', ')}\n`);
      io.out(`served when off: ${show(f.offValue)}\n\n`);
      io.out(table([
        ['ENV', 'STATE', 'VALUE', 'ROLLOUT', 'RULES', 'VERSION', 'UPDATED'],
        ...f.states.map((s) => [s.env, s.enabled ? 'on' : 'off', show(s.value), s.rollout ? `${s.rollout.percentage}% by ${s.rollout.bucketBy}` : '-', String(s.rules.length), String(s.version), s.updatedAt]),
      ]));
    }));

  withServerOptions(flags.command('create').description('create a flag, off in every environment').argument('<key>', 'dotted lower-case words: ops.payments.new-processor'))
    .addOption(new Option('--type <type>', 'what it serves').choices(FLAG_TYPES).makeOptionMandatory())
    .addOption(new Option('--risk <risk>', 'high-risk flags need a reason for every change').choices(RISKS).makeOptionMandatory())
    .option('--owner <service>', 'the service that owns it')
    .option('--tag <tag>', 'a tag (repeat for more)', collect, [])
    .option('--description <text>')
    .option('--reason <text>', 'why (required for a high-risk flag: 10 characters, a ticket or a link)')
    .option('--json', 'print JSON')
    .action(run(async (key: string, o: ServerOpts & { type: string; risk: string; owner?: string; tag: string[]; description?: string; reason?: string; json?: boolean }) => {
      const body = {
        key, type: o.type, risk: o.risk, source: 'cli',
        ...(o.owner === undefined ? {} : { ownerService: o.owner }),
        ...(o.tag.length === 0 ? {} : { tags: o.tag }),
        ...(o.description === undefined ? {} : { description: o.description }),
        ...(o.reason === undefined ? {} : { reason: o.reason }),
      };
      const f = (await connect(o).post<Flag>('/api/flags', body)).body;
      if (o.json) return io.out(json(f));
      io.out(`created ${f.key} (${f.type}, ${f.risk} risk), off in ${f.states.map((s) => s.env).join(', ')}\n`);
    }));

  withServerOptions(flags.command('set').description('change a flag in one environment: on, off, its value or its rollout').argument('<key>'))
    .requiredOption('--env <env>', 'the environment, such as production')
    .option('--on', 'turn it on')
    .option('--off', 'turn it off')
    .option('--value <json>', 'what it serves when on, as JSON (quote strings: \'"blue"\')')
    .option('--rollout <percent>', 'serve it to this share of contexts (0–100)')
    .option('--bucket-by <attr>', `context attribute that buckets stably (default: the current one, else ${DEFAULT_BUCKET_BY})`)
    .option('--reason <text>', 'why (required for a high-risk flag: 10 characters, a ticket or a link)')
    .addOption(new Option('--source <source>', 'where the change comes from (default: cli; gitops with --commit)').choices(CLI_SOURCES))
    .option('--commit <sha>', 'gitops: the commit that declared the change')
    .option('--deploy-run <url>', 'gitops: the deploy run that applied it')
    .option('--automation <name>', 'automation: which one writes')
    .option('--trigger <what>', 'automation: what set it off (a pipeline run, a guardrail breach)')
    .option('--json', 'print JSON')
    .action(run(async (key: string, o: SetOpts) => {
      const meta = provenance(o);
      const api = connect(o);
      const patch = await patchOf(api, key, o);
      const { body } = await api.put<WriteResult | Proposed>(`${path(key)}/environments/${encodeURIComponent(o.env)}`, { ...patch, ...meta });
      if (o.json) return io.out(json(body));
      if (!isProposed(body)) return io.out(`${writeLine(body)}\n`);
      io.out(`${proposedLine(body)}\n`);
      io.err(APPROVAL_HINT);
    }));

  withServerOptions(flags.command('kill').description('kill switch: turn off every flag under a namespace in one environment').argument('<namespace>', 'ops.payments.* (or one key)'))
    .requiredOption('--env <env>', 'the environment, such as production')
    .requiredOption('--reason <text>', 'why: an incident or ticket reference')
    .option('--json', 'print JSON')
    .action(run(async (namespace: string, o: ServerOpts & { env: string; reason: string; json?: boolean }) => {
      const bulk = (await connect(o).post<BulkResult>('/api/flags/bulk', { namespace, env: o.env, enabled: false, reason: o.reason, source: 'cli' })).body;
      if (o.json) return io.out(json(bulk));
      const count = { changed: 0, unchanged: 0, proposed: 0 };
      for (const r of bulk.results) {
        count[r.result] += 1;
        const what = isProposed(r)
          ? proposedLine(r)
          : `${r.flag} [${r.env}]: ${r.result === 'changed' ? `changed ${show(r.record.from)} -> ${show(r.record.to)}` : 'unchanged'}, recorded #${r.record.seq}`;
        io.out(`${what}; correlation ${bulk.correlationId}\n`);
      }
      io.err(`${count.changed} turned off, ${count.unchanged} already off${count.proposed ? `, ${count.proposed} waiting for approval` : ''}; correlation id ${bulk.correlationId}\n`);
      if (count.proposed) io.err(APPROVAL_HINT);
    }));

  withServerOptions(flags.command('history').description("one flag's change records, newest first").argument('<key>'))
    .option('--env <env>', 'only this environment')
    .option('--limit <n>', `at most this many records (1–${LIMIT_MAX})`, '100')
    .option('--json', 'print a JSON array')
    .action(run(async (key: string, o: ServerOpts & { env?: string; limit: string; json?: boolean }) => {
      const limit = limitOf(o.limit);
      const items = await pages(connect(o), `${path(key)}/history`, { env: o.env }, limit);
      if (o.json) return io.out(json(items));
      if (items.length === 0) return io.err('no change records match\n');
      io.out(table(recordRows(items, false)));
    }));

  const audit = flags.command('audit').description('flag change records across flags');
  withServerOptions(audit.command('query').description('flag change records, newest first, by namespace, actor, environment and time'))
    .option('--namespace <pattern>', 'ops.payments.* (or one key)')
    .option('--actor <id>', 'actor id: a user id (usr_…) or a token id')
    .option('--env <env>', 'only this environment')
    .option('--since <when>', 'a duration back from now (1h, 7d) or an ISO time')
    .option('--until <when>', 'a duration back from now or an ISO time')
    .option('--limit <n>', `at most this many records, across pages (1–${LIMIT_MAX})`, '100')
    .option('--json', 'print a JSON array of change records')
    .action(run(async (o: ServerOpts & { namespace?: string; actor?: string; env?: string; since?: string; until?: string; limit: string; json?: boolean }) => {
      const limit = limitOf(o.limit);
      const items = await pages(connect(o), '/api/flags/audit', { namespace: o.namespace, actor: o.actor, env: o.env, since: o.since, until: o.until }, limit);
      if (o.json) return io.out(json(items));
      if (items.length === 0) return io.err('no flag changes match\n');
      io.out(table(recordRows(items, true)));
    }));
}
