import type { Clock } from '../../platform/clock.js';
import type { Database, Row } from '../../platform/db/database.js';
import { randomAlnum, randomSecret } from '../../platform/ids.js';
import { safeEqual, sha256Hex } from '../../platform/crypto/tokens.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import * as store from './flag-store.js';

/** SDK keys look like cls_<8-character id>_<43-character secret>; distinct from API tokens (clt_). */
export const SDK_KEY_PATTERN = /^cls_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{43})$/;

export type SdkKey = { id: string; name: string; env: string; createdAt: string; createdBy: string; revokedAt: string | null; lastUsedAt: string | null };
export type SdkPrincipal = { keyId: string; orgId: string; env: string };
type Manager = { org: { id: string }; user: { id: string; email: string }; role: 'owner' | 'admin' | 'member' };

type KeyRow = Row & { id: string; org_id: string; env_key: string; name: string; secret_hash: string; created_by_email: string; created_at: Date; revoked_at: Date | null; last_used_at: Date | null };
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toKey = (r: KeyRow): SdkKey => ({ id: r.id, name: r.name, env: r.env_key, createdAt: iso(r.created_at)!, createdBy: r.created_by_email, revokedAt: iso(r.revoked_at), lastUsedAt: iso(r.last_used_at) });
const SELECT = 'SELECT k.*, u.email AS created_by_email FROM sdk_keys k JOIN users u ON u.id = k.created_by';

export class SdkKeyService {
  constructor(private readonly deps: { db: Database; clock: Clock }) {}

  private static requireManager(m: Manager): void {
    if (m.role === 'member') throw forbidden('only owners and admins manage SDK keys');
  }

  /** The organisation's keys, for owners and admins: even without secrets they say which applications hold one. */
  async list(m: Manager): Promise<SdkKey[]> {
    SdkKeyService.requireManager(m);
    return this.keysOf(m.org.id);
  }

  private async keysOf(orgId: string): Promise<SdkKey[]> {
    const r = await this.deps.db.query<KeyRow>(`${SELECT} WHERE k.org_id = $1 ORDER BY k.created_at DESC`, [orgId]);
    return r.rows.map(toKey);
  }

  async create(ctx: AuditContext, m: Manager, input: { name: string; env: string }): Promise<{ key: SdkKey; secret: string }> {
    SdkKeyService.requireManager(m);
    const envs = await store.listEnvironments(this.deps.db, m.org.id);
    if (!envs.some((e) => e.key === input.env)) throw badRequest(`no environment ${input.env} (there are: ${envs.map((e) => e.key).join(', ') || 'none yet'})`, 'env');
    const id = randomAlnum(8);
    const secret = `cls_${id}_${randomSecret()}`;
    const at = this.deps.clock.now().toISOString();
    await this.deps.db.transaction(async (tx) => {
      await tx.query(
        'INSERT INTO sdk_keys (id, org_id, env_key, name, secret_hash, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [id, m.org.id, input.env, input.name.trim(), sha256Hex(secret), m.user.id, at],
      );
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'sdk_key.created', target: { type: 'sdk_key', id }, data: { name: input.name.trim(), env: input.env } });
    });
    const key = (await this.keysOf(m.org.id)).find((k) => k.id === id)!;
    return { key, secret };
  }

  async revoke(ctx: AuditContext, m: Manager, id: string): Promise<SdkKey> {
    SdkKeyService.requireManager(m);
    return this.deps.db.transaction(async (tx) => {
      const r = await tx.query<KeyRow>(`${SELECT} WHERE k.org_id = $1 AND k.id = $2 FOR UPDATE OF k`, [m.org.id, id]);
      const row = r.rows[0];
      if (!row) throw notFound(`no SDK key ${id}`);
      if (row.revoked_at) throw conflict(`SDK key ${id} is already revoked`);
      const at = this.deps.clock.now().toISOString();
      await tx.query('UPDATE sdk_keys SET revoked_at = $2 WHERE id = $1', [id, at]);
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: m.org.id, action: 'sdk_key.revoked', target: { type: 'sdk_key', id }, data: { name: row.name, env: row.env_key } });
      return { ...toKey(row), revokedAt: at };
    });
  }

  /** A presented SDK key → its organisation and environment, or null. */
  async authenticate(value: string): Promise<SdkPrincipal | null> {
    const m = SDK_KEY_PATTERN.exec(value);
    if (!m) return null;
    const r = await this.deps.db.query<KeyRow>(`${SELECT} WHERE k.id = $1`, [m[1]]);
    const row = r.rows[0];
    if (!row || row.revoked_at || !safeEqual(row.secret_hash, sha256Hex(value))) return null;
    const now = this.deps.clock.now();
    if (!row.last_used_at || now.getTime() - new Date(row.last_used_at).getTime() >= 60_000) {
      await this.deps.db.transaction((tx) => tx.query('UPDATE sdk_keys SET last_used_at = $2 WHERE id = $1', [row.id, now.toISOString()]));
    }
    return { keyId: row.id, orgId: row.org_id, env: row.env_key };
  }
}
