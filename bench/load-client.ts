/**
 * The load generator of `npm run bench -- load`, a process of its own (forked by bench/load.ts) so
 * its CPU is measured apart from the orchestrator's samplers. It runs `concurrency` closed loops:
 * each picks a request by the mix, sends it to the next replica in turn over that replica's
 * keep-alive agent, waits for the whole answer, and records the latency and status. A warm-up is
 * run and thrown away first; then the measured window.
 *
 * node:http with one keep-alive `Agent` per replica, not fetch: undici is not a dependency of the
 * project (Node's fetch hides its dispatcher), and the plain client costs the shared cores less.
 */
import { Agent } from 'node:http';
import { type Answer, send } from './http-send.js';
import { seededRandom } from './bench-support.js';
import { OPS, pickOp, TOKEN_BUDGET, TOKEN_WINDOW_MS, type ChildMessage, type Op, type OpResult, type PhaseOrder, type PhaseResult } from './load-mix.js';

class TokenPool {
  #tokens: Array<{ secret: string; windowStart: number; used: number; ever: boolean }>;
  #next = 0;
  exhausted = 0;
  constructor(secrets: string[]) {
    this.#tokens = secrets.map((secret) => ({ secret, windowStart: 0, used: 0, ever: false }));
  }

  /** The next token with requests left in its minute (as the server counts it, with a margin). */
  take(now: number): string {
    const n = this.#tokens.length;
    for (let i = 0; i < n; i++) {
      const t = this.#tokens[(this.#next + i) % n]!;
      if (now - t.windowStart > TOKEN_WINDOW_MS) {
        t.windowStart = now;
        t.used = 0;
      }
      if (t.used < TOKEN_BUDGET) {
        t.used++;
        t.ever = true;
        // Stay on one token until its budget is spent: fewer tokens in play, fewer rate_windows rows.
        this.#next = (this.#next + i) % n;
        return t.secret;
      }
    }
    this.exhausted++;
    const t = this.#tokens[this.#next]!;
    this.#next = (this.#next + 1) % n;
    return t.secret;
  }

  used(): number {
    return this.#tokens.filter((t) => t.ever).length;
  }
}

/** Each phase's token counts live from window to window: the server's minutes do too. */
const pools = new Map<string, TokenPool>();

async function runPhase(order: PhaseOrder, notify: (m: ChildMessage) => void): Promise<PhaseResult> {
  const { replicas, fixtures: fx } = order;
  const agents = replicas.map(() => new Agent({ keepAlive: true, maxSockets: order.concurrency * 2, keepAliveMsecs: 10_000 }));
  const tokens = pools.get(order.label) ?? new TokenPool(fx.tokens);
  pools.set(order.label, tokens);
  const perOp = Object.fromEntries(OPS.map((op) => [op, { latencies: [], statuses: {} }])) as unknown as Record<Op, OpResult>;
  const perReplica = replicas.map(() => 0);
  let viaToken = 0;
  let rr = 0;
  let measuring = false;
  let stop = false;
  let changeNo = 0;

  const one = async (rand: () => number, vu: number): Promise<void> => {
    const op = pickOp(rand());
    const r = rr++ % replicas.length;
    const rep = replicas[r]!;
    const agent = agents[r]!;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const pipeline = op === 'change' || (op !== 'ofrep' && rand() < order.tokenShare);
    const s = fx.sessions[vu % fx.sessions.length]!;
    const auth: Record<string, string> = pipeline ? { authorization: `Bearer ${tokens.take(Date.now())}` } : { cookie: s.cookie };
    const write: Record<string, string> = pipeline ? auth : { ...auth, 'x-csrf-token': s.csrf };
    const base = pipeline ? rep.pipelineUrl : rep.url;
    let a: Answer;
    switch (op) {
      case 'flag-read':
        a = await send(agent, `${base}/api/flags/${pick(fx.flags)}`, 'GET', auth, undefined);
        break;
      case 'list':
        a = rand() < 0.5
          ? await send(agent, `${base}/api/changes?limit=50`, 'GET', auth, undefined)
          : await send(agent, `${base}/api/flags?namespace=${encodeURIComponent(`${pick(fx.namespaces)}.*`)}`, 'GET', auth, undefined);
        break;
      case 'audit':
        a = await send(agent, `${base}/api/audit?limit=50${rand() < 0.5 ? '&action=flag.' : ''}`, 'GET', auth, undefined);
        break;
      case 'change': {
        const svc = pick(fx.services);
        const n = ++changeNo;
        a = await send(agent, `${base}/api/changes`, 'POST', write, JSON.stringify({
          title: `Deploy ${svc} build ${n}`, kind: 'deploy', components: [{ query: svc }], maxDurationMinutes: 60,
          pipeline: { pipeline: 'load-bench', run: String(n), commit: (n * 2654435761).toString(16).padStart(8, '0').slice(-8), version: `1.${n}.0` },
        }));
        break;
      }
      case 'toggle':
        a = await send(agent, `${base}/api/flags/${pick(fx.flags)}/environments/${rand() < 0.5 ? 'production' : 'staging'}`, 'PUT', write,
          JSON.stringify({ enabled: rand() < 0.5, reason: 'load benchmark toggle' }));
        break;
      case 'ofrep':
        a = await send(agent, `${rep.url}/ofrep/v1/evaluate/flags/${pick(fx.flags)}`, 'POST', { 'x-api-key': pick(fx.sdkKeys) },
          JSON.stringify({ context: { targetingKey: `user-${Math.floor(rand() * 10_000)}` } }));
        break;
    }
    if (!measuring) return;
    const rec = perOp[op];
    rec.latencies.push(a.ms);
    rec.statuses[a.status] = (rec.statuses[a.status] ?? 0) + 1;
    perReplica[r] = (perReplica[r] ?? 0) + 1;
    if (pipeline) viaToken++;
  };

  const loops = Array.from({ length: order.concurrency }, async (_, vu) => {
    const rand = seededRandom(order.seed + vu * 7919);
    while (!stop) await one(rand, vu);
  });

  await new Promise((r) => setTimeout(r, order.warmupMs));
  // Answers that started in the warm-up and end in the window are counted: the loops never pause,
  // so the window holds exactly `concurrency` requests in flight throughout.
  measuring = true;
  notify({ kind: 'measuring' });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, order.measureMs));
  measuring = false;
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  stop = true;
  await Promise.all(loops);
  for (const a of agents) a.destroy();
  return {
    kind: 'result', label: order.label, elapsedMs, perOp, perReplica, viaToken, tokensUsed: tokens.used(), tokensExhausted: tokens.exhausted,
    cpuMs: (cpu.user + cpu.system) / 1000, sampleErrors: [],
  };
}

process.on('message', (m: PhaseOrder) => {
  if (m.kind !== 'run') return;
  const notify = (msg: ChildMessage) => process.send?.(msg);
  runPhase(m, notify).then(
    (r) => notify(r),
    (err: unknown) => notify({ kind: 'failed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
});
