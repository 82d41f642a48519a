import type { Clock } from '../../platform/clock.js';
import type { Database, Queryable, Tx } from '../../platform/db/database.js';
import { badRequest } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Job, JobHandler } from '../../platform/jobs/job.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { GENESIS_HASH } from './audit-event.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import { checkpointKeyFromPem, keyIdOf, newCheckpointKeyPem, publicKeyPem, signCheckpoint, verifierKey, type CheckpointKey } from './checkpoint-note.js';

export const CHECKPOINT_JOB = 'audit.checkpoint';
export const WITNESS_JOB = 'audit.checkpoint_witness';
const HOUR_MS = 3_600_000;

export type StoredCheckpoint = { id: string; seq: number; hash: string; signedAt: string; keyId: string; note: string };

export type CheckpointDeps = {
  db: Database;
  clock: Clock;
  sealer: Sealer;
  /** The key's name in signature lines, and the start of each origin. */
  name: string;
  /** CHANGELEDGER_CHECKPOINT_KEY: the operator's own key (PEM); null: the one kept sealed in the database. */
  pem: string | null;
  /** Where a new checkpoint is also POSTed (text/plain), through the outbound client; none when null. */
  witness: { url: string | null; client: OutboundClient; allowPrivate: boolean };
};

const COLUMNS = 'id, seq, hash, signed_at, key_id, note';
type Row = { id: string; seq: string | number; hash: string; signed_at: Date | string; key_id: string; note: string };
const toCheckpoint = (r: Row): StoredCheckpoint => ({ id: r.id, seq: Number(r.seq), hash: r.hash, signedAt: new Date(r.signed_at).toISOString(), keyId: r.key_id, note: r.note });

/**
 * Signed checkpoints: a statement, signed with the installation's key, that an organisation's
 * ledger had this head at this time. Given to an auditor (or a witness) they make a later rewrite
 * of history detectable offline. A checkpoint is not itself an audit event: recording it would move
 * the head it describes. It is kept append-only beside the ledger instead.
 */
export class CheckpointService {
  #key: CheckpointKey | null = null;
  constructor(private readonly deps: CheckpointDeps) {}

