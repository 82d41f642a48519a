/**
 * What recording a flag change costs a write: `FlagService.setState` (one statement reads the flag,
 * ticket pattern and environment policy and locks the state; one updates the state and the flag's
 * updated_at, and numbers, hashes and appends the record, and goes with the COMMIT; one
 * transaction) against the bare `UPDATE flag_states` of the same flag in its own transaction,
 * prepared as the service's statements are, so that its BEGIN travels with it as theirs does. A
 * third variant, `core`, does only the locked read and the update with its record (what the write
 * needs at the least), which splits the gap into the service's checks and the record itself.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { compose, type Services } from '../src/compose.js';
import type { Clock } from '../src/platform/clock.js';
import { createSealer } from '../src/platform/crypto/sealed.js';
import { prepared, type Database } from '../src/platform/db/database.js';
import { createLogger } from '../src/platform/logger.js';
import { createOutboundClient } from '../src/platform/net/outbound.js';
import type { AuditContext } from '../src/domains/ledger/audit-event.js';
import { appendAuditEvent } from '../src/domains/ledger/ledger-store.js';
import { verifyLedger } from '../src/domains/ledger/ledger-queries.js';
import { FLAG_RECORD_VERSION } from '../src/domains/flags/flag-record.js';
import type { WriteMeta } from '../src/domains/flags/flag-service.js';
import { lockState, stateWrite } from '../src/domains/flags/flag-store.js';
import { say, counting } from './bench-support.js';

const BARE_UPDATE = prepared('UPDATE flag_states SET enabled = $4, version = version + 1, updated_at = $5 WHERE org_id = $1 AND flag_key = $2 AND env_key = $3');

export type WriteVariant = 'service' | 'core' | 'bare';
export const WRITE_VARIANTS: WriteVariant[] = ['service', 'core', 'bare'];
export const WRITE_FLAGS = 100;
const ENV = 'production';

export type WriteResult = {
  writes: number;
  rounds: number;
  warmup: number;
  flags: number;
  perSec: Record<WriteVariant, number>;
  /** service/s ÷ bare/s: the goal's ratio. */
  ratio: number;
  /** core/s ÷ bare/s: the same with the service's lookups and checks left out. */
  coreRatio: number;
  perRound: Record<WriteVariant, number[]>;
  /** Statements each service write sends, counted once (BEGIN and COMMIT included). */
  statements: Record<WriteVariant, number>;
};

/** The real services on the bench database: silent logs, a throw-away sealing key, no private egress. */
export function benchServices(db: Database, clock: Clock): Services {
  const discard = new Writable({ write: (_chunk, _enc, cb) => cb() });
  return compose({ db, clock, logger: createLogger({ level: 'silent', destination: discard }), sealer: createSealer(randomBytes(32)), outbound: { client: createOutboundClient(), allowPrivate: false } });
}


