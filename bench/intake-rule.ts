/**
 * Part (c) of `npm run bench -- intake`: what the reference rule costs the intake.
 *
 * Goal (the issue): with the rule on, 500 active planned changes and 1,000 authorized-principal
 * globs, the rule costs at most 20 % of intake throughput, measured side by side with the rule off.
 *
 * Two organisations with identical data: the same catalogue, the same 500 active planned changes
 * (registered through ChangeService.register, startNow, approval not required), the same 1,000
 * globs; one has the rule on, the other off. Each round the same two batches (the same bytes,
 * fresh event ids and a fresh UTC hour a round) go through IntakeService.receive into each, in
 * alternating order.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { compose, type Services } from '../src/compose.js';
import type { AuditContext } from '../src/domains/ledger/index.js';
import type { RecordPrincipal } from '../src/domains/changes/change-feed.js';
import { principalMatcher } from '../src/domains/observed/unmanaged/reference-rule.js';
import { SettableClock } from '../src/platform/clock.js';
import { createSealer } from '../src/platform/crypto/sealed.js';
import type { Database, Engine } from '../src/platform/db/database.js';
import { createLogger } from '../src/platform/logger.js';
import { JobWorker } from '../src/platform/jobs/job-worker.js';
import { createOutboundClient } from '../src/platform/net/outbound.js';
import type { BenchEngine, Skipped } from './bench-engines.js';
import { counting, int, ms, say, seededRandom, seconds, table } from './bench-support.js';
import { addSource, auditEventList, cloudTrailBatch, HOUR0, read, type Source } from './intake-batches.js';

export type RuleOptions = { audit: number; trail: number; rounds: number; changes: number; globs: number };

/** What the goal allows: the rule may cost at most 20 % of the throughput with it off. */
export const GOAL_RATIO = 0.8;
const HOUR = 3_600_000;
/** Changes start an hour before the first batch; an active change vouches until now. */
const REGISTERED_AT = HOUR0 - HOUR;
/** Batch principals the globs list: the Jenkins deployer and the AWS deploy role (2 of the 9). */
const MATCHING_GLOBS = ['system:serviceaccount:jenkins:*', 'arn:aws:iam::123456789012:role/deploy*'];
/** Services of the batches that some planned change covers: half the patched deployments, 2 of the 3 SQS queues. */
const COVERED = [...Array.from({ length: 20 }, (_, i) => `app-${i}`), 'orders-0', 'orders-1'];
/**
 * The rest of what the batches touch: in the catalogue, in nobody's scope. (A Lambda function is
 * matched by no name of the event, so checkout-N stays unmapped, as SSM parameters and instances do.)
 */
const UNCOVERED = [...Array.from({ length: 20 }, (_, i) => `app-${20 + i}`), 'orders-2', ...Array.from({ length: 5 }, (_, i) => `checkout-${i}`)];

const setupCtx: AuditContext = { actor: { kind: 'system', id: null, name: 'bench setup' }, source: 'cli' };
const ctx: AuditContext = { actor: { kind: 'service', id: null, name: 'bench sender' }, source: 'webhook' };

/**
 * 1,000 globs as organisations write them: deploy roles per AWS account, CI namespaces' service
 * accounts, GitHub Actions roles per repository, Terraform sessions, named service accounts,
 * Azure DevOps service principals; two of them match principals of the batches, none a person.
 */
