/**
 * `npm run bench -- blast`: the blast radius and the inventory on a large synthetic estate, on
 * PGlite and PostgreSQL in one run, against the goals of the issue: preview-blast (hops 2,
 * dedicated) answering in 50 ms at p99 and an inventory page (limit 500, hops 2) in 300 ms at p99,
 * each side by side with a straightforward recursive-CTE computation of the same answer in SQL on
 * the same tables, which must agree with ours.
 */
import { cpus } from 'node:os';
import { MAX_SERVICES } from '../src/domains/catalogue/blast.js';
import type { Engine } from '../src/platform/db/database.js';
import { int, ms, parseOptions, positiveInt, say, seconds, table, UsageError, machine, busy, sayWhere } from './bench-support.js';
import { onEachEngine, type BenchEngine, type Skipped } from './bench-engines.js';
import { FULL_SIZE, loadEstate, sizeAt, STALE_SHARE, type EstateLoad, type EstateSummary } from './blast-estate.js';
import { benchBlast, PAGE_LIMIT, PREVIEW_HOPS, type BlastResult, type Check, type PreviewGroup } from './blast-queries.js';

export const GOAL_PREVIEW_P99_MS = 50;
export const GOAL_INVENTORY_P99_MS = 300;

const USAGE = `usage: npm run bench -- blast [options]
  --scale X              size of the estate against the issue's (default 1: ${int(FULL_SIZE.services)} services, ${int(FULL_SIZE.pods)} pods,
                         ${int(FULL_SIZE.callEdges)} call edges …; 0.1 runs a small one quickly)
  --components N         ordinary components previewed (default 200, after 10 untimed)
  --hub-runs N           previews of each of the 5 hubs (default 20)
  --hub-baseline-runs N  of those, how many also run the SQL (default 2: the SQL of a hub walks half the estate)
  --pages N              inventory pages (default 100, after 3 untimed)
  --engines L            pglite,postgres (default both)
PostgreSQL: CHANGELEDGER_BENCH_DATABASE_URL, or else a throw-away cluster from the installed binaries.`;

type Options = { scale: number; components: number; hubRuns: number; hubBaselineRuns: number; pages: number; engines: Engine[] };

