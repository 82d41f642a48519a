import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase, engineNames } from '../../../test/support/engines.js';
import { SettableClock } from '../../platform/clock.js';
import { openDatabase, type Database } from '../../platform/db/database.js';
import { loadMigrations, migrate } from '../../platform/db/migrate.js';
import { GENESIS_HASH, hashEvent, type AuditEvent } from './audit-event.js';
import { appendAuditEvent, exportLedger, findAuditEvent, ledgerDigest, listAuditEvents, verifyLedger, type ExportLine } from './index.js';

// Migration 0040 moves every ledger from audit_events into the narrower audit_log. A ledger
// written before it must read back event for event, verify, and go on growing after it.
const BEFORE = 39;

/** A chain as the release before 0040 wrote it: every column, prev_hash and hash as hex. */
function oldChain(orgId: string, n: number): AuditEvent[] {
  const out: AuditEvent[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const automated = seq % 5 === 0;
    const unhashed: Omit<AuditEvent, 'hash'> = {
      orgId, seq, occurredAt: new Date(Date.UTC(2026, 6, 1, 12, 0, seq)).toISOString(),
      actor: automated
        ? { kind: 'automation', id: 'tok_ci', name: 'nightly (via ci)', automation: 'nightly', trigger: 'schedule' }
        : { kind: 'user', id: `usr_${seq % 3}`, name: `person${seq % 3}@example.test`, automation: null, trigger: null },
      action: seq % 2 ? 'flag.updated' : 'change.registered',
      target: { type: seq % 2 ? 'flag' : 'change', id: seq % 2 ? `ops.pay.f${seq % 4}` : `chg_${seq}` },
      correlationId: seq % 4 === 0 ? `inc-${seq}` : null,
      requestId: seq % 7 === 0 ? null : `req_${seq}`,
      source: automated ? 'scheduler' : 'api',
      data: { seq, note: 'ünïcode "quoted" \\ {brace}', nested: { list: [1, null, 'x'] } },
      schemaVersion: 1,
      prevHash: prev,
    };
    const e = { ...unhashed, hash: hashEvent(unhashed) };
    out.push(e);
    prev = e.hash;
  }
  return out;
}