export function authorizedGlobs(n: number): string[] {
  const rnd = seededRandom(20_260_302);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const account = () => {
    let a = '';
    do a = String(100_000_000_000 + Math.floor(rnd() * 899_999_999_999)); while (a === '123456789012');
    return a;
  };
  const teams = ['payments', 'search', 'ledger', 'identity', 'mobile', 'data', 'platform', 'growth', 'risk', 'billing', 'catalog', 'edge'];
  const words = ['api', 'web', 'worker', 'batch', 'stream', 'gateway', 'auth', 'etl', 'ml', 'infra', 'ops', 'core'];
  const out = new Set<string>();
  for (let i = 0; out.size < n - Math.min(n, MATCHING_GLOBS.length); i++) {
    const team = pick(teams);
    const ns = `${team}-${pick(words)}-${i % 97}`;
    switch (i % 7) {
      case 0: out.add(`arn:aws:iam::${account()}:role/deploy-*`); break;
      case 1: out.add(`system:serviceaccount:${ns}:*`); break;
      case 2: out.add(`arn:aws:iam::${account()}:role/github-actions-${team}-${pick(words)}-${i}`); break;
      case 3: out.add(`arn:aws:sts::${account()}:assumed-role/terraform-${team}-*/*`); break;
      case 4: out.add(`system:serviceaccount:${ns}:${pick(['argo-workflow', 'tekton-runner', 'ci-deployer', 'release-bot'])}`); break;
      case 5: out.add(`sp-${team}-${pick(words)}-deploy-${i}`); break;
      default: out.add(`arn:aws:iam::${account()}:role/${team}-cd-*`); break;
    }
  }
  // The two that match, somewhere in the list rather than first.
  const list = [...out];
  for (const g of MATCHING_GLOBS.slice(0, n)) list.splice(Math.floor(rnd() * (list.length + 1)), 0, g);
  return list;
}

/** The catalogue: the services the batches touch, and three more per planned change for the changes that cover none of them. */
function estate(changes: number): string {
  const lines = ['entities:'];
  for (const s of [...COVERED, ...UNCOVERED]) lines.push(`  - { key: "svc:${s}", kind: service, name: ${s}, tier: standard }`);
  for (let i = 0; i < changes * 3; i++) lines.push(`  - { key: "svc:f-${i}", kind: service, name: f-${i}, tier: standard }`);
  return lines.join('\n');
}

/**
 * Each change's components: 8 changes (COVERING) spread through the list cover the batches' covered services
 * (3 each); every other change 3 services of its own that no batch touches.
 */
const COVERING = Math.ceil(COVERED.length / 3);

function componentsOf(changes: number): string[][] {
  const covering = Math.min(COVERING, changes);
  const at = new Map(Array.from({ length: covering }, (_, j) => [Math.floor((j * changes) / covering), j] as const));
  return Array.from({ length: changes }, (_, i) => {
    const j = at.get(i);
    return j === undefined ? [0, 1, 2].map((k) => `svc:f-${i * 3 + k}`) : COVERED.slice(j * 3, j * 3 + 3).map((s) => `svc:${s}`);
  });
}

type Org = { id: string; name: 'on' | 'off'; k8s: Source; aws: Source };

async function organisation(services: Services, name: 'on' | 'off', o: RuleOptions, globs: string[]): Promise<Org & { registerMs: number }> {
  const { org, owner } = await services.auth.createOrganizationWithOwner(setupCtx, { name: `Reference rule ${name}`, email: `owner@rule-${name}.bench` });
  const m = { org, user: owner, role: 'owner' as const };
  await services.catalogue.importText(setupCtx, org.id, 'changeledger', estate(o.changes), 'bench');
  // No approval needed: a change registered with startNow is active at once.
  await services.changeSettings.update(setupCtx, m, { approvalRequired: 'none' });
  const { secret } = await services.auth.createToken(setupCtx, { org, user: owner }, { name: 'bench', scopes: ['changes:read', 'changes:write'] });
  const p = (await services.auth.authenticateToken(secret))!;
  const t0 = performance.now();
  for (const [i, keys] of componentsOf(o.changes).entries()) {
    const r = await services.changes.register(setupCtx, p, { title: `Bench change ${i}`, components: keys.map((key) => ({ key })), startNow: true, maxDurationMinutes: 24 * 60 });
    if (r.change.status !== 'active') throw new Error(`intake benchmark (c): change ${i} is ${r.change.status}, not active`);
  }
  const registerMs = performance.now() - t0;
  // The same globs on both sides: only the switch differs.
  await services.unmanaged.updateSettings(setupCtx, { org: { id: org.id }, role: 'owner' }, { referenceRule: name === 'on', authorizedPrincipals: globs });
  const k8s = await addSource(services.db, org.id, 'kubernetes', { cluster: 'prod-eu' });
  const aws = await addSource(services.db, org.id, 'aws', {});
  return { id: org.id, name, k8s, aws, registerMs };
}

/** What the rule did with one round's writes in one organisation, read back after the timing. */
export type RuleCounts = {
  recorded: number; denied: number; judged: number; flagged: number;
  byReference: Record<string, number>;
  casesUnauthorized: number; casesDenied: number; unauthorizedAudits: number; caseAudits: number; mails: number;
  principals: number; principalsMatching: number;
};

