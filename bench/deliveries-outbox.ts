/**
 * The callback outbox measured through the real services (`compose`): changes registered through
 * ChangeService write a delivery row and a `delivery.send` job in the change event's transaction,
 * and the real JobWorker drains them, each signed POST going out through the outbound client to a
 * node:http receiver on loopback answering 204. The baseline sends the same signed bodies through
 * the same client in a loop, with no database. Then what `notify` adds to a transition: starting a
 * change with a callbackUrl against starting one without.
 *
 * The outbound client is built with `createOutboundClient({ testOnlyAllowLoopback: true })`: the
 * test-only switch the tests use, so the loopback receiver is reachable. Nothing in the server's
 * configuration sets it; every other address class stays judged as in production.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { compose, type Services } from '../src/compose.js';
import type { TokenPrincipal } from '../src/domains/auth/index.js';
import type { RegisterInput } from '../src/domains/changes/change-service.js';
import { DELIVERY_JOB } from '../src/domains/deliveries/delivery-service.js';
import { signedHeaders } from '../src/platform/crypto/webhook-signing.js';
import { CALLBACK_USER_AGENT } from '../src/domains/deliveries/signing.js';
import type { AuditContext } from '../src/domains/ledger/index.js';
import { systemClock } from '../src/platform/clock.js';
import { createSealer } from '../src/platform/crypto/sealed.js';
import type { Database, Row } from '../src/platform/db/database.js';
import { createLogger } from '../src/platform/logger.js';
import { createOutboundClient, type OutboundClient } from '../src/platform/net/outbound.js';
import { latencyStats, say, type LatencyStats, counting } from './bench-support.js';

const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: important }
  - { key: "svc:web", kind: service, name: web, tier: standard }
links:
  - { from: "svc:web", to: "svc:checkout-api", via: calls }
`;
const DAY = 86_400_000;

// ── the receiver ─────────────────────────────────────────────────────────────────────────────

export type Seen = { path: string; deliveryId: string; at: number; raw: Buffer; headers: IncomingHttpHeaders };

/** A receiver on 127.0.0.1 that answers 204 to everything and notes when each request had fully arrived. */
async function startReceiver(): Promise<{ url: string; seen: Seen[]; byId: Map<string, Seen>; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const byId = new Map<string, Seen>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = { path: req.url ?? '', deliveryId: String(req.headers['x-changeledger-delivery'] ?? ''), at: performance.now(), raw: Buffer.concat(chunks), headers: req.headers };
      seen.push(s);
      if (s.path === '/outbox') byId.set(s.deliveryId, s);
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`, seen, byId,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

// ── statements, counted ──────────────────────────────────────────────────────────────────────


// ── the measurement ──────────────────────────────────────────────────────────────────────────

export type OutboxOptions = { deliveries: number; rounds: number; warmup: number; latency: number; transitions: number };

export type Throughput = { n: number; ms: number; perSec: number; perRound: number[] };

export type OutboxResult = {
  warmup: number;
  rounds: number;
  /** The backlog drained by JobWorker.runOnce() until it ran nothing. */
  outbox: Throughput;
  /** The same signed bodies POSTed through the same client in a loop. */
  direct: Throughput;
  /** outbox/s ÷ direct/s. */
  ratio: number;
  /** Registering a change with startNow and a callbackUrl (the delivery is written in it), for context. */
  register: LatencyStats;
  /** One delivery at a time: committed → the worker woken → the receiver has it; and → the attempt recorded. */
  latency: { outbox: LatencyStats; recorded: LatencyStats; direct: LatencyStats };
  /** ChangeService.start of a scheduled change, with and without a callbackUrl, interleaved. */
  transition: { with: LatencyStats; without: LatencyStats; warmup: number };
  statements: { perDelivery: number; startWith: number; startWithout: number };
  verified: { deliveries: number; directPosts: number; signatures: number };
};

type Setup = {
  services: Services;
  stmts: () => number;
  client: OutboundClient;
  p: TokenPrincipal;
  ctx: AuditContext;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** changeId → the callback secret register answered, to sign the baseline and check the signatures. */
  secrets: Map<string, string>;
};

type Queued = { changeId: string; deliveryId: string; event: string; body: string };

async function setUp(db: Database, label: string): Promise<Setup> {
  const counter = counting(db);
  const discard = new Writable({ write: (_chunk, _enc, cb) => cb() });
  const client = createOutboundClient({ testOnlyAllowLoopback: true });
  const services = compose({
    db: counter.db, clock: systemClock, logger: createLogger({ level: 'silent', destination: discard }), sealer: createSealer(randomBytes(32)),
    outbound: { client, allowPrivate: false }, publicUrl: 'https://changes.bench.example',
  });
  const setup: AuditContext = { actor: { kind: 'system', id: null, name: 'bench setup' }, source: 'cli' };
  const { org, owner } = await services.auth.createOrganizationWithOwner(setup, { name: 'Delivery benchmark', email: 'owner@bench.example' });
  await services.catalogue.importText(setup, org.id, 'changeledger', ESTATE, 'bench');
  // A pipeline's token: changes registered as CI registers them. No approval, so startNow starts at once.
  const { secret } = await services.auth.createToken(setup, { org, user: owner }, { name: 'bench pipeline', scopes: ['changes:read', 'changes:write'] });
  const p = await services.auth.authenticateToken(secret);
  if (!p) throw new Error('delivery benchmark: the pipeline token does not authenticate');
  await services.changeSettings.update(setup, p, { approvalRequired: 'none' });
  const ctx: AuditContext = { actor: { kind: 'token', id: p.tokenId, name: `token "${p.tokenName}" of ${p.user.email}` }, source: 'api' };
  const receiver = await startReceiver();
  say(`  [${label}] ${org.id}: one-service estate, approval off, pipeline token; receiver ${receiver.url} answers 204`);
  return { services, stmts: counter.count, client, p, ctx, receiver, secrets: new Map() };
}

let titles = 0;

async function register(s: Setup, extra: Partial<RegisterInput>): Promise<{ id: string; status: string; secret: string | undefined }> {
  const r = await s.services.changes.register(s.ctx, s.p, { title: `Deploy #${++titles}`, components: [{ query: 'checkout-api' }], pipeline: { repo: 'acme/checkout', run: String(titles) }, ...extra });
  if (r.callbackSecret) s.secrets.set(r.change.id, r.callbackSecret);
  return { id: r.change.id, status: r.change.status, secret: r.callbackSecret };
}

