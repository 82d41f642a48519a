/**
 * `npm run bench -- governance [--rounds N] [--registrations N] [--engines pglite,postgres]`:
 *
 * 1. The window matcher with 200 windows against its goal of 20 µs a check (governance-windows.ts).
 * 2. Registration with classes, tiers and windows on against the same registrations with them off,
 *    side by side on each engine (goal: on costs at most 10 % more). "On" is the governance domain
 *    plugged in with 5 certified templates and 200 windows (each registration reads the templates,
 *    the window stamp, and asks the matcher for its start and its conflicts); "off" is the seam with
 *    no templates and no windows. The class and tier rules run in both (they are pure and cheap).
 *    Rounds alternate on and off over the same organisation and estate. Approval is off in both arms,
 *    so both schedule every change: the arms differ only in what governance reads and decides.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { compose, type Services } from '../src/compose.js';
import type { TokenPrincipal } from '../src/domains/auth/index.js';
import { NO_GOVERNANCE } from '../src/domains/changes/index.js';
import type { AuditContext } from '../src/domains/ledger/index.js';
import { systemClock } from '../src/platform/clock.js';
import { createSealer } from '../src/platform/crypto/sealed.js';
import type { Engine } from '../src/platform/db/database.js';
import { createLogger } from '../src/platform/logger.js';
import { createOutboundClient } from '../src/platform/net/outbound.js';
import { onEachEngine, type BenchEngine } from './bench-engines.js';
import { busy, int, machine, parseOptions, positiveInt, say, seededRandom, table, UsageError } from './bench-support.js';
import { buildWindows, windowsBench } from './governance-windows.js';

export const GOAL_OVERHEAD = 0.10;
const USAGE = 'usage: npm run bench -- governance [--rounds N (default 5)] [--registrations N per round and arm (default 100)] [--engines pglite,postgres]';

type Options = { rounds: number; registrations: number; engines: Engine[] };

function options(args: string[]): Options {
  const { values, flags } = parseOptions(args, { values: ['rounds', 'registrations', 'engines'], flags: ['help'] });
  if (flags.has('help')) throw new UsageError(USAGE);
  const engines = (values.get('engines') ?? 'pglite,postgres').split(',').map((e) => e.trim());
  for (const e of engines) if (e !== 'pglite' && e !== 'postgres') throw new UsageError(`--engines: unknown engine "${e}"\n\n${USAGE}`);
  return { rounds: positiveInt('rounds', values.get('rounds')) ?? 5, registrations: positiveInt('registrations', values.get('registrations')) ?? 100, engines: [...new Set(engines)] as Engine[] };
}

const ESTATE = JSON.stringify({
  format: 'changeledger/catalogue/1',
  entities: Array.from({ length: 40 }, (_, i) => ({ key: `svc:s-${i}`, kind: 'service', name: `s-${i}`, tier: i % 10 === 0 ? 'critical' : i % 3 === 0 ? 'important' : 'standard' })),
  links: Array.from({ length: 39 }, (_, i) => ({ from: `svc:s-${i}`, to: `svc:s-${i + 1}`, via: 'calls' })),
});

type Arm = 'on' | 'off';
type Done = { name: Engine; version: string; on: number[]; off: number[]; load: string };

async function onEngine(engine: BenchEngine, o: Options): Promise<Done> {
  say(`\n== ${engine.version} ==`);
  const services: Services = compose({
    db: engine.db, clock: systemClock, logger: createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) }), sealer: createSealer(randomBytes(32)),
    outbound: { client: createOutboundClient(), allowPrivate: false },
  });
  const setup: AuditContext = { actor: { kind: 'system', id: null, name: 'bench setup' }, source: 'cli' };
  const { org, owner } = await services.auth.createOrganizationWithOwner(setup, { name: 'Governance benchmark', email: 'owner@governance.bench' });
  const { user: certifier } = await services.auth.addMember(setup, { org: org.slug, email: 'certifier@governance.bench', role: 'admin', displayName: 'Certifier', password: 'correct-horse-battery-staple' });
  await services.catalogue.importText(setup, org.id, 'changeledger', ESTATE, 'bench');
  const ownerP = { kind: 'session' as const, org, user: owner, role: 'owner' as const } as never;
  const certifierP = { kind: 'session' as const, org, user: certifier, role: 'owner' as const } as never;
  for (let t = 0; t < 5; t++) {
    const tpl = await services.templates.create(setup, ownerP, { name: `Routine deploy ${t}`, kind: 'deploy', services: [`svc:s-${t * 8}*`, `s-${t * 8 + 1}`], environments: ['staging', 'prod*'], pipelines: [], repos: [], maxBlastServices: 20, hops: 2 });
    await services.templates.certify(setup, certifierP, tpl.id);
  }
  const defs = buildWindows(seededRandom(7));
  for (const d of defs) await services.windows.create(setup, ownerP, { name: d.name, kind: d.kind, schedule: d.schedule, scope: d.scope });
  const { secret } = await services.auth.createToken(setup, { org, user: owner }, { name: 'bench pipeline', scopes: ['changes:read', 'changes:write'] });
  const p = (await services.auth.authenticateToken(secret)) as TokenPrincipal;
  const ctx: AuditContext = { actor: { kind: 'token', id: p.tokenId, name: 'bench pipeline' }, source: 'api' };
  // Approval off in both arms: each registration is scheduled either way, so the arms differ only in what governance reads and decides.
  await services.changeSettings.update(setup, ownerP, { approvalRequired: 'none' });
  say(`  ${org.id}: 40 services in a chain, 5 certified templates, ${defs.length} windows; a pipeline token registers deploys (windows an hour ahead, 1 hop)`);
  const on = services.windows.reader();
  let n = 0;
  const registerMany = async (arm: Arm): Promise<number> => {
    services.changes.setGovernance(arm === 'on' ? on : NO_GOVERNANCE);
    const t0 = performance.now();
    for (let i = 0; i < o.registrations; i++) {
      n++;
      await services.changes.register(ctx, p, {
        title: `Deploy #${n}`, kind: 'deploy', components: [{ key: `svc:s-${n % 40}` }], windowStart: new Date(Date.now() + 3_600_000).toISOString(),
        pipeline: { pipeline: 'deploy', run: String(n), environment: n % 2 ? 'prod-eu' : 'staging', commit: randomBytes(20).toString('hex') }, template: n % 3 === 0 ? `Routine deploy ${n % 5}` : undefined,
      });
    }
    return (performance.now() - t0) / o.registrations;
  };
  await registerMany('on');
  await registerMany('off');
  const before = busy();
  const times: Record<Arm, number[]> = { on: [], off: [] };
  for (let r = 0; r < o.rounds; r++) {
    for (const arm of (r % 2 ? ['off', 'on'] : ['on', 'off']) as Arm[]) times[arm].push(await registerMany(arm));
    say(`  round ${r + 1}: on ${times.on.at(-1)!.toFixed(2)} ms, off ${times.off.at(-1)!.toFixed(2)} ms a registration`);
  }
  services.changes.setGovernance(on);
  return { name: engine.name, version: engine.version, on: times.on, off: times.off, load: `${before} → ${busy()}` };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(args: string[]): Promise<void> {
  const o = options(args);
  say(`Governance benchmark — ${machine().join('; ')}`);
  say('\n1. The window matcher (no database)');
  await windowsBench({ rounds: o.rounds });
  say(`\n2. Registration with classes, tiers and windows on vs off (${int(o.registrations)} registrations per round and arm, ${o.rounds} rounds alternating)`);
  const done = await onEachEngine(o.engines, (e) => onEngine(e, o));
  // Each round's arms ran back to back: the per-round ratio cancels the drift of a growing table and of the machine's load.
  const paired = (d: Done) => median(d.on.map((x, i) => x / d.off[i]!));
  const rows = done.flatMap((d) => ('skipped' in d ? [[d.name, 'skipped', d.skipped, '', '', '']] : [[
    d.name, `${median(d.on).toFixed(2)} ms`, `${median(d.off).toFixed(2)} ms`, `${(median(d.on) / median(d.off)).toFixed(3)}×`, `${paired(d).toFixed(3)}×`,
    paired(d) <= 1 + GOAL_OVERHEAD ? `meets ≤ ${1 + GOAL_OVERHEAD}×` : `MISSES ≤ ${1 + GOAL_OVERHEAD}×`,
  ]]));
  say(`\n${table(['engine', 'on (median per registration)', 'off (baseline)', 'on/off of medians', 'on/off per round (median)', 'goal (per round)'], rows)}`);
  for (const d of done) if (!('skipped' in d)) say(`  ${d.name}: load ${d.load}`);
}
