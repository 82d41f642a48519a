import { beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { testCtx } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import { openDatabase, type Queryable } from '../../platform/db/database.js';
import { AuthService } from '../auth/index.js';
import { appendAtCommit, appendAuditEvent, appendAuditEvents, listAuditEvents, verifyLedger, ledgerDigest, type AuditContext, type AuditEvent } from './index.js';

const ctx: AuditContext = { actor: { kind: 'user', id: 'usr_a', name: 'alice@example.test' }, source: 'api', requestId: 'req_1', correlationId: 'inc-42' };

describeEachEngine('the audit ledger', (engine) => {
  const clock = new SettableClock('2026-07-22T13:00:00.000Z');
  let auth: AuthService;
  const newOrg = async () => (await auth.createOrganizationWithOwner(testCtx, { name: 'Ledger org', email: `o${Math.random().toString(36).slice(2)}@x.test` })).org.id;

  beforeAll(() => {
    auth = new AuthService({ db: engine.db(), clock });
  });

  it('a batch appends its events one after the other in the chain, between single appends, and verify says it is intact', async () => {
    const orgId = await newOrg();
    const before = (await verifyLedger(engine.db(), orgId)).checked;
    // Text an array literal must escape, on its way in as a column of the batch.
    const tricky = 'a "quoted" \\ back, {brace} NULL ü 🚀\n';
    const ev = (i: number) => ({ orgId, action: 'change.unauthorized_detected' as const, target: { type: 'observed_change', id: i === 7 ? 'NULL' : `obs_${i}` }, data: { i, tricky } });
    await engine.db().transaction((tx) => appendAuditEvent(tx, clock, ctx, ev(0)));
    // 1,203 events: more than one INSERT of 500 rows.
    const batch = await engine.db().transaction((tx) => appendAuditEvents(tx, clock, ctx, Array.from({ length: 1203 }, (_, i) => ev(i + 1))));
    expect(batch.map((e) => e.seq)).toEqual(Array.from({ length: 1203 }, (_, i) => before + 2 + i));
    await engine.db().transaction((tx) => appendAuditEvent(tx, clock, ctx, ev(9999)));
    expect(await verifyLedger(engine.db(), orgId)).toMatchObject({ ok: true, checked: before + 1205, firstBrokenSeq: null });
    const page = await listAuditEvents(engine.db(), orgId, {}, 3);
    expect(page.items[1]!.hash).toBe(batch.at(-1)!.hash);
    expect(page.items[0]!.prevHash).toBe(batch.at(-1)!.hash);
    const seventh = (await engine.db().query<{ target_id: string; data: { tricky: string } }>('SELECT target_id, data FROM audit_events WHERE org_id = $1 AND seq = $2', [orgId, before + 8])).rows[0]!;
    expect(seventh).toEqual({ target_id: 'NULL', data: { i: 7, tricky } });
    // One organisation per batch: a mixed one writes nothing.
    const other = await newOrg();
    await expect(engine.db().transaction((tx) => appendAuditEvents(tx, clock, ctx, [ev(1), { ...ev(2), orgId: other }]))).rejects.toThrow(/one organisation/);
    expect((await verifyLedger(engine.db(), orgId)).checked).toBe(before + 1205);
  });

  it('gives each organisation a gap-free sequence linked by hashes, and verify says it is intact', async () => {
    const orgId = await newOrg();
    const before = (await verifyLedger(engine.db(), orgId)).checked;
    for (let i = 0; i < 5; i++) {
      await engine.db().transaction((tx) => appendAuditEvent(tx, clock, ctx, { orgId, action: 'flag.updated', target: { type: 'flag', id: `f${i}` }, data: { from: false, to: true } }));
    }
    const page = await listAuditEvents(engine.db(), orgId, {}, 100);
    const seqs = page.items.map((e) => e.seq).reverse();
    expect(seqs).toEqual(Array.from({ length: before + 5 }, (_, i) => i + 1));
    for (let i = 1; i < page.items.length; i++) expect(page.items[i - 1]!.prevHash).toBe(page.items[i]!.hash);
    const v = await verifyLedger(engine.db(), orgId);
    expect(v).toMatchObject({ ok: true, checked: before + 5, firstBrokenSeq: null });
    expect(await ledgerDigest(engine.db(), orgId)).toMatchObject({ seq: before + 5, hash: page.items[0]!.hash });
    expect(page.items[0]!.occurredAt).toBe('2026-07-22T13:00:00.000Z');
  });

  it('keeps one gap-free, unforked chain under 16 concurrent writers, each event as its writer was told', async () => {
    const orgId = await newOrg();
    const start = (await ledgerDigest(engine.db(), orgId)).seq;
    const domain = `ledger_writers_${Math.random().toString(36).slice(2)}`;
    await engine.db().exec(`CREATE TABLE ${domain} (id text PRIMARY KEY, seq bigint)`);
    // Each writer's transaction makes a domain row and its event; every fifth one appends a second
    // event after it, every seventh a batch of three, and every eleventh is rolled back. Some write
    // the domain row first and end with an event that commits the transaction (as a flag toggle does).
    const told: AuditEvent[] = [];
    const rolledBack = new Set<string>();
    const committedByEvent = new Set<string>();
    let sentWithCommit = 0;
    const writer = async (w: number) => {
      for (let i = 0; i < 12; i++) {
        const id = `w${w}_${i}`;
        const ev = (n: number) => ({ orgId, action: 'change.registered' as const, target: { type: 'change', id: `${id}_${n}` }, data: { w, i, n } });
        try {
          const got = await engine.db().transaction(async (tx) => {
            if (i % 4 === 0) {
              await tx.query(`INSERT INTO ${domain} (id, seq) VALUES ($1, NULL)`, [id]);
              committedByEvent.add(id);
              // Counted, so the test shows the append went with its COMMIT where the engine can do that.
              const counting = tx.queryThenCommit ? { ...tx, queryThenCommit: ((text: string, params: readonly unknown[]) => (sentWithCommit++, tx.queryThenCommit!(text, params))) as typeof tx.queryThenCommit } : tx;
              return [await appendAuditEvent(counting, clock, ctx, ev(0), { commit: true })];
            }
            const first = await appendAuditEvent(tx, clock, ctx, ev(0));
            await tx.query(`INSERT INTO ${domain} (id, seq) VALUES ($1, $2)`, [id, first.seq]);
            const more = i % 7 === 3 ? await appendAuditEvents(tx, clock, ctx, [ev(1), ev(2), ev(3)]) : i % 5 === 1 ? [await appendAuditEvent(tx, clock, ctx, ev(1))] : [];
            if (i % 11 === 10) throw new Error('rolled back on purpose');
            return [first, ...more];
          });
          told.push(...got);
        } catch (e) {
          if ((e as Error).message !== 'rolled back on purpose') throw e;
          rolledBack.add(id);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, w) => writer(w)));
    const rows = (await engine.db().query<{ seq: number; prev_hash: string; hash: string; target_id: string }>(
      'SELECT seq, prev_hash, hash, target_id FROM audit_events WHERE org_id = $1 AND seq > $2 ORDER BY seq', [orgId, start])).rows;
    // No gaps: the numbers run on from the start, one for each event a writer was told of, and no more.
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: told.length }, (_, k) => start + 1 + k));
    // No forks: every event links to the one before it.
    expect(new Set(rows.map((r) => r.prev_hash)).size).toBe(rows.length);
    // What each writer was told is what the ledger holds, and a rolled-back write left nothing.
    const stored = new Map(rows.map((r) => [r.target_id, r]));
    for (const e of told) expect(stored.get(e.target.id)).toMatchObject({ seq: e.seq, prev_hash: e.prevHash, hash: e.hash });
    expect(rolledBack.size).toBe(16);
    for (const id of rolledBack) expect(stored.has(`${id}_0`)).toBe(false);
    const domainRows = (await engine.db().query<{ id: string; seq: number }>(`SELECT id, seq FROM ${domain}`)).rows;
    expect(domainRows).toHaveLength(16 * 12 - 16);
    expect(committedByEvent.size).toBe(16 * 3);
    expect(sentWithCommit).toBe(16 * 3);
    for (const d of domainRows) {
      if (committedByEvent.has(d.id)) expect(d.seq).toBeNull();
      else expect(stored.get(`${d.id}_0`)?.seq).toBe(d.seq);
      expect(stored.has(`${d.id}_0`)).toBe(true);
    }
    expect(await verifyLedger(engine.db(), orgId)).toMatchObject({ ok: true, firstBrokenSeq: null });
    expect(await ledgerDigest(engine.db(), orgId)).toMatchObject({ seq: start + told.length, hash: told.reduce((a, b) => (a.seq > b.seq ? a : b)).hash });
  });

  it('an append with the write it records in its statement: both land, or neither does, with commit or without', async () => {
    const { org, owner: user } = await auth.createOrganizationWithOwner(testCtx, { name: 'Ledger org', email: `o${Math.random().toString(36).slice(2)}@x.test` });
    const orgId = org.id;
    const name = async () => (await engine.db().query<{ n: string }>('SELECT display_name AS n FROM users WHERE id = $1', [user.id])).rows[0]!.n;
    const rename = (to: string | null) => ({ statements: ['UPDATE users SET display_name = $2 WHERE id = $1'], params: [user.id, to] });
    const ev = (i: number) => ({ orgId, action: 'user.display_name_changed' as const, target: { type: 'user', id: user.id }, data: { i } });
    for (const commit of [false, true]) {
      const e = await engine.db().transaction((tx) => appendAuditEvent(tx, clock, ctx, ev(commit ? 2 : 1), { commit, alongside: rename(`Renamed ${commit}`) }));
      expect(await name()).toBe(`Renamed ${commit}`);
      expect((await listAuditEvents(engine.db(), orgId, { action: 'user.display_name_changed' }, 1)).items[0]).toEqual(e);
    }
    // users.display_name is NOT NULL: the write fails inside the append's statement.
    const before = await ledgerDigest(engine.db(), orgId);
    for (const commit of [false, true]) {
      await expect(engine.db().transaction((tx) => appendAuditEvent(tx, clock, ctx, ev(3), { commit, alongside: rename(null) }))).rejects.toThrow(/null value in column "display_name"/);
    }
    expect(await ledgerDigest(engine.db(), orgId)).toEqual(before);
    expect(await name()).toBe('Renamed true');
    // An event for an organisation without a ledger head fails inside its statement: the write beside
    // it is undone, and the COMMIT sent with it is skipped.
    for (const commit of [false, true]) {
      await expect(engine.db().transaction((tx) => appendAuditEvent(tx, clock, ctx, { ...ev(4), orgId: 'org_without_a_ledger' }, { commit, alongside: rename('Headless') })))
        .rejects.toThrow('organisation org_without_a_ledger has no ledger head');
    }
    expect(await name()).toBe('Renamed true');
    expect(await verifyLedger(engine.db(), orgId)).toMatchObject({ ok: true, firstBrokenSeq: null });
  });

  it('writes an event kept for the commit with it, in the order events were recorded, without the head locked before', async () => {
    const orgId = await newOrg();
    const head = async (q: Queryable) => Number((await q.query<{ seq: number }>('SELECT seq FROM audit_heads WHERE org_id = $1', [orgId])).rows[0]!.seq);
    const start = await head(engine.db());
    const ev = (id: string) => ({ orgId, action: 'flag.updated' as const, target: { type: 'flag', id }, data: { id } });
    const meanwhile = engine.name === 'postgres' ? 1 : 0;
    const told = await engine.db().transaction(async (tx) => {
      await appendAtCommit(tx, clock, ctx, ev('kept-1'));
      // Not written yet: the chain has not moved.
      expect(await head(tx)).toBe(start);
      if (engine.name === 'postgres') {
        // Nor is its head locked: another writer of the organisation commits meanwhile. (PGlite runs
        // one transaction at a time, so there is no other writer to wait.)
        await engine.db().transaction((other) => appendAuditEvent(other, clock, ctx, ev('meanwhile'), { commit: true }));
      }
      // An event written at once goes after the one kept before it.
      const now = await appendAuditEvent(tx, clock, ctx, ev('at-once'), { commit: true });
      await appendAtCommit(tx, clock, ctx, ev('kept-2'));
      return now;
    });
    expect(told.seq).toBe(start + meanwhile + 2);
    const chain = (await listAuditEvents(engine.db(), orgId, {}, 10)).items.slice(0, 3 + meanwhile).reverse();
    expect(chain.map((e) => e.target.id)).toEqual([...(meanwhile ? ['meanwhile'] : []), 'kept-1', 'at-once', 'kept-2']);
    expect(chain.map((e) => e.seq)).toEqual(Array.from({ length: 3 + meanwhile }, (_, i) => start + 1 + i));
    expect(await verifyLedger(engine.db(), orgId)).toMatchObject({ ok: true, checked: start + 3 + meanwhile, firstBrokenSeq: null });

    // A callback that throws writes no kept event; a kept event that fails takes the transaction's writes with it.
    await expect(engine.db().transaction(async (tx) => {
      await appendAtCommit(tx, clock, ctx, ev('lost'));
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    await expect(engine.db().transaction(async (tx) => {
      await appendAuditEvent(tx, clock, ctx, ev('rolled-back'));
      await appendAtCommit(tx, clock, ctx, { ...ev('no-head'), orgId: 'org_without_a_ledger' });
    })).rejects.toThrow(/has no ledger head/);
    expect(await head(engine.db())).toBe(start + 3 + meanwhile);
    // Other work kept for the end after the events: they go without the COMMIT, and the work runs before it.
    let after = 0;
    await engine.db().transaction(async (tx) => {
      await appendAtCommit(tx, clock, ctx, ev('before-other-work'));
      tx.beforeCommit!(async () => {
        after = (await tx.query('SELECT seq FROM audit_heads WHERE org_id = $1', [orgId])).rows.length;
      });
    });
    expect(after).toBe(1);
    expect((await listAuditEvents(engine.db(), orgId, {}, 1)).items[0]!.target.id).toBe('before-other-work');
    // An action outside the registry is refused when it is recorded, not at the commit.
    await expect(engine.db().transaction((tx) => appendAtCommit(tx, clock, ctx, { ...ev('x'), action: 'flag.nonsense' as 'flag.updated' }))).rejects.toThrow(/not in the registry/);
  });

  it('refuses an action the registry does not list, and writes nothing of the transaction', async () => {
    const orgId = await newOrg();
    const before = await ledgerDigest(engine.db(), orgId);
    await expect(engine.db().transaction(async (tx) => {
      await appendAuditEvent(tx, clock, ctx, { orgId, action: 'flag.updated', target: { type: 'flag', id: 'ok' } });
      await appendAuditEvent(tx, clock, ctx, { orgId, action: 'flag.renamed', target: { type: 'flag', id: 'x' } });
    })).rejects.toThrow('audit action flag.renamed is not in the registry (src/domains/ledger/audit-actions.ts)');
    expect(await ledgerDigest(engine.db(), orgId)).toEqual(before);
    expect((await listAuditEvents(engine.db(), orgId, { action: 'flag.' }, 10)).items).toEqual([]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of audit events at the engine', async () => {
    const orgId = await newOrg();
    const db = engine.db();
    await expect(db.query("UPDATE audit_log SET actor_name = 'bob' WHERE org_no = (SELECT org_no FROM audit_heads WHERE org_id = $1)", [orgId])).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(db.query('DELETE FROM audit_log WHERE org_no = (SELECT org_no FROM audit_heads WHERE org_id = $1)', [orgId])).rejects.toThrow(/append-only: DELETE refused/);
    await expect(db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE refused/);
    // The view of the old columns is no way round it.
    await expect(db.query("UPDATE audit_events SET actor_name = 'bob' WHERE org_id = $1", [orgId])).rejects.toThrow(/cannot update view/);
    await expect(db.query('DELETE FROM audit_events WHERE org_id = $1', [orgId])).rejects.toThrow(/cannot delete from view/);
    expect((await verifyLedger(db, orgId)).ok).toBe(true);
  });

  it('names the first broken event when a row is edited behind the trigger’s back', async () => {
    const orgId = await newOrg();
    for (let i = 0; i < 4; i++) await engine.db().transaction((tx) => appendAuditEvent(tx, clock, ctx, { orgId, action: 'flag.updated', target: { type: 'flag', id: 'x' }, data: { to: i } }));
    const su = engine.superuser();
    await su.exec('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
    try {
      await su.query(`UPDATE audit_log SET data = '{"to": 99}' WHERE org_no = (SELECT org_no FROM audit_heads WHERE org_id = $1) AND seq = 4`, [orgId]);
    } finally {
      await su.exec('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
    }
    const v = await verifyLedger(engine.db(), orgId);
    expect(v).toMatchObject({ ok: false, firstBrokenSeq: 4 });
    expect(v.reason).toMatch(/altered/);
  });

  it('names a removed event as missing', async () => {
    const orgId = await newOrg();
    for (let i = 0; i < 4; i++) await engine.db().transaction((tx) => appendAuditEvent(tx, clock, ctx, { orgId, action: 'flag.updated', target: { type: 'flag', id: 'x' } }));
    const su = engine.superuser();
    await su.exec('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
    try {
      await su.query('DELETE FROM audit_log WHERE org_no = (SELECT org_no FROM audit_heads WHERE org_id = $1) AND seq = 3', [orgId]);
    } finally {
      await su.exec('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
    }
    expect(await verifyLedger(engine.db(), orgId)).toMatchObject({ ok: false, firstBrokenSeq: 3 });
  });

  it('a broken chain counts the events it checked, not the pages it read, whatever the page size', async () => {
    const orgId = await newOrg();
    const head = async () => (await ledgerDigest(engine.db(), orgId)).seq;
    while ((await head()) < 60) await engine.db().transaction((tx) => appendAuditEvent(tx, clock, ctx, { orgId, action: 'flag.updated', target: { type: 'flag', id: 'x' } }));
    expect(await verifyLedger(engine.db(), orgId)).toMatchObject({ ok: true, checked: 60 });
    const su = engine.superuser();
    await su.exec('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
    try {
      await su.query(`UPDATE audit_log SET actor_name = 'mallory' WHERE org_no = (SELECT org_no FROM audit_heads WHERE org_id = $1) AND seq = 59`, [orgId]);
    } finally {
      await su.exec('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
    }
    // 58 events follow, the 59th is judged altered; one page of 2000, or six pages of 10.
    for (const pageSize of [2000, 10, 7]) expect(await verifyLedger(engine.db(), orgId, pageSize)).toMatchObject({ ok: false, checked: 59, firstBrokenSeq: 59 });
    await su.exec('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
    try {
      await su.query('DELETE FROM audit_log WHERE org_no = (SELECT org_no FROM audit_heads WHERE org_id = $1) AND seq = 59', [orgId]);
    } finally {
      await su.exec('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
    }
    // A removed event was not there to judge: the 58 before it were.
    for (const pageSize of [2000, 10]) expect(await verifyLedger(engine.db(), orgId, pageSize)).toMatchObject({ ok: false, checked: 58, firstBrokenSeq: 59 });
  });

  it('an actor or category filter answers with its own events alone, even beside another sharing its index hash', async () => {
    const orgId = await newOrg();
    // Pairs whose hashtext() is the same (found once by search; checked here on each engine).
    const ids = ['usr_13839', 'usr_123658'];
    const names = ['person19231@index.test', 'person299781@index.test'];
    const categories = ['cat27483', 'cat161454'];
    const same = await engine.db().query<{ ids: boolean; names: boolean; categories: boolean }>(
      'SELECT hashtext($1) = hashtext($2) AS ids, hashtext($3) = hashtext($4) AS names, hashtext($5) = hashtext($6) AS categories', [...ids, ...names, ...categories]);
    expect(same.rows[0]).toEqual({ ids: true, names: true, categories: true });
    for (const [i, id] of ids.entries()) {
      const who: AuditContext = { ...ctx, actor: { kind: 'user', id, name: names[i]! } };
      await engine.db().transaction((tx) => appendAuditEvent(tx, clock, who, { orgId, action: 'flag.updated', target: { type: 'flag', id: `f${i}` } }));
    }
    // No two categories of the registry share a hash: two such rows go straight into the table (the filters read rows, not the chain).
    for (const [i, category] of categories.entries()) {
      await engine.db().query(
        `INSERT INTO audit_log (org_no, schema_version, seq, occurred_at, actor_kind, actor_name, action, target_type, target_id, source, data, hash)
         SELECT org_no, 1, 1000 + $2::int, now(), 'system', 'test', $3, 'thing', $4, 'system', '{}', sha256(int4send($2::int)) FROM audit_heads WHERE org_id = $1`,
        [orgId, i, `${category}.updated`, `c${i}`]);
    }
    for (const [i, id] of ids.entries()) {
      expect((await listAuditEvents(engine.db(), orgId, { actor: id }, 10)).items.map((e) => e.target.id)).toEqual([`f${i}`]);
      expect((await listAuditEvents(engine.db(), orgId, { actorName: names[i]! }, 10)).items.map((e) => e.target.id)).toEqual([`f${i}`]);
      expect((await listAuditEvents(engine.db(), orgId, { action: `${categories[i]!}.` }, 10)).items.map((e) => e.target.id)).toEqual([`c${i}`]);
      expect((await listAuditEvents(engine.db(), orgId, { actions: [`${categories[i]!}.updated`, 'session.created'] }, 10)).items.map((e) => e.target.id)).toEqual([`c${i}`]);
    }
  });

  it('filters by action prefix, actor, target, correlation id, window and text, newest first, with a cursor', async () => {
    clock.set('2026-07-22T11:00:00.000Z');
    const orgId = await newOrg();
    const at = (iso: string) => clock.set(iso);
    const bob: AuditContext = { ...ctx, actor: { kind: 'user', id: 'usr_b', name: 'bob@example.test' }, correlationId: 'batch-7' };
    const rows: Array<[string, AuditContext, string, string]> = [
      ['2026-07-22T12:00:00.000Z', ctx, 'flag.updated', 'ops.payments.a'],
      ['2026-07-22T13:10:00.000Z', bob, 'flag.updated', 'ops.payments.b'],
      ['2026-07-22T13:20:00.000Z', ctx, 'token.created', 'tok1'],
      ['2026-07-22T13:30:00.000Z', bob, 'flag.created', 'ops.search.c'],
    ];
    for (const [t, c, action, id] of rows) {
      at(t);
      await engine.db().transaction((tx) => appendAuditEvent(tx, clock, c, { orgId, action, target: { type: action.split('.')[0]!, id }, data: { note: `about ${id}` } }));
    }
    const q = async (f: Parameters<typeof listAuditEvents>[2], limit = 50, cursor?: string) => listAuditEvents(engine.db(), orgId, f, limit, cursor);
    expect((await q({ action: 'flag.' })).items.map((e) => e.target.id)).toEqual(['ops.search.c', 'ops.payments.b', 'ops.payments.a']);
    expect((await q({ actor: 'usr_b' })).items.map((e) => e.action)).toEqual(['flag.created', 'flag.updated']);
    expect((await q({ targetType: 'token', targetId: 'tok1' })).items).toHaveLength(1);
    expect((await q({ correlationId: 'batch-7' })).items).toHaveLength(2);
    expect((await q({ since: new Date('2026-07-22T13:00:00Z'), until: new Date('2026-07-22T13:25:00Z') })).items.map((e) => e.target.id)).toEqual(['tok1', 'ops.payments.b']);
    expect((await q({ q: 'payments' })).items).toHaveLength(2);
    expect((await q({ action: 'flag_' })).items).toHaveLength(0);
    const first = await q({}, 2);
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await q({}, 2, first.nextCursor!);
    expect(second.items.map((e) => e.target.id)).toEqual(['ops.payments.b', 'ops.payments.a']);
    const rest = await q({}, 10, second.nextCursor!);
    expect(rest.items.every((e) => e.action.startsWith('organization.') || e.action.startsWith('user.') || e.action.startsWith('membership.'))).toBe(true);
  });

  it('pages through events that share one instant by their numbers, each once, newest first, with every filter', async () => {
    clock.set('2026-07-23T09:00:00.000Z');
    const orgId = await newOrg();
    const before = (await verifyLedger(engine.db(), orgId)).checked;
    // One batch: 130 events with the same time, by one actor, in one category.
    const bob: AuditContext = { ...ctx, actor: { kind: 'user', id: 'usr_b', name: 'bob@example.test' } };
    await engine.db().transaction((tx) => appendAuditEvents(tx, clock, bob, Array.from({ length: 130 }, (_, i) => ({ orgId, action: 'flag.updated', target: { type: 'flag', id: `ops.f${i}` } }))));
    const all = Array.from({ length: 130 }, (_, i) => before + 130 - i);
    for (const f of [{}, { actor: 'usr_b' }, { actorName: 'bob@example.test' }, { action: 'flag.' }, { targetType: 'flag', targetIdPrefix: 'ops.' }]) {
      const seqs: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await listAuditEvents(engine.db(), orgId, f, 40, cursor);
        seqs.push(...page.items.map((e) => e.seq));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seqs.slice(0, 130), JSON.stringify(f)).toEqual(all);
      expect(seqs.length, JSON.stringify(f)).toBe(Object.keys(f).length === 0 ? 130 + before : 130);
    }
  });

  if (engine.name === 'postgres')
  it('a second PostgreSQL connection pool sees the same chain (several servers on one database)', async () => {
    const orgId = await newOrg();
    const other = await openDatabase({ engine: 'postgres', url: engine.url() });
    try {
      await Promise.all([
        ...Array.from({ length: 10 }, () => engine.db().transaction((tx) => appendAuditEvent(tx, clock, ctx, { orgId, action: 'flag.updated', target: { type: 't', id: '1' } }))),
        ...Array.from({ length: 10 }, () => other.transaction((tx) => appendAuditEvent(tx, clock, ctx, { orgId, action: 'flag.created', target: { type: 't', id: '2' } }))),
      ]);
      expect(await verifyLedger(other, orgId)).toMatchObject({ ok: true });
    } finally {
      await other.close();
    }
  });

  if (engine.name === 'postgres')
  it('the documented grants let an application role append and read, but never rewrite, audit events', async () => {
    const orgId = await newOrg();
    const role = `cl_app_${Math.random().toString(36).slice(2, 8)}`;
    const su = engine.superuser();
    await su.exec(`CREATE ROLE ${role} LOGIN;
      GRANT USAGE ON SCHEMA public TO ${role};
      GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role};
      REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM ${role};`);
    const u = new URL(engine.url());
    u.username = role;
    const app = await openDatabase({ engine: 'postgres', url: u.toString(), poolSize: 1 });
    try {
      await app.transaction((tx) => appendAuditEvent(tx, clock, ctx, { orgId, action: 'flag.updated', target: { type: 'flag', id: 'x' } }));
      expect((await verifyLedger(app, orgId)).ok).toBe(true);
      await expect(app.exec('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update')).rejects.toThrow(/must be owner/);
      await expect(app.query('UPDATE audit_log SET actor_name = $1 WHERE org_no = (SELECT org_no FROM audit_heads WHERE org_id = $2)', ['mallory', orgId])).rejects.toThrow(/permission denied/);
      await expect(app.query('DELETE FROM audit_log WHERE org_no = (SELECT org_no FROM audit_heads WHERE org_id = $1)', [orgId])).rejects.toThrow(/permission denied/);
    } finally {
      await app.close();
      await su.exec(`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${role}; REVOKE USAGE ON SCHEMA public FROM ${role}; DROP OWNED BY ${role}; DROP ROLE ${role};`);
    }
  });
});