/** Registers n started changes with a callbackUrl: n change.started deliveries wait in the outbox. */
async function queue(s: Setup, n: number, timings?: number[]): Promise<Queued[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const c = await register(s, { startNow: true, callbackUrl: `${s.receiver.url}/outbox` });
    timings?.push(performance.now() - t0);
    if (c.status !== 'active') throw new Error(`delivery benchmark: ${c.id} registered ${c.status}, expected active`);
    ids.push(c.id);
  }
  const r = await s.services.db.query<Row & { id: string; change_id: string; event: string; body: string; state: string }>(
    `SELECT id, change_id, event, body, state FROM deliveries WHERE change_id = ANY($1::text[]) ORDER BY created_at, id`, [ids],
  );
  if (r.rows.length !== n || r.rows.some((d) => d.state !== 'pending' || d.event !== 'change.started')) {
    throw new Error(`delivery benchmark: ${n} changes queued ${r.rows.length} deliveries (${[...new Set(r.rows.map((d) => `${d.event}/${d.state}`))].join(', ')}), expected ${n} pending change.started`);
  }
  return r.rows.map((d) => ({ changeId: d.change_id, deliveryId: d.id, event: d.event, body: d.body }));
}

/** The real worker, round after round, until a round runs nothing. Answers how many jobs ran. */
async function drain(s: Setup): Promise<number> {
  let ran = 0;
  for (let n = await s.services.worker.runOnce(); n > 0; n = await s.services.worker.runOnce()) ran += n;
  return ran;
}