async function writeOld(db: Database, orgId: string, events: readonly AuditEvent[]): Promise<void> {
  await db.query('INSERT INTO organizations (id, name, slug, created_at) VALUES ($1, $2, $3, now())', [orgId, orgId, orgId.replace('_', '-')]);
  const last = events.at(-1);
  await db.query('INSERT INTO audit_heads (org_id, seq, hash) VALUES ($1, $2, $3)', [orgId, last?.seq ?? 0, last?.hash ?? GENESIS_HASH]);
  for (const e of events) {
    await db.query(
      `INSERT INTO audit_events (org_id, seq, occurred_at, actor_kind, actor_id, actor_name, actor_automation, actor_trigger, action,
         target_type, target_id, correlation_id, request_id, source, data, schema_version, prev_hash, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [orgId, e.seq, e.occurredAt, e.actor.kind, e.actor.id, e.actor.name, e.actor.automation, e.actor.trigger, e.action,
        e.target.type, e.target.id, e.correlationId, e.requestId, e.source, JSON.stringify(e.data), e.schemaVersion, e.prevHash, e.hash],
    );
  }
}

for (const engine of engineNames()) {
  describe(`migration 0040, the compact audit log [${engine}]`, () => {
    let db: Database;
    let done: () => Promise<void>;
    const clock = new SettableClock('2026-08-01T09:00:00.000Z');
    const a = oldChain('org_a', 37);
    const b = oldChain('org_b', 4);

    beforeAll(async () => {
      if (engine === 'pglite') {
        const dir = mkdtempSync(join(tmpdir(), 'changeledger-0040-'));
        db = await openDatabase({ engine: 'pglite', dataDir: dir });
        done = async () => rmSync(dir, { recursive: true, force: true });
      } else {
        const pg = await emptyPostgresDatabase('m0040');
        db = await openDatabase({ engine: 'postgres', url: pg.url });
        done = pg.drop;
      }
      const shipped = loadMigrations();
      await migrate(db, shipped.filter((m) => m.version <= BEFORE));
      await writeOld(db, 'org_a', a);
      await writeOld(db, 'org_b', b);
      await writeOld(db, 'org_c', []);
      await migrate(db, shipped);
    }, 120_000);
    afterAll(async () => {
      await db?.close();
      await done?.();
    });

    it('reads every event back as it was written, and verify finds each chain intact with the same head', async () => {
      for (const [orgId, events] of [['org_a', a], ['org_b', b]] as const) {
        expect(await verifyLedger(db, orgId)).toMatchObject({ ok: true, checked: events.length, head: { seq: events.length, hash: events.at(-1)!.hash } });
        expect(await ledgerDigest(db, orgId)).toEqual({ orgId, seq: events.length, hash: events.at(-1)!.hash, occurredAt: events.at(-1)!.occurredAt });
        expect((await listAuditEvents(db, orgId, {}, 100)).items).toEqual([...events].reverse());
        expect(await findAuditEvent(db, orgId, 1)).toEqual(events[0]);
      }
      expect(await verifyLedger(db, 'org_c')).toMatchObject({ ok: true, checked: 0 });
      // Filters still find what they found: one actor, one flag namespace.
      expect((await listAuditEvents(db, 'org_a', { actorName: 'person1@example.test' }, 100)).items.map((e) => e.seq))
        .toEqual(a.filter((e) => e.actor.name === 'person1@example.test').map((e) => e.seq).reverse());
      expect((await listAuditEvents(db, 'org_a', { targetType: 'flag', targetIdPrefix: 'ops.pay.' }, 100)).items).toHaveLength(19);
    });

    it('exports the chain with each prev_hash, and keeps the old columns readable in the audit_events view', async () => {
      const lines: ExportLine[] = [];
      // Pages of 10: each page's lowest event takes its prev_hash from the row below the page.
      for await (const line of exportLedger(db, clock, { id: 'org_a', slug: 'org-a' }, {}, 10)) lines.push(line);
      const exported = lines.flatMap((l) => ('trailer' in l ? [] : [l]));
      expect(exported).toEqual([...a].reverse().map(({ orgId: _org, ...rest }) => rest));
      expect(lines.at(-1)).toMatchObject({ trailer: { head: { seq: 37, hash: a.at(-1)!.hash }, events: 37, complete: true } });
      const view = await db.query<{ seq: number; prev_hash: string; hash: string }>('SELECT seq, prev_hash, hash FROM audit_events WHERE org_id = $1 ORDER BY seq', ['org_b']);
      expect(view.rows.map((r) => [Number(r.seq), r.prev_hash, r.hash])).toEqual(b.map((e) => [e.seq, e.prevHash, e.hash]));
    });

    it('goes on appending to a migrated chain, and an append in the previous release’s form through the view links to it or is refused', async () => {
      const next = await db.transaction((tx) => appendAuditEvent(tx, clock, { actor: { kind: 'user', id: 'usr_1', name: 'person1@example.test' }, source: 'api' },
        { orgId: 'org_b', action: 'flag.updated', target: { type: 'flag', id: 'ops.pay.f1' } }));
      expect(next).toMatchObject({ seq: 5, prevHash: b.at(-1)!.hash });
      // The previous release appended with an INSERT of every column into audit_events.
      const [sixth] = oldChain('org_b', 6).slice(5).map((e) => ({ ...e, prevHash: next.hash }));
      const old = { ...sixth!, hash: hashEvent({ ...sixth!, hash: undefined } as Omit<AuditEvent, 'hash'>) };
      const insert = (e: AuditEvent) => db.transaction(async (tx) => {
        await tx.query('UPDATE audit_heads SET seq = $2, hash = $3 WHERE org_id = $1', ['org_b', e.seq, e.hash]);
        return tx.query<{ seq: number; prev_hash: string; hash: string }>(
          `INSERT INTO audit_events (org_id, seq, occurred_at, actor_kind, actor_id, actor_name, actor_automation, actor_trigger, action,
             target_type, target_id, correlation_id, request_id, source, data, schema_version, prev_hash, hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING seq, prev_hash, hash`,
          ['org_b', e.seq, e.occurredAt, e.actor.kind, e.actor.id, e.actor.name, e.actor.automation, e.actor.trigger, e.action,
            e.target.type, e.target.id, e.correlationId, e.requestId, e.source, JSON.stringify(e.data), e.schemaVersion, e.prevHash, e.hash]);
      });
      const forged = { ...old, prevHash: GENESIS_HASH };
      await expect(insert(forged)).rejects.toThrow(/audit event 6 does not link to the event before it/);
      const r = await insert(old);
      expect(r.rows.map((x) => [Number(x.seq), x.prev_hash, x.hash])).toEqual([[6, next.hash, old.hash]]);
      expect(await verifyLedger(db, 'org_b')).toMatchObject({ ok: true, checked: 6, head: { seq: 6, hash: old.hash } });
    });
  });
}
