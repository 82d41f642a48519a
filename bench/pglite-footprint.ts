/**
 * `npm run bench -- pglite-footprint`: what `changeledger serve` on the embedded engine costs to
 * start and to keep, the built CLI on a new data directory (its first start) and on an existing
 * one, in one run, three ways taking turns: as shipped (the bundle, dist/bundle, with changeledger's
 * shared buffers: CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB unset); the same compiled server loaded
 * module by module (dist/server/cli/main.js, what ran before the bundle); and the bundle with the
 * 128 MB of shared buffers the data directory itself asks for (the value PGlite would run with).
 * Ready is the moment both listeners are up; RSS is read from /proc after an idle pause, with the
 * process's high-water mark. A first start makes the directory in a short-lived
 * child process: its peak is sampled from /proc every 50 ms while it runs.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/platform/paths.js';
import { busy, Cleanup, machine, parseOptions, positiveInt, say, table, UsageError } from './bench-support.js';
import { childrenOf, statusKb } from './load-probes.js';
import { cli, ensureBuilt, OWNER, PASSWORD, startReplica } from './load-servers.js';

const GOALS = { idleMiB: 250, readyS: 2, firstStartMiB: 400 };
/** The data directory's own postgresql.conf asks for this, and PGlite would run with it. */
const PGLITE_DEFAULT_MB = 128;

const USAGE = `usage: npm run bench -- pglite-footprint [options]
  --runs N       starts of each kind for each setting, alternating (default 3)
  --idle N       seconds the server idles before its RSS is read (default 5)
  --skip-build   use the existing dist/ instead of running npm run build first`;

type Options = { runs: number; idle: number; skipBuild: boolean };