async function outboxDrain(s: Setup, q: Queued[]): Promise<number> {
  const t0 = performance.now();
  const ran = await drain(s);
  const elapsed = performance.now() - t0;
  if (ran !== q.length) throw new Error(`delivery benchmark: the worker ran ${ran} jobs for ${q.length} queued deliveries`);
  return elapsed;
}

async function sendDirect(s: Setup, d: Queued): Promise<void> {
  const secret = s.secrets.get(d.changeId)!;
  const headers = signedHeaders({ secret, deliveryId: d.deliveryId, event: d.event, body: d.body, at: systemClock.now(), userAgent: CALLBACK_USER_AGENT });
  const res = await s.client.request({ method: 'POST', url: `${s.receiver.url}/direct`, headers, body: d.body, allowPrivate: false });
  if (res.status !== 204) throw new Error(`delivery benchmark: the direct POST of ${d.deliveryId} answered ${res.status}`);
}

async function directLoop(s: Setup, q: Queued[]): Promise<number> {
  const t0 = performance.now();
  for (const d of q) await sendDirect(s, d);
  return performance.now() - t0;
}

export async function benchOutbox(db: Database, label: string, opts: OutboxOptions): Promise<OutboxResult> {
  const s = await setUp(db, label);
  let directPosts = 0;
  try {
    // Warm-up: PGlite's WebAssembly and the JIT of both sides keep speeding up for a while.
    say(`  [${label}] warm-up: ${opts.warmup} deliveries through the outbox and ${opts.warmup} direct POSTs`);
    const warm = await queue(s, opts.warmup);
    await directLoop(s, warm);
    directPosts += warm.length;
    await outboxDrain(s, warm);

    // 1. Throughput: a backlog of queued deliveries drained by the worker vs the same POSTs in a loop.
    const rounds = Math.min(opts.rounds, opts.deliveries);
    const registerMs: number[] = [];
    const totals = { outbox: { n: 0, ms: 0 }, direct: { n: 0, ms: 0 } };
    const perRound = { outbox: [] as number[], direct: [] as number[] };
    let perDelivery = 0;
    for (let r = 0; r < rounds; r++) {
      const count = Math.floor(opts.deliveries / rounds) + (r < opts.deliveries % rounds ? 1 : 0);
      const q = await queue(s, count, registerMs);
      // Alternating order: a checkpoint or a busy neighbour lands on both sides.
      const order = r % 2 === 0 ? (['outbox', 'direct'] as const) : (['direct', 'outbox'] as const);
      for (const v of order) {
        const before = s.stmts();
        const elapsed = v === 'outbox' ? await outboxDrain(s, q) : await directLoop(s, q);
        if (v === 'outbox') perDelivery = (s.stmts() - before) / count;
        else directPosts += count;
        totals[v].n += count;
        totals[v].ms += elapsed;
        perRound[v].push((count / elapsed) * 1000);
      }
      say(`  [${label}] throughput round ${r + 1}/${rounds} (${order.join(', ')}): ${count} each: outbox ${perRound.outbox.at(-1)!.toFixed(0)}/s, direct ${perRound.direct.at(-1)!.toFixed(0)}/s`);
    }
    const outbox: Throughput = { n: totals.outbox.n, ms: totals.outbox.ms, perSec: (totals.outbox.n / totals.outbox.ms) * 1000, perRound: perRound.outbox };
    const direct: Throughput = { n: totals.direct.n, ms: totals.direct.ms, perSec: (totals.direct.n / totals.direct.ms) * 1000, perRound: perRound.direct };

    // Latency, one delivery at a time: from the committed row in an idle queue, the worker woken at
    // once, to the receiver having the request (and to the attempt recorded); vs one direct POST.
    // From created_at in a backlog it would be queueing time, growing with the backlog, not the outbox.
    say(`  [${label}] latency: ${opts.latency} deliveries one at a time, each against one direct POST, alternating which goes first`);
    const lat = { outbox: [] as number[], recorded: [] as number[], direct: [] as number[] };
    for (let i = 0; i < opts.latency; i++) {
      const [d] = await queue(s, 1);
      const one = async () => {
        const t0 = performance.now();
        const ran = await s.services.worker.runOnce();
        const t1 = performance.now();
        if (ran !== 1) throw new Error(`delivery benchmark: the worker ran ${ran} jobs for one queued delivery`);
        const got = s.receiver.byId.get(d!.deliveryId);
        if (!got) throw new Error(`delivery benchmark: the worker ran ${d!.deliveryId} but the receiver never saw it`);
        lat.outbox.push(got.at - t0);
        lat.recorded.push(t1 - t0);
        if ((await s.services.worker.runOnce()) !== 0) throw new Error('delivery benchmark: a second job was due after a single delivery');
      };
      const other = async () => {
        const seenBefore = s.receiver.seen.length;
        const t0 = performance.now();
        await sendDirect(s, d!);
        const got = s.receiver.seen.slice(seenBefore).find((x) => x.path === '/direct' && x.deliveryId === d!.deliveryId);
        if (!got) throw new Error(`delivery benchmark: the receiver did not see the direct POST of ${d!.deliveryId}`);
        lat.direct.push(got.at - t0);
        directPosts++;
      };
      if (i % 2 === 0) {
        await one();
        await other();
      } else {
        await other();
        await one();
      }
    }

    // 2. What notify adds to a transition: start a scheduled change with and without a callbackUrl.
    const warmT = Math.min(50, opts.transitions);
    const pairs = warmT + opts.transitions;
    say(`  [${label}] transitions: ${pairs} scheduled changes with a callbackUrl and ${pairs} without; ${warmT} pairs warm-up, then ${opts.transitions} starts of each, interleaved`);
    const windowStart = new Date(systemClock.now().getTime() + DAY).toISOString();
    const withCb: string[] = [];
    const without: string[] = [];
    for (let i = 0; i < pairs; i++) {
      const a = await register(s, { windowStart, callbackUrl: `${s.receiver.url}/outbox` });
      const b = await register(s, { windowStart });
      if (a.status !== 'scheduled' || b.status !== 'scheduled') throw new Error(`delivery benchmark: registered ${a.status} and ${b.status}, expected scheduled`);
      withCb.push(a.id);
      without.push(b.id);
    }
    const startMs = { with: [] as number[], without: [] as number[] };
    const startStmts = { with: 0, without: 0 };
    const start = async (kind: 'with' | 'without', id: string, timed: boolean) => {
      const before = s.stmts();
      const t0 = performance.now();
      const { change: c } = await s.services.changes.start(s.ctx, s.p, id);
      const elapsed = performance.now() - t0;
      if (c.status !== 'active') throw new Error(`delivery benchmark: start left ${id} ${c.status}`);
      startStmts[kind] = s.stmts() - before;
      if (timed) startMs[kind].push(elapsed);
    };
    for (let i = 0; i < pairs; i++) {
      const timed = i >= warmT;
      if (i % 2 === 0) {
        await start('with', withCb[i]!, timed);
        await start('without', without[i]!, timed);
      } else {
        await start('without', without[i]!, timed);
        await start('with', withCb[i]!, timed);
      }
    }
    const sent = await drain(s);
    if (sent !== pairs) throw new Error(`delivery benchmark: ${pairs} starts with a callbackUrl left ${sent} jobs to run, expected ${pairs}`);

    // 3. Nothing counts unless every delivery arrived exactly once, signed, and is recorded delivered.
    const verified = await verify(s, directPosts);
    say(`  [${label}] verified: ${verified.deliveries} deliveries delivered exactly once (distinct ids at the receiver, signatures and bodies checked), ${verified.directPosts} direct POSTs`);

    return {
      warmup: opts.warmup, rounds, outbox, direct, ratio: outbox.perSec / direct.perSec, register: latencyStats(registerMs),
      latency: { outbox: latencyStats(lat.outbox), recorded: latencyStats(lat.recorded), direct: latencyStats(lat.direct) },
      transition: { with: latencyStats(startMs.with), without: latencyStats(startMs.without), warmup: warmT },
      statements: { perDelivery, startWith: startStmts.with, startWithout: startStmts.without },
      verified,
    };
  } finally {
    await s.receiver.close();
    s.services.mailer.close();
  }
}

