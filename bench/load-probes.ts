/**
 * What bounds the figure of `npm run bench -- load`: while a phase is measured, every ~200 ms,
 * PostgreSQL's own view of its sessions (pg_stat_activity: state, wait event, the statement) and the
 * CPU time of every process involved (/proc/PID/stat) with the replicas' resident memory
 * (/proc/PID/status VmRSS); the machine's busy share from /proc/stat over the window.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

/** Linux clock ticks a second (getconf CLK_TCK); 100 on every kernel this runs on. */
const TICKS_PER_SECOND = 100;

export type CpuTotals = { busy: number; total: number };

export function machineCpu(): CpuTotals {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: total - idle, total };
}

/** utime + stime and parent pid of a process, or null when it is gone. */
function procStat(pid: number): { ticks: number; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ticks: Number(f[11]) + Number(f[12]), ppid: Number(f[1]) };
  } catch {
    return null;
  }
}

/** A memory figure of a process from /proc/PID/status (VmRSS now, VmHWM its high-water mark), or null when it is gone. */
export function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export function rssKb(pid: number): number | null {
  return statusKb(pid, 'VmRSS');
}

/** The pids whose parent is `parent`, from /proc. */
export function childrenOf(parent: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = procStat(Number(name));
    if (s?.ppid === parent) out.push(Number(name));
  }
  return out;
}

export type Tracked = { label: string; pid: number };

export type ProbeResult = {
  seconds: number;
  samples: number;
  /** The machine's busy share of all cores over the window, 0–100 %. */
  machineBusyPct: number;
  cores: number;
  /** CPU used over the window, in % of one core: each tracked process, PostgreSQL (postmaster and every child) summed. */
  cpuPct: Record<string, number>;
  postgresCpuPct: number;
  maxRssKb: Record<string, number>;
  /** pg_stat_activity of the phase's database: (state · wait) → sessions seen, summed over the samples. */
  waits: Map<string, number>;
  /** Statements seen waiting on a Lock: text → sessions, summed over the samples. */
  lockedStatements: Map<string, number>;
  activityErrors: number;
};

/**
 * Samples until stopped. CPU is accumulated per pid between samples, so a backend that starts in
 * the window counts from its start and one that ends loses at most one interval.
 */
export class Probe {
  #timer: NodeJS.Timeout | null = null;
  #busy = false;
  #t0 = 0;
  #cpu0: CpuTotals = { busy: 0, total: 0 };
  #lastTicks = new Map<number, number>();
  #ticks = new Map<string, number>();
  #pgTicks = 0;
  #rss = new Map<string, number>();
  #waits = new Map<string, number>();
  #locked = new Map<string, number>();
  #samples = 0;
  #activityErrors = 0;
  #pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly o: { tracked: Tracked[]; postmasterPid: number; client: pg.Client; database: string; intervalMs: number; cores: number },
  ) {}

  start(): void {
    this.#t0 = performance.now();
    this.#cpu0 = machineCpu();
    // Baselines: only CPU spent from now on counts.
    for (const t of this.o.tracked) this.#lastTicks.set(t.pid, procStat(t.pid)?.ticks ?? 0);
    for (const pid of [this.o.postmasterPid, ...childrenOf(this.o.postmasterPid)]) this.#lastTicks.set(pid, procStat(pid)?.ticks ?? 0);
    this.#timer = setInterval(() => {
      if (this.#busy) return;
      this.#busy = true;
      this.#pending = this.#sample().finally(() => (this.#busy = false));
    }, this.o.intervalMs);
  }

  #delta(pid: number): number {
    const now = procStat(pid)?.ticks;
    if (now === undefined) return 0;
    const before = this.#lastTicks.get(pid) ?? 0;
    this.#lastTicks.set(pid, now);
    return Math.max(0, now - before);
  }

  #cpuSample(): void {
    for (const t of this.o.tracked) this.#ticks.set(t.label, (this.#ticks.get(t.label) ?? 0) + this.#delta(t.pid));
    for (const pid of [this.o.postmasterPid, ...childrenOf(this.o.postmasterPid)]) this.#pgTicks += this.#delta(pid);
  }

  async #sample(): Promise<void> {
    this.#samples++;
    this.#cpuSample();
    for (const t of this.o.tracked) {
      const kb = rssKb(t.pid);
      if (kb !== null) this.#rss.set(t.label, Math.max(this.#rss.get(t.label) ?? 0, kb));
    }
    try {
      const r = await this.o.client.query<{ state: string | null; wait_event_type: string | null; wait_event: string | null; query: string | null }>(
        `SELECT state, wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
           FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        [this.o.database],
      );
      for (const row of r.rows) {
        const wait = row.wait_event_type ? `${row.wait_event_type}:${row.wait_event}` : row.state === 'active' ? 'on CPU (no wait event)' : '-';
        const key = `${row.state ?? 'starting'} | ${wait}`;
        this.#waits.set(key, (this.#waits.get(key) ?? 0) + 1);
        if (row.wait_event_type === 'Lock' && row.query) this.#locked.set(row.query, (this.#locked.get(row.query) ?? 0) + 1);
      }
    } catch {
      this.#activityErrors++;
    }
  }

  async stop(): Promise<ProbeResult> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#pending;
    this.#cpuSample();
    const cpu1 = machineCpu();
    const seconds = (performance.now() - this.#t0) / 1000;
    const pct = (ticks: number) => (100 * ticks) / TICKS_PER_SECOND / seconds;
    return {
      seconds,
      samples: this.#samples,
      machineBusyPct: (100 * (cpu1.busy - this.#cpu0.busy)) / Math.max(1, cpu1.total - this.#cpu0.total),
      cores: this.o.cores,
      cpuPct: Object.fromEntries(this.o.tracked.map((t) => [t.label, pct(this.#ticks.get(t.label) ?? 0)])),
      postgresCpuPct: pct(this.#pgTicks),
      maxRssKb: Object.fromEntries(this.#rss),
      waits: this.#waits,
      lockedStatements: this.#locked,
      activityErrors: this.#activityErrors,
    };
  }
}