async function countsOf(db: Database, org: Org, hour0: number, before: Map<string, number>, matcher: ReturnType<typeof principalMatcher>): Promise<RuleCounts> {
  const range = [org.id, new Date(hour0).toISOString(), new Date(hour0 + HOUR).toISOString()];
  const rows = await db.query<{ denied: boolean; authorized: boolean | null; reference: string | null; n: number }>(
    'SELECT denied, authorized, reference, count(*)::int AS n FROM observed_changes WHERE org_id = $1 AND occurred_at >= $2 AND occurred_at < $3 GROUP BY 1, 2, 3', range);
  const c: RuleCounts = { recorded: 0, denied: 0, judged: 0, flagged: 0, byReference: {}, casesUnauthorized: 0, casesDenied: 0, unauthorizedAudits: 0, caseAudits: 0, mails: 0, principals: 0, principalsMatching: 0 };
  for (const r of rows.rows) {
    if (r.denied) c.denied += r.n;
    else c.recorded += r.n;
    if (r.authorized !== null) c.judged += r.n;
    if (r.authorized === false) c.flagged += r.n;
    if (r.reference) c.byReference[r.reference] = (c.byReference[r.reference] ?? 0) + r.n;
  }
  const cases = await db.query<{ kind: string; n: number }>('SELECT kind, count(*)::int AS n FROM unmanaged_cases WHERE org_id = $1 AND hour >= $2 AND hour < $3 GROUP BY 1', range);
  for (const r of cases.rows) if (r.kind === 'denied_access') c.casesDenied = r.n; else c.casesUnauthorized += r.n;
  const after = await tallies(db, org.id);
  const delta = (k: string) => (after.get(k) ?? 0) - (before.get(k) ?? 0);
  c.unauthorizedAudits = delta('change.unauthorized_detected');
  c.caseAudits = delta('case.opened') + delta('case.reopened');
  c.mails = delta('jobs');
  // The batch's principals (applied writes), and how many of them a glob lists.
  const who = await db.query<{ principal: RecordPrincipal }>(
    'SELECT DISTINCT ON (principal->>\'name\') principal FROM observed_changes WHERE org_id = $1 AND occurred_at >= $2 AND occurred_at < $3 AND NOT denied', range);
  c.principals = who.rows.length;
  c.principalsMatching = who.rows.filter((r) => matcher.match(r.principal) !== null).length;
  return c;
}

/** Audit events by action, and the organisation's queued jobs (the cases' mails), to count what a round added (untimed). */
async function tallies(db: Database, orgId: string): Promise<Map<string, number>> {
  const a = await db.query<{ action: string; n: number }>('SELECT action, count(*)::int AS n FROM audit_events WHERE org_id = $1 GROUP BY 1', [orgId]);
  const j = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE org_id = $1 AND kind = 'mail.send'", [orgId]);
  return new Map([...a.rows.map((r) => [r.action, r.n] as const), ['jobs', j.rows[0]?.n ?? 0]]);
}

/** One side of a round: both batches, each timed, the rule's context and the cases timed inside them, and the statements sent. */
type Side = { ms: number; k8s: number; aws: number; context: number; cases: number; statements: number; notify: number; counts: RuleCounts };
export type RuleRound = { on: Side; off: Side; onFirst: boolean };
export type RuleDone = { rounds: RuleRound[]; registerMs: number; changes: number; globs: number; events: number };