function fail(what: string): never {
  throw new Error(`delivery benchmark: VERIFICATION FAILED: ${what}`);
}

async function verify(s: Setup, directPosts: number): Promise<OutboxResult['verified']> {
  const db = s.services.db;
  const rows = (await db.query<Row & { id: string; change_id: string; body: string; state: string; attempts: number; last_status: number | null }>(
    'SELECT id, change_id, body, state, attempts, last_status FROM deliveries WHERE org_id = $1', [s.p.org.id],
  )).rows;
  const expected = s.secrets.size;
  if (rows.length !== expected) fail(`${expected} changes with a callbackUrl were started but there are ${rows.length} delivery rows`);
  const bad = rows.filter((r) => r.state !== 'delivered' || r.attempts !== 1 || r.last_status !== 204);
  if (bad.length) fail(`${bad.length} deliveries are not delivered at the first attempt with 204, e.g. ${JSON.stringify(bad[0])}`);
  const attempts = await db.query<{ n: number; d: number }>(
    `SELECT count(*)::int AS n, count(DISTINCT a.delivery_id)::int AS d FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.org_id = $1`, [s.p.org.id],
  );
  if (attempts.rows[0]?.n !== expected || attempts.rows[0]?.d !== expected) fail(`expected one recorded attempt for each of ${expected} deliveries, found ${attempts.rows[0]?.n} attempts for ${attempts.rows[0]?.d}`);
  const jobs = await db.query<Row & { status: string; n: number }>('SELECT status, count(*)::int AS n FROM jobs WHERE kind = $1 AND org_id = $2 GROUP BY status', [DELIVERY_JOB, s.p.org.id]);
  if (jobs.rows.length !== 1 || jobs.rows[0]!.status !== 'done' || jobs.rows[0]!.n !== expected) fail(`delivery jobs: ${JSON.stringify(jobs.rows)}, expected ${expected} done`);
  const audited = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_events WHERE org_id = $1 AND action = 'change.callback_delivered'", [s.p.org.id]);
  if (audited.rows[0]?.n !== expected) fail(`${audited.rows[0]?.n} change.callback_delivered audit events for ${expected} deliveries`);

  const outbox = s.receiver.seen.filter((x) => x.path === '/outbox');
  const ids = new Set(outbox.map((x) => x.deliveryId));
  if (outbox.length !== expected || ids.size !== expected) fail(`the receiver saw ${outbox.length} outbox requests with ${ids.size} distinct delivery ids, expected ${expected} each (none twice)`);
  let signatures = 0;
  for (const r of rows) {
    const got = s.receiver.byId.get(r.id);
    if (!got) fail(`the receiver never saw delivery ${r.id}`);
    const secret = s.secrets.get(r.change_id);
    if (!secret) fail(`no callback secret for change ${r.change_id}`);
    if (got.raw.toString('utf8') !== r.body) fail(`delivery ${r.id} arrived with a body other than the stored one`);
    if (got.headers['x-changeledger-signature'] !== `sha256=${createHmac('sha256', secret).update(got.raw).digest('hex')}`) fail(`delivery ${r.id} arrived with a wrong signature`);
    signatures++;
  }
  const direct = s.receiver.seen.filter((x) => x.path === '/direct').length;
  if (direct !== directPosts) fail(`the receiver saw ${direct} direct POSTs, ${directPosts} were sent`);
  const other = s.receiver.seen.length - outbox.length - direct;
  if (other !== 0) fail(`the receiver saw ${other} requests on other paths`);
  return { deliveries: expected, directPosts, signatures };
}