export async function benchWrites(db: Database, clock: Clock, engineLabel: string, opts: { writes: number; rounds: number }): Promise<WriteResult> {
  const counter = counting(db);
  const services = benchServices(counter.db, clock);
  const setup: AuditContext = { actor: { kind: 'system', id: null, name: 'bench setup' }, source: 'cli' };
  const { org, owner } = await services.auth.createOrganizationWithOwner(setup, { name: 'Flag write benchmark', email: 'owner@bench.example' });
  const ctx: AuditContext = { actor: { kind: 'user', id: owner.id, name: owner.email }, source: 'api' };
  const meta: WriteMeta = { reason: 'bench toggle', source: 'api' };
  const keys = Array.from({ length: WRITE_FLAGS }, (_, i) => `bench.writes.toggle-${String(i).padStart(3, '0')}`);
  for (const key of keys) await services.flags.createFlag(ctx, org.id, { key, type: 'boolean', risk: 'low' }, meta);
  say(`  [${engineLabel}] writes: ${WRITE_FLAGS} low-risk boolean flags in ${org.id}, toggled in ${ENV}`);

  // One truth for every variant: each write flips the flag's real current state, so the service
  // always records flag.updated (never flag.unchanged) whichever variant wrote the flag last.
  const enabled = new Map(keys.map((k) => [k, false]));
  const flip = (key: string) => {
    const next = !enabled.get(key);
    enabled.set(key, next);
    return next;
  };

  const write: Record<WriteVariant, (key: string) => Promise<void>> = {
    service: async (key) => {
      const r = await services.flags.setState(ctx, org.id, key, ENV, { enabled: flip(key) }, meta);
      if (r.result !== 'changed') throw new Error(`flag write benchmark: ${key} was ${r.result}, expected changed`);
    },
    core: async (key) => {
      const to = flip(key);
      await counter.db.transaction(async (tx) => {
        const before = await lockState(tx, org.id, key, ENV);
        if (!before) throw new Error(`flag write benchmark: no state for ${key}`);
        const at = clock.now().toISOString();
        await appendAuditEvent(tx, clock, ctx, {
          orgId: org.id, action: 'flag.updated', target: { type: 'flag', id: key }, schemaVersion: FLAG_RECORD_VERSION,
          data: { flag: key, env: ENV, from: before.enabled, to, fields: ['enabled'], reason: meta.reason, approvers: [], source: meta.source, gitops: null },
        }, { commit: true, alongside: stateWrite(org.id, key, ENV, { ...before, enabled: to }, at) });
      });
    },
    bare: async (key) => {
      const to = flip(key);
      await counter.db.transaction(async (tx) => {
        // Prepared like the service's statements, so that its BEGIN goes with it as theirs does.
        await tx.query(BARE_UPDATE, [
          org.id, key, ENV, to, clock.now().toISOString(),
        ]);
      });
    },
  };

  // Every variant walks the same flags in the same order: write i goes to flag i mod 100.
  const next: Record<WriteVariant, number> = { service: 0, core: 0, bare: 0 };
  const run = async (v: WriteVariant, count: number) => {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) await write[v](keys[(next[v] + i) % keys.length]!);
    next[v] += count;
    return performance.now() - t0;
  };

  const statements = {} as Record<WriteVariant, number>;
  for (const v of WRITE_VARIANTS) {
    counter.reset();
    await run(v, 1);
    statements[v] = counter.count();
  }

  // PGlite's WebAssembly keeps speeding up for hundreds of transactions: warm up as the ledger bench does.
  const warmup = Math.min(500, Math.max(100, Math.round(opts.writes / 5)));
  say(`  [${engineLabel}] writes: warm-up ${warmup} writes of each variant`);
  for (const v of WRITE_VARIANTS) await run(v, warmup);

  const rounds = Math.min(opts.rounds, opts.writes);
  const totals: Record<WriteVariant, { n: number; ms: number }> = { service: { n: 0, ms: 0 }, core: { n: 0, ms: 0 }, bare: { n: 0, ms: 0 } };
  const perRound: Record<WriteVariant, number[]> = { service: [], core: [], bare: [] };
  for (let r = 0; r < rounds; r++) {
    const count = Math.floor(opts.writes / rounds) + (r < opts.writes % rounds ? 1 : 0);
    // Rotating order (A B C, B C A, …): a checkpoint or a busy neighbour lands on every variant.
    const order = WRITE_VARIANTS.map((_, j) => WRITE_VARIANTS[(r + j) % WRITE_VARIANTS.length]!);
    for (const v of order) {
      const elapsed = await run(v, count);
      totals[v].n += count;
      totals[v].ms += elapsed;
      perRound[v].push((count / elapsed) * 1000);
    }
    say(`  [${engineLabel}] writes: round ${r + 1}/${rounds} (${order.join(', ')}): ${count} each: ${WRITE_VARIANTS.map((v) => `${v} ${perRound[v].at(-1)!.toFixed(0)}/s`).join(', ')}`);
  }

  // The records must all be there and the chain whole, or the figures measured something broken.
  const expected = (1 + warmup + opts.writes) * 2;
  const n = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_events WHERE org_id = $1 AND action = 'flag.updated'", [org.id]);
  if (n.rows[0]?.n !== expected) throw new Error(`flag write benchmark: expected ${expected} flag.updated records (service + core), found ${n.rows[0]?.n}`);
  const verified = await verifyLedger(db, org.id);
  if (!verified.ok) throw new Error(`flag write benchmark: the ledger does not verify: ${verified.reason}`);

  const perSec = Object.fromEntries(WRITE_VARIANTS.map((v) => [v, (totals[v].n / totals[v].ms) * 1000])) as Record<WriteVariant, number>;
  return { writes: opts.writes, rounds, warmup, flags: WRITE_FLAGS, perSec, ratio: perSec.service / perSec.bare, coreRatio: perSec.core / perSec.bare, perRound, statements };
}