  /**
   * The signing key: the operator's, else one made by the first process that needs it and kept in
   * the database sealed with the data key, so that every replica on the database signs with it.
   */
  async key(q: Queryable = this.deps.db): Promise<CheckpointKey> {
    if (this.#key) return this.#key;
    const { sealer, name, pem } = this.deps;
    if (pem) return (this.#key = checkpointKeyFromPem(pem, name, 'CHANGELEDGER_CHECKPOINT_KEY'));
    const read = async () => (await q.query<{ sealed: string }>('SELECT private_key_sealed AS sealed FROM checkpoint_signing_key WHERE id = 1')).rows[0]?.sealed;
    let sealed = await read();
    // Kept for the process only once it was found committed: a key made in a transaction that then
    // rolls back must not outlive it here.
    const found = sealed !== undefined;
    if (!found) {
      await q.query('INSERT INTO checkpoint_signing_key (id, private_key_sealed, created_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING',
        [sealer.seal(newCheckpointKeyPem()), this.deps.clock.now().toISOString()]);
      sealed = await read();
    }
    let opened: string;
    try {
      opened = sealer.open(sealed!);
    } catch {
      throw new Error('the checkpoint key in the database was sealed under another data key: start with the CHANGELEDGER_SECRET_KEY (or secret.key) it was made with');
    }
    const key = checkpointKeyFromPem(opened, name, 'the checkpoint key in the database');
    if (found) this.#key = key;
    return key;
  }

  /** The key's public half, as the API serves it. */
  async publicKey() {
    const key = await this.key();
    return { name: key.name, keyId: keyIdOf(key.name, key.publicKey).toString('hex'), algorithm: 'Ed25519' as const, pem: publicKeyPem(key), verifierKey: verifierKey(key) };
  }

  /**
   * Signs the head of one organisation now. With `onlyIfMoved`, nothing is signed when the newest
   * checkpoint already names this head (the hourly job's rule).
   */
  async create(tx: Tx, org: { id: string; slug: string }, o: { onlyIfMoved?: boolean } = {}): Promise<StoredCheckpoint | null> {
    // The head row's lock orders this checkpoint with the appends: it names a head that is committed with it.
    const h = await tx.query<{ seq: string | number; hash: string }>('SELECT seq, hash FROM audit_heads WHERE org_id = $1 FOR SHARE', [org.id]);
    const head = h.rows[0] ? { seq: Number(h.rows[0].seq), hash: h.rows[0].hash } : { seq: 0, hash: GENESIS_HASH };
    if (o.onlyIfMoved) {
      const last = await this.latest(tx, org.id);
      if (last ? last.seq === head.seq && last.hash === head.hash : head.seq === 0) return null;
    }
    const key = await this.key(tx);
    const signedAt = this.deps.clock.now().toISOString();
    const note = signCheckpoint(key, { origin: `${key.name}/${org.id}`, seq: head.seq, hash: head.hash, organisation: org.slug, time: signedAt });
    const cp: StoredCheckpoint = { id: newId('ckp'), seq: head.seq, hash: head.hash, signedAt, keyId: keyIdOf(key.name, key.publicKey).toString('hex'), note };
    await tx.query('INSERT INTO audit_checkpoints (id, org_id, seq, hash, signed_at, key_id, note) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [cp.id, org.id, cp.seq, cp.hash, cp.signedAt, cp.keyId, cp.note]);
    if (this.deps.witness.url) {
      await scheduleJob(tx, this.deps.clock, { kind: WITNESS_JOB, orgId: org.id, runAt: this.deps.clock.now(), dedupeKey: `${WITNESS_JOB}:${cp.id}`, payload: { checkpointId: cp.id } });
    }
    return cp;
  }

  async latest(db: Queryable, orgId: string): Promise<StoredCheckpoint | null> {
    const r = await db.query<Row>(`SELECT ${COLUMNS} FROM audit_checkpoints WHERE org_id = $1 ORDER BY signed_at DESC, id DESC LIMIT 1`, [orgId]);
    return r.rows[0] ? toCheckpoint(r.rows[0]) : null;
  }

  /** Newest first; the cursor is the id of the last one of the page before. */
  async list(orgId: string, limit: number, cursor?: string): Promise<{ items: StoredCheckpoint[]; nextCursor: string | null }> {
    const params: unknown[] = [orgId, limit + 1];
    let after = '';
    if (cursor) {
      const c = await this.deps.db.query<{ signed_at: Date }>('SELECT signed_at FROM audit_checkpoints WHERE org_id = $1 AND id = $2', [orgId, cursor]);
      if (!c.rows[0]) throw badRequest('cursor is not one this server gave out', 'cursor');
      params.push(c.rows[0].signed_at, cursor);
      after = 'AND (signed_at, id) < ($3, $4)';
    }
    const r = await this.deps.db.query<Row>(`SELECT ${COLUMNS} FROM audit_checkpoints WHERE org_id = $1 ${after} ORDER BY signed_at DESC, id DESC LIMIT $2`, params);
    const items = r.rows.slice(0, limit).map(toCheckpoint);
    return { items, nextCursor: r.rows.length > limit ? items.at(-1)!.id : null };
  }

  /** The next hourly run, on the hour; every start makes sure there is one. */
  async scheduleHourly(tx: Tx): Promise<void> {
    const next = new Date(Math.floor(this.deps.clock.now().getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
    await scheduleJob(tx, this.deps.clock, { kind: CHECKPOINT_JOB, runAt: next, dedupeKey: `${CHECKPOINT_JOB}:${next.toISOString()}` });
  }

  /** Signs a checkpoint of every organisation whose head moved since its last one. */
  async checkpointMoved(tx: Tx): Promise<number> {
    const orgs = await tx.query<{ id: string; slug: string }>('SELECT o.id, o.slug FROM organizations o JOIN audit_heads h ON h.org_id = o.id ORDER BY o.id');
    let made = 0;
    for (const org of orgs.rows) if (await this.create(tx, org, { onlyIfMoved: true })) made += 1;
    return made;
  }

  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [CHECKPOINT_JOB]: {
        commit: async (tx) => {
          await this.checkpointMoved(tx);
          await this.scheduleHourly(tx);
        },
      },
      [WITNESS_JOB]: {
        perform: async (job: Job) => {
          const { url, client, allowPrivate } = this.deps.witness;
          if (!url) return;
          const r = await this.deps.db.query<Row>(`SELECT ${COLUMNS} FROM audit_checkpoints WHERE id = $1`, [String(job.payload.checkpointId)]);
          if (!r.rows[0]) return;
          const res = await client.request({ method: 'POST', url, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: r.rows[0].note, allowPrivate });
          if (res.status < 200 || res.status > 299) throw new Error(`the witness at ${url} answered ${res.status}`);
        },
      },
    };
  }
}
