/**
 * `npm run bench -- alerts` part (c): the held release of 1,000 alerts (goal ≤ 2 s), relay mode.
 *
 * A change holds svc:checkout; 1,000 alerts of it arrive through intake while it runs (held), half
 * of them resolve; the change completes and, five minutes later on the bench's clock, the release
 * job runs through a JobWorker: the row lock on the hold, the pure decision, relay.resend (the
 * prefixed notices written as outbox rows for one webhook destination — nothing is sent, the bench
 * measures the release, not the network), the held_alerts outcomes, the counts, the hold_subjects
 * deletion and the audit event, all in the job's commit. Timed from claim to commit.
 *
 * The baseline, beside it in the same run: a bare transaction that UPDATEs the same 1,000
 * held_alerts rows' outcome and the hold row, with nothing else.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { compose, type Services } from '../src/compose.js';
import { RELEASE_JOB } from '../src/domains/alerts/hold-service.js';
import type { IncomingAlert } from '../src/domains/alerts/alert-types.js';
import { labelSetFingerprint } from '../src/domains/alerts/fingerprint.js';
import type { AuditContext } from '../src/domains/ledger/index.js';
import { SettableClock } from '../src/platform/clock.js';
import { createSealer } from '../src/platform/crypto/sealed.js';
import type { Database, Engine } from '../src/platform/db/database.js';
import { JobWorker } from '../src/platform/jobs/job-worker.js';
import { createLogger } from '../src/platform/logger.js';
import { createOutboundClient } from '../src/platform/net/outbound.js';
import { onEachEngine, type BenchEngine, type Skipped } from './bench-engines.js';
import { latencyStats, ms, parseOptions, positiveInt, say, table, UsageError } from './bench-support.js';

const USAGE = `usage: npm run bench -- alerts   (part c, the release)
  --held N       held alerts per release (default 1000; half still firing, half recovered)
  --rounds N     releases timed (default 3)
  --engines L    pglite,postgres (default both)`;

type Options = { held: number; rounds: number; engines: Engine[] };
const GOAL_MS = 2_000;
const FIVE_MIN = 5 * 60_000;

function options(args: string[]): Options {
  const { values } = parseOptions(args, { values: ['held', 'rounds', 'engines'], flags: [] });
  const engines = (values.get('engines') ?? 'pglite,postgres').split(',').map((e) => e.trim());
  for (const e of engines) if (e !== 'pglite' && e !== 'postgres') throw new UsageError(`--engines: unknown engine "${e}"\n\n${USAGE}`);
  return { held: positiveInt('held', values.get('held')) ?? 1_000, rounds: positiveInt('rounds', values.get('rounds')) ?? 3, engines: [...new Set(engines)] as Engine[] };
}

const ESTATE = 'entities:\n  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }\n';
const ctx: AuditContext = { actor: { kind: 'system', id: null, name: 'bench setup' }, source: 'cli' };

type Round = { releaseMs: number; bareMs: number; resent: number; recovered: number; notices: number };
type Done = { name: Engine; version: string; rounds: Round[] };

async function setUp(db: Database, clock: SettableClock) {
  const services: Services = compose({
    db, clock, logger: createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) }), sealer: createSealer(randomBytes(32)),
    outbound: { client: createOutboundClient(), allowPrivate: false },
  });
  const { org, owner } = await services.auth.createOrganizationWithOwner(ctx, { name: 'Release benchmark', email: 'owner@release.bench', password: 'bench password 1234' });
  const m = { org, user: owner, role: 'owner' as const };
  await services.catalogue.importText(ctx, org.id, 'changeledger', ESTATE, 'bench');
  await services.changeSettings.update(ctx, m, { approvalRequired: 'none' });
  await services.alertSettings.createDestination(ctx, m, { kind: 'webhook', name: 'bench hook', url: 'https://hooks.release.bench/alerts' });
  const { secret } = await services.auth.createToken(ctx, { org, user: owner }, { name: 'bench', scopes: ['changes:read', 'changes:write'] });
  const p = (await services.auth.authenticateToken(secret))!;
  return { services, orgId: org.id, p };
}

function alertsOf(round: number, n: number, at: string): IncomingAlert[] {
  return Array.from({ length: n }, (_, i) => {
    const labels = { alertname: `Down${i % 10}`, service: 'checkout', instance: `web-${i}:9100`, round: String(round) };
    return { fingerprint: labelSetFingerprint(labels), labels, annotations: { summary: `alert ${i}` }, state: 'firing', startsAt: at, endsAt: null, generatorURL: 'http://prometheus.bench:9090/graph' };
  });
}

async function benchOn(engine: BenchEngine, o: Options): Promise<Done> {
  say(`\n== release on ${engine.version} ==`);
  const clock = new SettableClock(new Date());
  const { services, orgId, p } = await setUp(engine.db, clock);
  const worker = new JobWorker({ db: engine.db, clock, handlers: services.holds.jobHandlers(), batchSize: 1 });
  const rounds: Round[] = [];
  for (let r = 0; r < o.rounds; r++) {
    const { change } = await services.changes.register(ctx, p, { title: `Bench release ${r}`, components: [{ key: 'svc:checkout' }], startNow: true });
    const at = clock.now().toISOString();
    const all = alertsOf(r, o.held, at);
    for (let i = 0; i < all.length; i += 100) await services.alerts.receive(ctx, orgId, 'webhook', all.slice(i, i + 100), 'bench');
    clock.advance(1_000);
    const resolved = all.filter((_, i) => i % 2 === 1).map((a) => ({ ...a, state: 'resolved' as const, endsAt: clock.now().toISOString() }));
    for (let i = 0; i < resolved.length; i += 100) await services.alerts.receive(ctx, orgId, 'webhook', resolved.slice(i, i + 100), 'bench');
    await services.changes.finish(ctx, p, change.id, { defaultOutcome: 'success' });
    clock.advance(FIVE_MIN + 1_000);

    const t0 = performance.now();
    const ran = await worker.runOnce();
    const releaseMs = performance.now() - t0;
    const hold = (await engine.db.query<{ state: string; held: number; resent: number; recovered: number }>('SELECT state, held, resent, recovered FROM alert_holds WHERE change_id = $1', [change.id])).rows[0]!;
    if (ran !== 1 || hold.state !== 'released' || Number(hold.held) !== o.held) throw new Error(`release benchmark: the release did not run as expected (${ran} jobs, ${JSON.stringify(hold)})`);
    const notices = Number((await engine.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'alert.relay' AND org_id = $1 AND payload->>'event' = 'alerts.held_release' AND payload::text LIKE $2`, [orgId, `%Bench release ${r}%`])).rows[0]!.n);

    const t1 = performance.now();
    await engine.db.transaction(async (tx) => {
      await tx.query(`UPDATE held_alerts SET outcome = outcome, outcome_reason = 'bare', decided_at = $2 WHERE change_id = $1`, [change.id, clock.now().toISOString()]);
      await tx.query('UPDATE alert_holds SET updated_at = $2 WHERE change_id = $1', [change.id, clock.now().toISOString()]);
    });
    const bareMs = performance.now() - t1;
    rounds.push({ releaseMs, bareMs, resent: Number(hold.resent), recovered: Number(hold.recovered), notices });
    say(`  [${engine.name}] round ${r + 1}: release ${ms(releaseMs)} ms (${hold.resent} re-sent, ${hold.recovered} recovered, ${notices} notice job(s)); bare UPDATE ${ms(bareMs)} ms`);
  }
  services.mailer.close();
  return { name: engine.name, version: engine.version, rounds };
}

export async function runReleaseBench(args: string[]): Promise<void> {
  const o = options(args);
  say(`    ${o.held} held alerts per release (half still firing, half recovered), ${o.rounds} releases per engine; relay mode, one webhook destination:`);
  say(`    the notices are written as outbox rows (the ${RELEASE_JOB} job's commit), not sent.`);
  const outcomes: Array<Done | Skipped> = await onEachEngine(o.engines, (e) => benchOn(e, o));
  say(table(
    ['engine', 'release p50 / max ms', 'bare UPDATE p50 ms', 'release/bare', `goal ≤ ${GOAL_MS} ms`],
    outcomes.map((x) => {
      if ('skipped' in x) return [x.name, 'skipped', '', '', ''];
      const rel = latencyStats(x.rounds.map((r) => r.releaseMs));
      const bare = latencyStats(x.rounds.map((r) => r.bareMs));
      const worst = Math.max(...x.rounds.map((r) => r.releaseMs));
      return [x.name, `${ms(rel.p50)} / ${ms(worst)}`, ms(bare.p50), (rel.p50 / bare.p50).toFixed(1), worst <= GOAL_MS ? 'met' : 'MISSED'];
    }),
  ));
}
