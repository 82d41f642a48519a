/** The tables and the conclusion of `npm run bench -- load`. */
import { int, latencyStats, ms, say, table } from './bench-support.js';
import { MIX, OP_WHAT, OPS, type PhaseResult } from './load-mix.js';
import type { ProbeResult } from './load-probes.js';

export const GOAL_RATIO = 1.3;
export const GOAL_P99_MS = 100;

export type Phase = {
  replicas: number;
  result: PhaseResult;
  probe: ProbeResult;
  /** The orchestrator's own CPU (samplers) over the window, % of one core. */
  orchestratorPct: number;
  clientPct: number;
  clientRssKb: number;
  /** Error-level lines (pino level ≥ 50) in the replicas' logs, with the first message. */
  logErrors: { count: number; first: string | null };
  loadAvg: string;
  /** The machine's busy share in the 2 s before each window, our processes idle. */
  backgroundPct: number;
  /** Throughput of each measured window, in order. */
  rpsByWindow: number[];
};

/** Adds up the windows of one phase: counts and samples summed, shares weighted by time, memory at its max. */
export function merge(ws: Phase[]): Phase {
  const secs = ws.map((w) => w.probe.seconds);
  const total = secs.reduce((a, b) => a + b, 0);
  const wavg = (f: (w: Phase) => number) => ws.reduce((a, w, i) => a + f(w) * secs[i]!, 0) / total;
  const perOp = Object.fromEntries(OPS.map((op) => {
    const statuses: Record<string, number> = {};
    for (const w of ws) for (const [k, n] of Object.entries(w.result.perOp[op].statuses)) statuses[k] = (statuses[k] ?? 0) + n;
    return [op, { latencies: ws.flatMap((w) => w.result.perOp[op].latencies), statuses }];
  })) as PhaseResult['perOp'];
  const sumMaps = (get: (w: Phase) => Map<string, number>) => {
    const m = new Map<string, number>();
    for (const w of ws) for (const [k, n] of get(w)) m.set(k, (m.get(k) ?? 0) + n);
    return m;
  };
  const labels = [...new Set(ws.flatMap((w) => Object.keys(w.probe.cpuPct)))];
  const rssLabels = [...new Set(ws.flatMap((w) => Object.keys(w.probe.maxRssKb)))];
  const first = ws[0]!;
  return {
    replicas: first.replicas,
    result: {
      kind: 'result', label: first.result.label, elapsedMs: ws.reduce((a, w) => a + w.result.elapsedMs, 0), perOp,
      perReplica: first.result.perReplica.map((_, i) => ws.reduce((a, w) => a + (w.result.perReplica[i] ?? 0), 0)),
      viaToken: ws.reduce((a, w) => a + w.result.viaToken, 0),
      tokensUsed: Math.max(...ws.map((w) => w.result.tokensUsed)), tokensExhausted: Math.max(...ws.map((w) => w.result.tokensExhausted)),
      cpuMs: ws.reduce((a, w) => a + w.result.cpuMs, 0), sampleErrors: ws.flatMap((w) => w.result.sampleErrors),
    },
    probe: {
      seconds: total, samples: ws.reduce((a, w) => a + w.probe.samples, 0), machineBusyPct: wavg((w) => w.probe.machineBusyPct), cores: first.probe.cores,
      cpuPct: Object.fromEntries(labels.map((l) => [l, wavg((w) => w.probe.cpuPct[l] ?? 0)])), postgresCpuPct: wavg((w) => w.probe.postgresCpuPct),
      maxRssKb: Object.fromEntries(rssLabels.map((l) => [l, Math.max(...ws.map((w) => w.probe.maxRssKb[l] ?? 0))])),
      waits: sumMaps((w) => w.probe.waits), lockedStatements: sumMaps((w) => w.probe.lockedStatements), activityErrors: ws.reduce((a, w) => a + w.probe.activityErrors, 0),
    },
    orchestratorPct: wavg((w) => w.orchestratorPct), clientPct: wavg((w) => w.clientPct), clientRssKb: Math.max(...ws.map((w) => w.clientRssKb)),
    logErrors: first.logErrors, loadAvg: ws.map((w) => w.loadAvg).join(', '), backgroundPct: wavg((w) => w.backgroundPct),
    rpsByWindow: ws.map((w) => summary(w).rps),
  };
}

