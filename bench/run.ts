/**
 * `npm run bench -- <name> [options]`: runs bench/<name>.ts. The table is explicit (not a
 * directory scan) so a typo fails with the list of what exists instead of a module error.
 */
import { UsageError } from './bench-support.js';

type Bench = { run(args: string[]): Promise<void> };

const BENCHES: Record<string, { about: string; load: () => Promise<Bench> }> = {
  ledger: { about: 'audit appends vs plain inserts, and audit query latency at 1M events (PGlite and PostgreSQL)', load: () => import('./ledger.js') },
  flags: { about: 'flag writes vs the bare UPDATE, and flag audit latency at 1M records, indexed vs unindexed (PGlite and PostgreSQL)', load: () => import('./flags.js') },
  blast: { about: 'preview-blast and inventory pages on a 20,000-service estate vs a recursive-CTE computation in SQL (PGlite and PostgreSQL)', load: () => import('./blast.js') },
  'ticket-patterns': { about: 'the organisation ticket pattern on RE2 (re2js) vs JavaScript RegExp: ordinary reasons, and the ReDoS pattern on growing inputs (no database)', load: () => import('./ticket-patterns.js') },
  deliveries: { about: 'the callback outbox drained by the job worker vs the same signed POSTs sent directly, and what notify adds to a transition (PGlite and PostgreSQL)', load: () => import('./deliveries.js') },
  alerts: { about: 'alert intake (webhook batches of 100, 50 holding changes) vs a bare route inserting the same rows, and the hold decision with 1,000 scopes (PGlite and PostgreSQL)', load: () => import('./alerts.js') },
  'report-render': { about: 'a 300-service report rendered as standalone HTML with SVG sparklines vs JSON.stringify of the same evidence; the verdict, text and CSV beside (no database)', load: () => import('./report-render.js') },
  intake: { about: 'observed-change intake: a 1,000-event K8s audit EventList and a 100-record CloudTrail batch through the adapters and IntakeService vs a plain INSERT of the same rows, then the same batches again (PGlite and PostgreSQL)', load: () => import('./intake.js') },
  governance: { about: 'the window matcher with 200 windows (goal ≤ 20 µs a check), and registration with classes, tiers and windows on vs off (goal ≤ 1.10×) (PGlite and PostgreSQL)', load: () => import('./governance.js') },
  evidence: { about: 'a 300-service change\'s RED from Debian\'s Prometheus with a backfilled history: 18 queries by service label vs one set per service (no database)', load: () => import('./evidence.js') },
  'verify-file': { about: 'audit verify --file and scripts/verify-ledger.mjs over 1,000,000 exported events vs a plain SHA-256 of the same bytes (goal ≥ 100,000 events/s; no database)', load: () => import('./verify-file.js') },
  'what-changed': { about: 'the MCP tool what_changed over Streamable HTTP with 1,000,000 change records (planned, observed, flag writes) on 200 services vs tools/list and GET /api/changes (goal p99 ≤ 50 ms; PostgreSQL, --engine pglite|both)', load: () => import('./what-changed.js') },
  'vs-unleash': { about: 'flag toggles over HTTP at concurrency 8, changeledger vs Unleash 8.2.0 (installed from the npm registry into a cache on first use) on one throw-away PostgreSQL, alternating: toggles/s ratio (goal ≥ 5×), p99, CPU, RSS, audit bytes a record (goal ≤ 1.5×)', load: () => import('./vs-unleash.js') },
  'pglite-footprint': { about: 'serve on the embedded engine: time to ready and RSS on a new and an existing data directory, changeledger\'s shared buffers vs the 128 MB PGlite\'s directory asks for (goals: ≤ 2 s, ≤ 250 MiB idle, ≤ 400 MiB at first start)', load: () => import('./pglite-footprint.js') },
  load: { about: 'a mixed load (flag reads, lists, audit pages, changes, toggles, OFREP) on 1 and on 3 `serve` processes on one PostgreSQL: req/s, p50/p99, errors, CPU, RSS and PostgreSQL waits (built CLI; PostgreSQL only)', load: () => import('./load.js') },
};

function usage(): string {
  const names = Object.entries(BENCHES).map(([name, b]) => `  ${name.padEnd(10)} ${b.about}`);
  return ['usage: npm run bench -- <name> [options]', '', 'available benchmarks:', ...names, ''].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const bench = name ? BENCHES[name] : undefined;
  if (!bench) {
    process.stderr.write(`${name ? `unknown benchmark "${name}"\n\n` : ''}${usage()}`);
    return 2;
  }
  try {
    await (await bench.load()).run(rest);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 2;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`\nbenchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