function options(args: string[]): Options {
  try {
    const { values, flags } = parseOptions(args, { values: ['runs', 'idle'], flags: ['skip-build', 'help'] });
    if (flags.has('help')) throw new UsageError('');
    return { runs: positiveInt('runs', values.get('runs')) ?? 3, idle: positiveInt('idle', values.get('idle')) ?? 5, skipBuild: flags.has('skip-build') };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${err.message ? `${err.message}\n\n` : ''}${USAGE}`);
    throw err;
  }
}

type Start = { readyS: number; idleKb: number; hwmKb: number; childPeakKb: number | null };

/**
 * The largest high-water mark seen among the grandchildren of this process, sampled every 50 ms
 * until stopped: the server is this process's child, and the data directory's maker is the server's.
 */
function grandchildPeak(): { stop(): number | null } {
  let peak: number | null = null;
  const timer = setInterval(() => {
    for (const pid of childrenOf(process.pid).flatMap(childrenOf)) {
      const kb = statusKb(pid, 'VmHWM');
      if (kb !== null) peak = Math.max(peak ?? 0, kb);
    }
  }, 50);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

async function start(dataDir: string, sharedBuffersMb: number | null, idleS: number, bin: string | undefined): Promise<Start> {
  const before = process.env.CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB;
  if (sharedBuffersMb === null) delete process.env.CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB;
  else process.env.CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB = String(sharedBuffersMb);
  mkdirSync(dataDir, { recursive: true });
  const t0 = performance.now();
  const sampler = grandchildPeak();
  const started = startReplica({ label: 'changeledger', databaseUrl: undefined, dataDir, logFile: `${dataDir}.log`, bin });
  if (before === undefined) delete process.env.CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB;
  else process.env.CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB = before;
  let replica: Awaited<typeof started>;
  let childPeakKb: number | null;
  try {
    replica = await started;
  } finally {
    childPeakKb = sampler.stop();
  }
  const readyS = (performance.now() - t0) / 1000;
  try {
    await new Promise((r) => setTimeout(r, idleS * 1000));
    return { readyS, idleKb: statusKb(replica.pid, 'VmRSS') ?? NaN, hwmKb: statusKb(replica.pid, 'VmHWM') ?? NaN, childPeakKb };
  } finally {
    await replica.stop();
  }
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mib = (kb: number) => (Number.isFinite(kb) ? `${(kb / 1024).toFixed(0)} MiB` : '-');

export async function run(args: string[]): Promise<void> {
  const o = options(args);
  await ensureBuilt(o.skipBuild);
  for (const line of machine()) say(line);
  say(`load average at the start ${busy()}; ${o.runs} starts of each kind for each setting, alternating; RSS read after ${o.idle} s idle`);
  const cleanup = new Cleanup();
  try {
    const root = mkdtempSync(join(tmpdir(), 'changeledger-pglite-footprint-'));
    cleanup.add(`remove ${root}`, () => rmSync(root, { recursive: true, force: true }));
    // One existing directory, made and used once (an owner, its organisation, migrations), copied for each start on it.
    const template = join(root, 'template');
    await cli(['users', 'add', '--email', OWNER, '--role', 'owner', '--password-stdin', '--data', template], `${PASSWORD}\n`);
    const unbundled = join(packageRoot, 'dist', 'server', 'cli', 'main.js');
    const arms = [
      { name: 'changeledger (bundle, 16 MiB shared buffers)', mb: null, bin: undefined },
      { name: 'modules unbundled (16 MiB)', mb: null, bin: unbundled },
      { name: `bundle, ${PGLITE_DEFAULT_MB} MB shared buffers (PGlite's)`, mb: PGLITE_DEFAULT_MB, bin: undefined },
    ] as const;
    const results = arms.map(() => ({ first: [] as Start[], existing: [] as Start[] }));
    let n = 0;
    for (let r = 0; r < o.runs; r++) {
      // Each arm goes first in turn, so none always starts on the quietest machine.
      for (const i of arms.map((_, k) => (k + r) % arms.length)) {
        const arm = arms[i]!;
        const fresh = join(root, `fresh-${n++}`);
        const a = await start(fresh, arm.mb, o.idle, arm.bin);
        results[i]!.first.push(a);
        rmSync(fresh, { recursive: true, force: true });
        const existing = join(root, `existing-${n++}`);
        cpSync(template, existing, { recursive: true });
        const b = await start(existing, arm.mb, o.idle, arm.bin);
        results[i]!.existing.push(b);
        rmSync(existing, { recursive: true, force: true });
        say(`  run ${r + 1}, ${arm.name}: first start ready ${a.readyS.toFixed(2)} s, idle ${mib(a.idleKb)} (maker's peak ${mib(a.childPeakKb ?? NaN)}); existing ready ${b.readyS.toFixed(2)} s, idle ${mib(b.idleKb)}`);
      }
    }
    const row = (label: string, f: (s: Start) => number, show: (v: number) => string, goal: string, met: (v: number) => boolean | null) => {
      const v = results.map((x) => median((label.startsWith('first') ? x.first : x.existing).map(f)));
      const verdict = met(v[0]!);
      return [label, show(v[0]!), show(v[1]!), (v[0]! / v[1]!).toFixed(2), show(v[2]!), (v[0]! / v[2]!).toFixed(2), verdict === null ? goal : `${goal}: ${verdict ? 'met' : 'MISSED'}`];
    };
    say('\n================ changeledger serve on the embedded engine: start and footprint (medians) ================');
    for (const line of machine()) say(line);
    say(`load average at the end ${busy()}`);
    say('');
    say(table(['', arms[0].name, arms[1].name, 'ratio', arms[2].name, 'ratio', 'goal'], [
      row('existing directory: ready (both listeners up)', (s) => s.readyS, (v) => `${v.toFixed(2)} s`, `≤ ${GOALS.readyS} s`, (v) => v <= GOALS.readyS),
      row('existing directory: RSS idle', (s) => s.idleKb, mib, `≤ ${GOALS.idleMiB} MiB`, (v) => v / 1024 <= GOALS.idleMiB),
      row('existing directory: RSS high-water', (s) => s.hwmKb, mib, '', () => null),
      row('first start: ready', (s) => s.readyS, (v) => `${v.toFixed(2)} s`, '', () => null),
      row('first start: RSS idle', (s) => s.idleKb, mib, `≤ ${GOALS.firstStartMiB} MiB`, (v) => v / 1024 <= GOALS.firstStartMiB),
      row('first start: RSS high-water', (s) => s.hwmKb, mib, `≤ ${GOALS.firstStartMiB} MiB`, (v) => v / 1024 <= GOALS.firstStartMiB),
      row('first start: the directory maker\'s peak (a child process, exits)', (s) => s.childPeakKb ?? NaN, mib, '', () => null),
    ]));
  } finally {
    await cleanup.run();
  }
}
