/**
 * `npm run bench -- deliveries`: what the outbox of signed callbacks costs, on PGlite and
 * PostgreSQL in one run. (1) Throughput: changes registered through the real services queue a
 * change.started delivery each; the real JobWorker drains them, each a signed POST through the
 * outbound client to a loopback receiver answering 204, against the same signed bodies POSTed
 * through the same client in a loop with no database; and one delivery at a time, from the
 * committed row to the receiver having it. (2) What `notify` adds to a transition: starting a
 * change with a callbackUrl against starting one without. (3) Every delivery must have arrived
 * exactly once, signed, and be recorded delivered, or the run fails.
 *
 * Like the tests, the bench builds the outbound client with the test-only switch
 * `createOutboundClient({ testOnlyAllowLoopback: true })` so the loopback receiver is reachable;
 * nothing in the server's configuration sets it.
 */
import { cpus } from 'node:os';
import type { Engine } from '../src/platform/db/database.js';
import { int, ms, parseOptions, positiveInt, say, table, UsageError, type LatencyStats, machine, busy, sayWhere } from './bench-support.js';
import { onEachEngine, type BenchEngine, type Skipped } from './bench-engines.js';
import { benchOutbox, type OutboxResult } from './deliveries-outbox.js';

const USAGE = `usage: npm run bench -- deliveries [options]
  --deliveries N    deliveries drained by the worker, and direct POSTs sent, for the throughput (default 300)
  --rounds N        alternating rounds the throughput is split into (default 3)
  --warmup N        deliveries through each side before timing (default 50)
  --latency N       deliveries timed one at a time, each against one direct POST (default 100)
  --transitions N   starts timed with a callbackUrl and without (default 300 each, after 50 pairs untimed)
  --engines L       pglite,postgres (default both)
PostgreSQL: CHANGELEDGER_BENCH_DATABASE_URL, or else a throw-away cluster from the installed binaries.`;

type Options = { deliveries: number; rounds: number; warmup: number; latency: number; transitions: number; engines: Engine[] };