export async function ruleOnEngine(engine: BenchEngine, o: RuleOptions): Promise<RuleDone> {
  const clock = new SettableClock(new Date(REGISTERED_AT));
  // Statements are counted (BEGIN and COMMIT included) to say where the rule's round trips are.
  const counted = counting(engine.db);
  const services: Services = compose({
    db: counted.db, clock, logger: createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) }), sealer: createSealer(randomBytes(32)),
    outbound: { client: createOutboundClient(), allowPrivate: false },
  });
  const globs = authorizedGlobs(o.globs);
  const matcher = principalMatcher(globs);
  const s0 = performance.now();
  const on = await organisation(services, 'on', o, globs);
  const off = await organisation(services, 'off', o, globs);
  say(`  [${engine.name}] (c) two organisations, each ${int(o.changes)} active planned changes registered through ChangeService.register (${seconds(on.registerMs + off.registerMs)}; setup ${seconds(performance.now() - s0)}), ${int(globs.length)} globs`);

  // Where the rule's time goes, without touching src/: the intake calls these two instances (compose passes them in).
  const spent = { context: 0, cases: 0 };
  const timed = <A extends unknown[], R>(fn: (...a: A) => Promise<R>, key: keyof typeof spent) => async (...a: A): Promise<R> => {
    const t0 = performance.now();
    try {
      return await fn(...a);
    } finally {
      spent[key] += performance.now() - t0;
    }
  };
  services.unmanaged.contextFor = timed(services.unmanaged.contextFor.bind(services.unmanaged), 'context');
  const openOrJoin = timed(services.cases.openOrJoin.bind(services.cases), 'cases');
  // Its finish (after the insert: the notify job and the audit events) is the cases' time too.
  services.cases.openOrJoin = async (...a) => {
    const r = await openOrJoin(...a);
    return { caseOf: r.caseOf, finish: timed(r.finish, 'cases') };
  };

  // The cases' mails and channel posts are queued by a job the intake commits with them: run after
  // each side, timed on its own, outside the intake's throughput.
  const notifier = new JobWorker({ db: engine.db, clock, logger: services.logger, handlers: services.cases.jobHandlers() });

  const events = o.audit + o.trail;
  const rounds: RuleRound[] = [];
  // Round 0 is a warm-up (JIT, plan caches, the scope cache of the 500 changes), not reported.
  for (let r = 0; r <= o.rounds; r++) {
    // Each round its own UTC hour: its cap buckets and cases are new, as a new hour's are.
    const hour0 = HOUR0 + r * HOUR;
    const k8sRaw = Buffer.from(JSON.stringify(auditEventList(o.audit, `c${r}`, hour0)));
    const awsRaw = Buffer.from(JSON.stringify(cloudTrailBatch(o.trail, `c${r}`, hour0)));
    clock.set(new Date(hour0 + 40 * 60_000));
    const side = async (org: Org): Promise<Side> => {
      const before = await tallies(engine.db, org.id);
      spent.context = 0;
      spent.cases = 0;
      counted.reset();
      const t0 = performance.now();
      await services.intake.receive(ctx, org.k8s, k8sRaw, (ns) => read(org.k8s, k8sRaw, ns));
      const t1 = performance.now();
      await services.intake.receive(ctx, org.aws, awsRaw, (ns) => read(org.aws, awsRaw, ns));
      const t2 = performance.now();
      const statements = counted.count();
      const n0 = performance.now();
      while ((await notifier.runOnce()) > 0);
      const timing = { ms: t2 - t0, k8s: t1 - t0, aws: t2 - t1, context: spent.context, cases: spent.cases, statements, notify: performance.now() - n0 };
      return { ...timing, counts: await countsOf(engine.db, org, hour0, before, matcher) };
    };
    const onFirst = r % 2 === 0;
    const first = await side(onFirst ? on : off);
    const second = await side(onFirst ? off : on);
    const round = { on: onFirst ? first : second, off: onFirst ? second : first, onFirst };
    if (round.off.counts.judged !== 0) throw new Error(`intake benchmark (c): the rule judged ${round.off.counts.judged} writes with it off`);
    if (round.on.counts.judged === 0 || round.on.counts.flagged === 0) throw new Error(`intake benchmark (c): the rule judged ${round.on.counts.judged} writes and flagged ${round.on.counts.flagged}: it did not run`);
    if (r === 0) continue;
    rounds.push(round);
    const c = round.on.counts;
    say(`  [${engine.name}] (c) round ${r} (${onFirst ? 'on first' : 'off first'}): rule on ${ms(round.on.ms)} ms (${int((events / round.on.ms) * 1000)} events/s; context ${ms(round.on.context)}, cases ${ms(round.on.cases)}; ${round.on.statements} statements), off ${ms(round.off.ms)} ms (${int((events / round.off.ms) * 1000)} events/s; cases ${ms(round.off.cases)}; ${round.off.statements} statements), on/off ${(round.off.ms / round.on.ms).toFixed(3)}; ${c.judged} judged, ${c.flagged} flagged, ${c.casesUnauthorized} unauthorized cases`);
  }
  services.mailer.close();
  return { rounds, registerMs: on.registerMs + off.registerMs, changes: o.changes, globs: globs.length, events };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The summary of part (c), after (a) and (b). */
