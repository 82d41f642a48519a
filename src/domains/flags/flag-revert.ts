/**
 * Flag writes that belong to a planned change, and writing them back: the flags half of a
 * rollback. The changes domain owns the seam (FlagReverter); compose.ts plugs this in. Each revert
 * is an ordinary audited flag write that names the change and the record it writes back.
 */
import type { Queryable, Tx } from '../../platform/db/database.js';
import { listAuditEvents, type AuditContext } from '../ledger/index.js';
import type { FlagState, Json } from './flag.js';
import { toFlagRecord, type FlagRecord } from './flag-record.js';
import { FLAG_ACTIONS, type FlagService, type StatePatch } from './flag-service.js';
import * as store from './flag-store.js';

export type LinkedWrite = { hash: string; flag: string; env: string; from: unknown; to: unknown; fields: string[]; at: string };

/** The patch that puts back what a write changed; rollout slices merge into the rollout there now. */
export function revertPatch(r: Pick<FlagRecord, 'from' | 'fields'>, current: Pick<FlagState, 'rollout'>): StatePatch {
  if (r.fields.length === 1 && r.fields[0] === 'enabled') return { enabled: r.from as boolean };
  if (r.fields.length === 1 && r.fields[0] === 'value') return { value: r.from as Json };
  const from = (r.from ?? {}) as Record<string, Json>;
  const patch: StatePatch = {};
  for (const f of r.fields) {
    if (f === 'enabled') patch.enabled = from.enabled as boolean;
    if (f === 'value') patch.value = from.value as Json;
    if (f === 'rules') patch.rules = from.rules as FlagState['rules'];
    if (f === 'rollout') {
      const slice = from.rollout as Record<string, Json> | null;
      patch.rollout = slice && current.rollout ? { ...current.rollout, ...slice } as FlagState['rollout'] : (slice as FlagState['rollout']);
    }
  }
  return patch;
}

export class FlagReverts {
  constructor(private readonly flags: FlagService) {}

  /** The state writes that named the change, oldest first; the rollback's own writes are left out. */
  async linked(db: Queryable, orgId: string, changeId: string): Promise<LinkedWrite[]> {
    const page = await listAuditEvents(db, orgId, { targetType: 'flag', actions: FLAG_ACTIONS, dataField: { keys: ['changeId'], value: changeId } }, 500);
    return page.items.map(toFlagRecord)
      .filter((r) => r.change === 'updated' && r.env !== null && r.revertOf === null)
      .sort((a, b) => a.seq - b.seq)
      .map((r) => ({ hash: r.hash, flag: r.flag, env: r.env!, from: r.from, to: r.to, fields: r.fields, at: r.ts }));
  }

  /** Writes one linked write back, in the caller's transaction. */
  async revert(tx: Tx, ctx: AuditContext, orgId: string, w: LinkedWrite, meta: { changeId: string; reason: string }): Promise<{ flag: string; env: string; result: 'changed' | 'unchanged' | 'gone'; hash: string | null }> {
    const flag = await store.findFlag(tx, orgId, w.flag);
    if (!flag) return { flag: w.flag, env: w.env, result: 'gone', hash: null };
    const current = await store.lockState(tx, orgId, w.flag, w.env);
    if (!current) return { flag: w.flag, env: w.env, result: 'gone', hash: null };
    const out = await this.flags.applyInTx(tx, ctx, orgId, flag, w.env, revertPatch({ from: w.from as Json, fields: w.fields }, current), {
      reason: meta.reason, source: 'automation', automation: { name: 'changeledger rollback', trigger: meta.reason }, changeId: meta.changeId, revertOf: w.hash,
    });
    return { flag: w.flag, env: w.env, result: out.result, hash: out.record.hash };
  }
}