function options(args: string[]): Options {
  try {
    const { values, flags } = parseOptions(args, { values: ['scale', 'components', 'hub-runs', 'hub-baseline-runs', 'pages', 'engines'], flags: ['help'] });
    if (flags.has('help')) throw new UsageError('');
    const engines = (values.get('engines') ?? 'pglite,postgres').split(',').map((e) => e.trim());
    for (const e of engines) if (e !== 'pglite' && e !== 'postgres') throw new UsageError(`--engines: unknown engine "${e}"`);
    const scaleText = values.get('scale') ?? '1';
    const scale = /^\d+(\.\d+)?$/.test(scaleText) ? Number(scaleText) : NaN;
    if (!(scale > 0 && scale <= 10)) throw new UsageError(`--scale must be a number above 0 and at most 10, got "${scaleText}"`);
    const hubRuns = positiveInt('hub-runs', values.get('hub-runs')) ?? 20;
    return {
      scale,
      components: positiveInt('components', values.get('components')) ?? 200,
      hubRuns,
      hubBaselineRuns: Math.min(hubRuns, positiveInt('hub-baseline-runs', values.get('hub-baseline-runs')) ?? 2),
      pages: positiveInt('pages', values.get('pages')) ?? 100,
      engines: [...new Set(engines)] as Engine[],
    };
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${err.message ? `${err.message}\n\n` : ''}${USAGE}`);
    throw err;
  }
}

type Done = { name: Engine; version: string; notes: string[]; load: EstateLoad; result: BlastResult; loadAvg: string };
type Outcome = Done | Skipped;



async function benchEngine(engine: BenchEngine, opts: Options): Promise<Done> {
  const loadBefore = busy();
  say(`\n== ${engine.version} ==`);
  for (const n of engine.notes) say(`  ${n}`);
  if (engine.name === 'postgres') {
    // JIT compiles every statement whose estimated cost is high, and a recursive CTE's always is:
    // at scale 0.1 it took 1.2 s of a 1.3 s scope query. Off for this scratch database (the pool
    // may reconnect, hence ALTER DATABASE as well as SET), so the SQL is timed, not the compiler.
    const r = await engine.db.query<{ d: string }>('SELECT current_database() AS d');
    await engine.db.exec(`ALTER DATABASE "${r.rows[0]!.d}" SET jit = off; SET jit = off`);
    engine.notes.push('jit=off for the benchmark database (with it on, compiling each recursive-CTE statement costs about a second)');
  }
  const load = await loadEstate(engine.db, engine.name, sizeAt(opts.scale), new Date());
  const result = await benchBlast(engine.db, engine.name, load, { components: opts.components, hubRuns: opts.hubRuns, hubBaselineRuns: opts.hubBaselineRuns, pages: opts.pages });
  return { name: engine.name, version: engine.version, notes: engine.notes, load, result, loadAvg: `${loadBefore} before, ${busy()} after` };
}

const pair = (s: { p50: number; p99: number }) => `${ms(s.p50)} / ${ms(s.p99)}`;

/** ours ÷ SQL, with the speed-up it means. */
function ratio(ours: number, sql: number): string {
  if (!Number.isFinite(ours) || !Number.isFinite(sql)) return '-';
  const r = ours / sql;
  return r <= 1 ? `${r.toFixed(3)} (${(1 / r).toFixed(1)}x faster)` : `${r.toFixed(2)} (${r.toFixed(1)}x slower)`;
}

function checked(c: Check): string {
  const parts = [`${c.equal} equal`];
  if (c.subset) parts.push(`${c.subset} subset-checked`);
  if (c.servicesOnly) parts.push(`${c.servicesOnly} refused, subset-checked`);
  if (c.mismatches.length) parts.push(`${c.mismatches.length} DIFFERENT`);
  return `${parts.join(', ')} of ${c.compared}`;
}

function previewGoal(g: PreviewGroup): string {
  if (g.hops !== PREVIEW_HOPS) return '(not a goal: hops 1)';
  return g.ours.p99 <= GOAL_PREVIEW_P99_MS ? 'met' : 'MISSED';
}

function report(outcomes: Outcome[], opts: Options): void {
  const done = outcomes.filter((o): o is Done => !('skipped' in o));
  const estate: EstateSummary | undefined = done[0]?.load.estate;
  const c = estate?.counts ?? {};
  const sz = estate?.size ?? sizeAt(opts.scale);
  say('\n================ changeledger blast benchmark ================');
  sayWhere(outcomes, { notes: true });
  for (const o of done) say(`load average (1, 5, 15 min) around the ${o.name} run: ${o.loadAvg} (on ${cpus().length} cores)`);

  say(`\n1. The estate (scale ${opts.scale}; seeded, the same on both engines)`);
  say(`   ${int(c.service ?? 0)} services, ${int(c.host ?? 0)} hosts, ${int(c.vm ?? 0)} VMs, ${int(c.pod ?? 0)} pods in ${int(c.workload ?? 0)} workloads, ${int(c.node ?? 0)} Kubernetes nodes, ${int(c.datastore ?? 0)} datastores, ${int(c.external ?? 0)} externals;`);
  say(`   ${int((c.calls ?? 0) + (c['calls (stale)'] ?? 0))} call edges (${int(c['calls (stale)'] ?? 0)} of them stale, ${STALE_SHARE * 100} % of the random ones; ${sz.hubs} hubs × ${int(sz.hubCallers)} callers; ${int(sz.externalCalls)} calls to externals, ${int(sz.webhookCalls)} from them), ${int(c['runs-on'] ?? 0)} runs-on links.`);
  say(`   ${int(sz.workloads)} services on the pods of one workload each (pods on random nodes: nodes are shared); the others on VMs (${int(sz.colocations)} colocations share a VM);`);
  say('   nodes are VMs on the first tenth of the hosts, the other VMs on the rest (≈ 4 a host); each VM on a datastore, a tenth on two.');
  say(
    table(
      ['engine', 'entities', 'links', 'generated', 'bulk load', 'VACUUM ANALYZE', 'cold snapshot (graph load), 3 runs'],
      done.map((o) => [o.name, int(o.load.entities), int(o.load.links), seconds(o.load.generateMs), seconds(o.load.loadMs), seconds(o.load.analyzeMs), `${o.result.snapshot.runs.map((r) => `${ms(r)} ms`).join(', ')}`]),
    ),
  );

  say(`\n2. preview-blast (BlastService.preview: matching + blast radius + criticality), hops ${PREVIEW_HOPS}, dedicated, warm snapshot; SQL = one recursive-CTE statement computing the same scope`);
  say(`   ordinary: ${opts.components} random services (not hubs), each once, after 10 untimed. hub: the 5 hubs × ${opts.hubRuns} runs; the SQL in the first ${opts.hubBaselineRuns} rounds only.`);
  say(`   Scopes compared per component: the service set, the dedicated infrastructure uncapped (silenced or capped) plus the pods of its workloads, and the shared infrastructure.`);
  say(`   A hub reaches over ${int(MAX_SERVICES)} services (over 10,000 at hops 2), which refuses the change: ours stops at the service that decides it and walks no`);
  say(`   infrastructure, while the SQL computes the whole scope. Such a component is subset-checked: our services among the SQL's, and the SQL's over ${int(MAX_SERVICES)} too.`);
  say(`   The snapshot is warm: loading it cold (once a minute at most, on the first preview after that) is not in these figures: ${done.map((o) => `${o.name} ${ms(Math.min(...o.result.snapshot.runs))}–${ms(Math.max(...o.result.snapshot.runs))} ms`).join(', ')}.`);
  say(
    table(
      ['engine', 'components', 'runs (SQL)', 'ours p50 ms', 'ours p99 ms', 'SQL p50 ms', 'SQL p99 ms', 'ours/SQL p50', 'ours/SQL p99', 'scopes', `goal p99 <= ${GOAL_PREVIEW_P99_MS} ms`],
      done.flatMap((o) => o.result.groups.map((g) => [o.name, g.label, `${g.ours.n} (${g.baseline.n})`, ms(g.ours.p50), ms(g.ours.p99), ms(g.baseline.p50), ms(g.baseline.p99), ratio(g.ours.p50, g.baseline.p50), ratio(g.ours.p99, g.baseline.p99), checked(g.check), previewGoal(g)])),
    ),
  );
  say('   Where the time goes (measured separately, the same components): matching = MappingService.match (the preview resolves its components against every');
  say('   catalogue entity), computeBlast = the graph walk alone; and what the scopes held on average.');
  say(
    table(
      ['engine', 'components', 'matching p50 / p99 ms', 'computeBlast p50 / p99 ms', 'services (SQL)', 'dedicated items', '+ pods', 'shared items', 'at the ceiling', 'refused'],
      done.flatMap((o) => o.result.groups.map((g) => [o.name, g.label, pair(g.match), pair(g.compute), `${g.avg.services.toFixed(0)} (${Number.isFinite(g.avg.baselineServices) ? g.avg.baselineServices.toFixed(0) : '-'})`,
        g.avg.dedicated.toFixed(0), (g.avg.assets - g.avg.dedicated).toFixed(0), g.avg.shared.toFixed(0), `${g.ceilingHit} of ${g.ours.n}`, `${g.refused} of ${g.ours.n}`])),
    ),
  );

  say(`\n3. Inventory page (CatalogueService.inventory, limit ${PAGE_LIMIT}, hops ${PREVIEW_HOPS}, fresh links), warm snapshot, ${opts.pages} pages at seeded random offsets (after 3 untimed);`);
  say('   SQL = one recursive-CTE statement computing both sides\' hop-1 / hop-2 neighbour key sets of the same 500 entities. An entity our walk truncated');
  say('   (a list over 200, a walk over 2,000 edges) is subset-checked: its lists within the SQL\'s.');
  say(
    table(
      ['engine', 'pages', 'ours p50 ms', 'ours p99 ms', 'SQL p50 ms', 'SQL p99 ms', 'ours/SQL p50', 'ours/SQL p99', 'entities', 'page size', 'slowest page', `goal p99 <= ${GOAL_INVENTORY_P99_MS} ms`],
      done.map((o) => {
        const i = o.result.inventory;
        return [o.name, String(i.pages), ms(i.ours.p50), ms(i.ours.p99), ms(i.baseline.p50), ms(i.baseline.p99), ratio(i.ours.p50, i.baseline.p50), ratio(i.ours.p99, i.baseline.p99),
          checked(i.check), `${(i.bytes / 2 ** 20).toFixed(1)} MiB`, `${ms(i.slowest.ms)} ms at ${int(i.slowest.offset)}: ${i.slowest.kinds}`, i.ours.p99 <= GOAL_INVENTORY_P99_MS ? 'met' : 'MISSED'];
      }),
    ),
  );

  say('\n4. Summary');
  say(
    table(
      ['engine', 'cold snapshot', 'preview p50 / p99 ms (ordinary)', 'preview p50 / p99 ms (hub)', 'inventory page p50 / p99 ms', 'goals', 'ours and SQL agree'],
      outcomes.map((o) => {
        if ('skipped' in o) return [o.name, 'skipped', '', '', '', '', ''];
        const [ordinary, hub] = o.result.groups;
        const inv = o.result.inventory;
        const goals = [ordinary!, hub!].every((g) => g.ours.p99 <= GOAL_PREVIEW_P99_MS) && inv.ours.p99 <= GOAL_INVENTORY_P99_MS ? 'met' : 'MISSED';
        const bad = [...o.result.groups.map((g) => g.check), inv.check].reduce((a, ch) => a + ch.mismatches.length, 0);
        return [o.name, `${ms(Math.min(...o.result.snapshot.runs))} ms`, pair(ordinary!.ours), pair(hub!.ours), pair(inv.ours), goals, bad ? `NO: ${bad} differ` : 'yes'];
      }),
    ),
  );
  sayWhere(outcomes, { notes: false });
}

export async function run(args: string[]): Promise<void> {
  const opts = options(args);
  for (const line of machine()) say(line);
  const outcomes: Outcome[] = await onEachEngine(opts.engines, (engine) => benchEngine(engine, opts));
  report(outcomes, opts);

  // Ours and the SQL must agree on every compared scope and page: a difference fails the run, after the figures.
  const mismatches = outcomes.flatMap((o) => ('skipped' in o ? [] : [...o.result.groups.map((g) => g.check), o.result.inventory.check].flatMap((ch) => ch.mismatches.map((m) => `${o.name}: ${m}`))));
  if (mismatches.length) {
    say(`\n${mismatches.length} answers DIFFER between ours and the SQL:`);
    for (const m of mismatches.slice(0, 40)) say(`  ${m}`);
    if (mismatches.length > 40) say(`  … and ${mismatches.length - 40} more`);
    throw new Error(`blast benchmark: ${mismatches.length} answers differ between ours and the SQL (listed above)`);
  }
}