function options(args: string[]): Options {
  try {
    const { values, flags } = parseOptions(args, { values: ['deliveries', 'rounds', 'warmup', 'latency', 'transitions', 'engines'], flags: ['help'] });
    if (flags.has('help')) throw new UsageError('');
    const engines = (values.get('engines') ?? 'pglite,postgres').split(',').map((e) => e.trim());
    for (const e of engines) if (e !== 'pglite' && e !== 'postgres') throw new UsageError(`--engines: unknown engine "${e}"`);
    return {
      deliveries: positiveInt('deliveries', values.get('deliveries')) ?? 300,
      rounds: positiveInt('rounds', values.get('rounds')) ?? 3,
      warmup: positiveInt('warmup', values.get('warmup')) ?? 50,
      latency: positiveInt('latency', values.get('latency')) ?? 100,
      transitions: positiveInt('transitions', values.get('transitions')) ?? 300,
      engines: [...new Set(engines)] as Engine[],
    };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${err.message ? `${err.message}\n\n` : ''}${USAGE}`);
    throw err;
  }
}

type Done = { name: Engine; version: string; notes: string[]; r: OutboxResult; loadAvg: string };
type Outcome = Done | Skipped;



function pair(s: LatencyStats): string {
  return `${ms(s.p50)} / ${ms(s.p99)} ms`;
}

/** a ÷ b, and how many times slower a is. */
function times(a: number, b: number): string {
  return `${(a / b).toFixed(2)}x`;
}

async function benchEngine(engine: BenchEngine, opts: Options): Promise<Done> {
  const loadBefore = busy();
  say(`\n== ${engine.version} ==`);
  for (const n of engine.notes) say(`  ${n}`);
  const r = await benchOutbox(engine.db, engine.name, opts);
  say(`  [${engine.name}] throughput: outbox ${int(r.outbox.perSec)}/s, direct ${int(r.direct.perSec)}/s, outbox/direct ${r.ratio.toFixed(3)}`);
  say(`  [${engine.name}] one at a time: outbox ${pair(r.latency.outbox)} (recorded ${pair(r.latency.recorded)}), direct ${pair(r.latency.direct)}`);
  say(`  [${engine.name}] start: with callbackUrl ${pair(r.transition.with)}, without ${pair(r.transition.without)}`);
  return { name: engine.name, version: engine.version, notes: engine.notes, r, loadAvg: `${loadBefore} before, ${busy()} after` };
}

function report(outcomes: Outcome[], opts: Options): void {
  const done = outcomes.filter((o): o is Done => !('skipped' in o));
  say('\n================ changeledger deliveries benchmark ================');
  sayWhere(outcomes, { notes: true });
  for (const o of done) say(`load average (1, 5, 15 min) around the ${o.name} run: ${o.loadAvg} (on ${cpus().length} cores)`);
  say('outbound client: createOutboundClient({ testOnlyAllowLoopback: true }), the tests\' switch, to reach the loopback receiver (answers 204); a new connection per request on both sides.');

  say(`\n1. Outbox throughput: ${int(opts.deliveries)} change.started callbacks queued by ChangeService.register (startNow, callbackUrl), drained by JobWorker.runOnce() until it ran nothing`);
  say('   outbox = claim (FOR UPDATE SKIP LOCKED, batches of 10), read the delivery, the org setting and the callback URL, open the sealed secret, sign, POST, then record');
  say('            the attempt, the delivery\'s state, the job done and a ledger event in one transaction.');
  say('   direct = signedHeaders + the same client\'s POST of the same bodies in a loop, no database.');
  say(`   ${opts.warmup} of each untimed first; rounds alternate which side goes first.`);
  say(
    table(
      ['engine', 'deliveries', 'outbox total', 'outbox/s', 'direct total', 'direct/s', 'outbox/direct', 'statements per delivery', 'outbox/s by round', 'direct/s by round'],
      done.map((o) => [o.name, `${int(o.r.outbox.n)} (${o.r.rounds} rounds)`, `${ms(o.r.outbox.ms)} ms`, int(o.r.outbox.perSec), `${ms(o.r.direct.ms)} ms`, int(o.r.direct.perSec),
        o.r.ratio.toFixed(3), o.r.statements.perDelivery.toFixed(1), o.r.outbox.perRound.map(int).join(' '), o.r.direct.perRound.map(int).join(' ')]),
    ),
  );
  say(`   Per delivery, one at a time (${opts.latency} each, alternating): from the committed row, the worker woken at once, to the receiver having the request (and to the attempt recorded),`);
  say('   against one direct POST to the receiver having it. The running server wakes its worker by polling (every 1 s by default), which adds up to that much before the claim.');
  say('   (From created_at in a backlog the figure would be the time spent queued behind the others, growing with the backlog, not what the outbox costs.)');
  say(
    table(
      ['engine', 'outbox p50 / p99', 'until recorded p50 / p99', 'direct p50 / p99', 'outbox/direct p50', 'outbox/direct p99', 'register with callbackUrl p50 / p99'],
      done.map((o) => [o.name, pair(o.r.latency.outbox), pair(o.r.latency.recorded), pair(o.r.latency.direct), times(o.r.latency.outbox.p50, o.r.latency.direct.p50),
        times(o.r.latency.outbox.p99, o.r.latency.direct.p99), pair(o.r.register)]),
    ),
  );

  const warmT = done[0]?.r.transition.warmup ?? Math.min(50, opts.transitions);
  say(`\n2. Cost in the change's transaction: ChangeService.start of a scheduled change, ${int(opts.transitions)} with a callbackUrl and ${int(opts.transitions)} without, interleaved (after ${warmT} pairs untimed)`);
  say('   without: notify still reads the ticket setting and looks for an open ticket; with: it also reads the /status body, the next seq, and writes the delivery row and its job.');
  say(
    table(
      ['engine', 'with callbackUrl p50 / p99', 'without p50 / p99', 'with/without p50', 'with/without p99', 'mean added', 'statements (with / without)'],
      done.map((o) => {
        const t = o.r.transition;
        return [o.name, pair(t.with), pair(t.without), times(t.with.p50, t.without.p50), times(t.with.p99, t.without.p99), `${ms(t.with.mean - t.without.mean)} ms`,
          `${o.r.statements.startWith} / ${o.r.statements.startWithout}`];
      }),
    ),
  );

  say('\n3. Verification (after each engine\'s run; a failure stops the benchmark)');
  for (const o of done) {
    say(`   ${o.name}: ${int(o.r.verified.deliveries)} deliveries, each state delivered with one attempt (204), its job done and a change.callback_delivered event; the receiver saw`);
    say(`     ${int(o.r.verified.deliveries)} distinct delivery ids, none twice, each body byte for byte as stored and its X-Changeledger-Signature valid; ${int(o.r.verified.directPosts)} direct POSTs arrived.`);
  }

  say('\n4. Summary');
  say(
    table(
      ['engine', 'outbox/s', 'direct/s', 'outbox/direct', 'one delivery p50 / p99', 'direct POST p50 / p99', 'start with callbackUrl p50 / p99', 'without p50 / p99', 'with/without p50', 'verified'],
      outcomes.map((o) =>
        'skipped' in o
          ? [o.name, 'skipped', '', '', '', '', '', '', '', '']
          : [o.name, int(o.r.outbox.perSec), int(o.r.direct.perSec), o.r.ratio.toFixed(3), pair(o.r.latency.outbox), pair(o.r.latency.direct), pair(o.r.transition.with),
              pair(o.r.transition.without), times(o.r.transition.with.p50, o.r.transition.without.p50), `${int(o.r.verified.deliveries)} exactly once`],
      ),
    ),
  );
  sayWhere(outcomes, { notes: false });
}

export async function run(args: string[]): Promise<void> {
  const opts = options(args);
  for (const line of machine()) say(line);
  const outcomes: Outcome[] = await onEachEngine(opts.engines, (engine) => benchEngine(engine, opts));
  report(outcomes, opts);
}