export function sayRule(done: ReadonlyArray<{ name: Engine; rule: RuleDone } | Skipped>, o: RuleOptions): void {
  const ran = done.filter((x): x is { name: Engine; rule: RuleDone } => !('skipped' in x));
  const c = ran[0]?.rule.rounds[0]?.on.counts;
  const off = ran[0]?.rule.rounds[0]?.off.counts;
  say(`\n(c) The reference rule: ${int(o.changes)} active planned changes (3 catalogue services each in scope; ${Math.min(COVERING, o.changes)} of them cover half the batches' services), ${int(o.globs)} authorized-principal globs, rule on vs off in two organisations with identical data.`);
  say(`  The same two batches each round (${o.audit} audit events + ${o.trail} CloudTrail records, fresh ids and a fresh UTC hour), into each organisation in alternating order; medians of ${o.rounds} rounds.`);
  if (c && off) {
    const refs = Object.entries(c.byReference).map(([k, n]) => `${n} ${k}`).join(', ');
    say(`  Rule on, a round: ${c.recorded} writes and ${c.denied} denied attempts recorded; ${c.judged} judged: ${c.flagged} flagged (${c.unauthorizedAudits} change.unauthorized_detected events), vouched ${refs || 'by nothing'};`);
    say(`    ${c.casesUnauthorized} unauthorized-change cases and ${c.casesDenied} denied-access cases opened (${c.caseAudits} case audit events, ${c.mails} mails queued); ${c.principalsMatching} of the ${c.principals} principals of the applied writes are listed by a glob.`);
    say(`  Rule off, a round: ${off.recorded} writes and ${off.denied} denied attempts recorded, none judged; ${off.casesDenied} denied-access cases opened (${off.caseAudits} case audit events, ${off.mails} mails queued).`);
  }
  say('  on/off = throughput with the rule on over throughput with it off, from the medians of each; per round = the same for each round\'s pair, sent one after the other.');
  say('  context = UnmanagedService.contextFor (the planned changes covering the writes\' services, tickets, the globs compiled); cases = CaseService.openOrJoin (rule off: the denied-access cases only).');
  say('  notify = the cases\' notify job (their mails and channel posts), run by a worker after each side: not part of the intake\'s throughput, shown so that its cost is seen.');
  say(table(
    ['engine', 'rule on events/s', 'rule off events/s', 'on/off', `cost ≤ 20 % (on/off ≥ ${GOAL_RATIO})`, 'on/off per round (median, min-max)', 'p50 K8s batch on / off ms', 'p50 CloudTrail batch on / off ms', 'p50 context ms', 'p50 cases on / off ms', 'p50 notify on / off ms', 'statements on / off'],
    ran.map((x) => {
      const rs = x.rule.rounds;
      const onMs = median(rs.map((r) => r.on.ms));
      const offMs = median(rs.map((r) => r.off.ms));
      const ratio = offMs / onMs;
      const paired = rs.map((r) => r.off.ms / r.on.ms);
      return [
        x.name, int((x.rule.events / onMs) * 1000), int((x.rule.events / offMs) * 1000), ratio.toFixed(3), ratio >= GOAL_RATIO ? 'met' : 'MISSED',
        `${median(paired).toFixed(3)} (${Math.min(...paired).toFixed(2)}-${Math.max(...paired).toFixed(2)})`,
        `${ms(median(rs.map((r) => r.on.k8s)))} / ${ms(median(rs.map((r) => r.off.k8s)))}`, `${ms(median(rs.map((r) => r.on.aws)))} / ${ms(median(rs.map((r) => r.off.aws)))}`,
        ms(median(rs.map((r) => r.on.context))), `${ms(median(rs.map((r) => r.on.cases)))} / ${ms(median(rs.map((r) => r.off.cases)))}`,
        `${ms(median(rs.map((r) => r.on.notify)))} / ${ms(median(rs.map((r) => r.off.notify)))}`,
        `${median(rs.map((r) => r.on.statements))} / ${median(rs.map((r) => r.off.statements))}`,
      ];
    }),
  ));
}