const isOk = (status: string) => /^2\d\d$/.test(status);

export function summary(p: Phase) {
  const all = OPS.flatMap((op) => p.result.perOp[op].latencies);
  const stats = latencyStats(all);
  const statuses: Record<string, number> = {};
  for (const op of OPS) for (const [s, n] of Object.entries(p.result.perOp[op].statuses)) statuses[s] = (statuses[s] ?? 0) + n;
  const errors = Object.entries(statuses).filter(([s]) => !isOk(s)).reduce((a, [, n]) => a + n, 0);
  const rps = (stats.n * 1000) / p.result.elapsedMs;
  return { stats, statuses, errors, rps };
}

function avg(p: Phase, pred: (key: string) => boolean): number {
  let n = 0;
  for (const [k, v] of p.probe.waits) if (pred(k)) n += v;
  return n / Math.max(1, p.probe.samples);
}

function topLocked(p: Phase): string | null {
  return [...p.probe.lockedStatements.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** One line: what held this phase's throughput, from the CPU figures and PostgreSQL's waits. */
export function boundBy(p: Phase): string {
  const serversPct = Object.entries(p.probe.cpuPct).filter(([k]) => k.startsWith('replica')).reduce((a, [, v]) => a + v, 0);
  const pgPct = p.probe.postgresCpuPct;
  const ours = serversPct + pgPct + p.clientPct + p.orchestratorPct;
  const machinePct = p.probe.machineBusyPct * p.probe.cores;
  const other = Math.max(0, machinePct - ours);
  const lock = avg(p, (k) => k.includes('| Lock:'));
  const running = avg(p, (k) => k.startsWith('active | on CPU'));
  const inTxWaitingForApp = avg(p, (k) => k.startsWith('idle in transaction'));
  const activeAll = avg(p, (k) => k.startsWith('active'));
  const cpuWords = `the ${p.probe.cores} cores are ${p.probe.machineBusyPct.toFixed(0)} % busy (servers ${serversPct.toFixed(0)} %, PostgreSQL ${pgPct.toFixed(0)} %, load generator ${p.clientPct.toFixed(0)} %, samplers ${p.orchestratorPct.toFixed(0)} %, other processes ${other.toFixed(0)} % of a core)`;
  const pgWords = `PostgreSQL sessions on average: ${activeAll.toFixed(2)} active (${running.toFixed(2)} on CPU, ${lock.toFixed(2)} waiting on a lock), ${inTxWaitingForApp.toFixed(2)} idle in a transaction waiting for the server process`;
  let verdict: string;
  if (p.probe.machineBusyPct >= 90) {
    const top = [['the server processes', serversPct], ['PostgreSQL', pgPct], ['the load generator', p.clientPct], ['other processes', other]].sort((a, b) => (b[1] as number) - (a[1] as number))[0]![0];
    verdict = other > ours
      ? `CPU-bound, by other work on the machine: ${cpuWords}; this benchmark's processes got ${ours.toFixed(0)} % of a core`
      : `CPU-bound: ${cpuWords}; most of it ${top}`;
    if (lock >= 0.5) verdict += `; lock waits add to it (${lock.toFixed(2)} sessions)`;
  } else if (lock >= 1 || (activeAll > 0 && lock / activeAll >= 0.3)) {
    verdict = `lock-bound: ${lock.toFixed(2)} sessions wait on a lock on average while ${cpuWords}`;
  } else if (activeAll >= 1.5) {
    verdict = `PostgreSQL-bound: ${cpuWords}`;
  } else {
    verdict = `not saturated (latency-bound at this concurrency): ${cpuWords}`;
  }
  return `${verdict}. ${pgWords}.`;
}

export function report(phases: Phase[], o: { concurrency: number; seconds: number; warmup: number; rounds: number; tokenShare: number }): void {
  const sums = phases.map(summary);
  const head = phases.map((p) => `${p.replicas} replica${p.replicas === 1 ? '' : 's'}`);

  say(`\n1. Throughput and latency (closed loop, concurrency ${o.concurrency}; ${o.seconds} s measured per phase in ${o.rounds} windows, the phases taking turns, each window after ${o.warmup} s warm-up; round-robin over the replicas)`);
  say(table(['replicas', 'requests', 'req/s', 'req/s by window', 'p50 ms', 'p99 ms', 'max ms', 'errors (non-2xx)', 'requests per replica', '1-min load before each window', 'machine busy before (2 s, ours idle)'],
    phases.map((p, i) => {
      const s = sums[i]!;
      return [String(p.replicas), int(s.stats.n), int(s.rps), p.rpsByWindow.map(int).join(' / '), ms(s.stats.p50), ms(s.stats.p99), ms(s.stats.max), int(s.errors), p.result.perReplica.map(int).join(' / '), p.loadAvg, `${p.backgroundPct.toFixed(0)} %`];
    })));

  say('\n2. Per request kind: count, p50 / p99 ms');
  say(table(['kind', 'mix', 'request', ...head],
    OPS.map((op) => [op, `${MIX[op]} %`, OP_WHAT[op], ...phases.map((p) => {
      const st = latencyStats(p.result.perOp[op].latencies);
      return `${int(st.n)}: ${ms(st.p50)} / ${ms(st.p99)}`;
    })])));
  say(`   Sent with an API token to the pipeline listener: every change, and ${(o.tokenShare * 100).toFixed(0)} % of the other session-capable requests (the rest with a session cookie on the main listener; OFREP with SDK keys).`);
  say(`   Tokens used / pool (times the pool ran dry): ${phases.map((p) => `${p.replicas}: ${p.result.tokensUsed} (${p.result.tokensExhausted})`).join('; ')}`);

  say('\n3. Answers by status (every 429 and 5xx is here; ERR = no HTTP answer)');
  const codes = [...new Set(sums.flatMap((s) => Object.keys(s.statuses)))].sort();
  say(table(['status', ...head, 'by kind'], codes.map((c) => [c, ...sums.map((s) => int(s.statuses[c] ?? 0)),
    phases.map((p) => OPS.filter((op) => p.result.perOp[op].statuses[c]).map((op) => `${op} ${p.result.perOp[op].statuses[c]}`).join(', ')).join(' | ')])));
  for (const p of phases) {
    if (p.logErrors.count) say(`   ${p.replicas} replica(s): ${p.logErrors.count} error lines in the server logs; first: ${p.logErrors.first}`);
    else say(`   ${p.replicas} replica(s): no error lines in the server logs.`);
  }

  say('\n4. CPU (% of one core, over the measured window) and memory (max VmRSS, sampled every 200 ms)');
  const labels = [...new Set(phases.flatMap((p) => Object.keys(p.probe.cpuPct).filter((k) => k.startsWith('replica'))))];
  const rows: string[][] = labels.map((l) => [l, ...phases.map((p) => (p.probe.cpuPct[l] === undefined ? '' : `${p.probe.cpuPct[l]!.toFixed(0)} %, ${int((p.probe.maxRssKb[l] ?? 0) / 1024)} MiB`))]);
  rows.push(['all replicas', ...phases.map((p) => {
    const rs = Object.keys(p.probe.cpuPct).filter((k) => k.startsWith('replica'));
    return `${rs.reduce((a, k) => a + p.probe.cpuPct[k]!, 0).toFixed(0)} %, ${int(rs.reduce((a, k) => a + (p.probe.maxRssKb[k] ?? 0), 0) / 1024)} MiB`;
  })]);
  rows.push(['PostgreSQL (postmaster + all its processes)', ...phases.map((p) => `${p.probe.postgresCpuPct.toFixed(0)} %`)]);
  rows.push(['load generator (own process)', ...phases.map((p) => `${p.clientPct.toFixed(0)} %, ${int(p.clientRssKb / 1024)} MiB`)]);
  rows.push(['samplers (this process)', ...phases.map((p) => `${p.orchestratorPct.toFixed(0)} %`)]);
  rows.push(['machine busy (/proc/stat, all cores)', ...phases.map((p) => `${p.probe.machineBusyPct.toFixed(0)} % of ${p.probe.cores} cores = ${(p.probe.machineBusyPct * p.probe.cores).toFixed(0)} %`)]);
  say(table(['process', ...head], rows));
  say('   The other phase\'s replicas stay up between their windows (idle but for their job worker\'s poll); what they use counts as other processes.');

  say(`\n5. PostgreSQL sessions of the phase's database by state and wait event (pg_stat_activity every 200 ms; average sessions per sample, and share)`);
  const keys = [...new Set(phases.flatMap((p) => [...p.probe.waits.keys()]))].sort();
  say(table(['state | wait_event_type:wait_event', ...head], keys.map((k) => [k, ...phases.map((p) => {
    const n = p.probe.waits.get(k) ?? 0;
    const total = [...p.probe.waits.values()].reduce((a, b) => a + b, 0);
    return n ? `${(n / p.probe.samples).toFixed(2)} (${((100 * n) / total).toFixed(0)} %)` : '';
  })])));
  say(`   samples: ${phases.map((p) => `${p.replicas}: ${p.probe.samples}${p.probe.activityErrors ? ` (${p.probe.activityErrors} failed)` : ''}`).join('; ')}`);
  for (const p of phases) {
    const top = [...p.probe.lockedStatements.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
    if (top.length) say(`   waiting on a lock with ${p.replicas} replica(s), most often: ${top.map(([q, n]) => `"${q}" (${n})`).join('; ')}`);
  }

  say('\n6. Goals');
  const first = phases[0];
  const last = phases[phases.length - 1];
  if (first && last && first !== last) {
    const ratio = sums[sums.length - 1]!.rps / sums[0]!.rps;
    say(`   ${last.replicas} replicas / ${first.replicas} replica throughput: ${int(sums[sums.length - 1]!.rps)} / ${int(sums[0]!.rps)} req/s = ${ratio.toFixed(2)}x (goal >= ${GOAL_RATIO}x): ${ratio >= GOAL_RATIO ? 'PASS' : 'MISS'}`);
  }
  phases.forEach((p, i) => {
    const s = sums[i]!;
    say(`   p99 with ${p.replicas} replica(s) at concurrency ${o.concurrency}: ${ms(s.stats.p99)} ms (goal <= ${GOAL_P99_MS} ms): ${s.stats.p99 <= GOAL_P99_MS ? 'PASS' : 'MISS'}${s.errors ? ` - and ${s.errors} errors` : ''}`);
  });

  say('\n7. What bounds it');
  for (const p of phases) say(`   ${p.replicas} replica(s): ${boundBy(p)}`);
  if (first && last && first !== last) {
    const ratio = sums[sums.length - 1]!.rps / sums[0]!.rps;
    const b1 = boundBy(first).split(':')[0];
    const b3 = boundBy(last).split(':')[0];
    say(`\nConclusion: ${last.replicas} replicas serve ${ratio.toFixed(2)}x the requests of ${first.replicas} (${int(sums[0]!.rps)} -> ${int(sums[sums.length - 1]!.rps)} req/s, p99 ${ms(sums[0]!.stats.p99)} -> ${ms(sums[sums.length - 1]!.stats.p99)} ms); ${first.replicas} replica: ${b1}, ${last.replicas} replicas: ${b3} on ${last.probe.cores} cores shared by the replicas, PostgreSQL and the load generator; sessions waiting on a lock ${avg(first, (k) => k.includes('| Lock:')).toFixed(2)} -> ${avg(last, (k) => k.includes('| Lock:')).toFixed(2)}${topLocked(last) ? `, mostly "${topLocked(last)}"` : ''}.`);
    const otherBusy = Math.max(...phases.map((p) => p.backgroundPct));
    if (otherBusy >= 50) say(`Caution: before the windows, with this benchmark's processes idle, the machine was already up to ${otherBusy.toFixed(0)} % busy with other work; these figures say what the product does on a shared machine, not on a quiet one.`);
  }
}
