/**
 * Builders of observed-change rows, connections and receipts for tests of the one change list,
 * written straight into the migration's tables (the intake has its own tests of how rows get there).
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../../src/platform/db/database.js';
import type { RecordPrincipal } from '../../src/domains/changes/change-feed.js';
import type { SourceKind } from '../../src/domains/observed/observed-types.js';

const hex = (n: number) => randomBytes(n).toString('hex');

export async function aConnection(db: Database, orgId: string, kind: SourceKind, name = `${kind}-${hex(3)}`): Promise<string> {
  const id = `src_${hex(16)}`;
  const at = new Date().toISOString();
  await db.query(
    `INSERT INTO change_sources (id, org_id, kind, name, secret_sealed, secret_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [id, orgId, kind, name, 'sealed-for-tests', hex(32), at],
  );
  return id;
}

export type ObservedFixture = {
  source?: SourceKind; kind?: string; title?: string; occurredAt: string; principal?: RecordPrincipal; services?: string[];
  denied?: boolean; authorized?: boolean | null; diff?: string | null; link?: string | null; sourceId?: string | null; changeRef?: string | null;
  action?: string | null; resource?: string | null; location?: Record<string, string>;
};

const PERSON: RecordPrincipal = { kind: 'person', name: 'dana@example.com', id: 'dana', detail: {} };

/** An observed row; answers its id (obs_ + 32 hex, so its display id is CHG- and the first 8). */
export async function anObserved(db: Database, orgId: string, o: ObservedFixture): Promise<string> {
  const id = `obs_${hex(16)}`;
  const services = o.services ?? [];
  await db.query(
    `INSERT INTO observed_changes (id, org_id, source_id, source, kind, event_id, title, occurred_at, received_at, principal, action, resource, location,
       service, service_via, services, diff, link, denied, authorized, change_ref)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
    [id, orgId, o.sourceId ?? null, o.source ?? 'github', o.kind ?? 'push', `evt-${hex(8)}`, o.title ?? 'a push', o.occurredAt, JSON.stringify(o.principal ?? PERSON),
      o.action ?? null, o.resource ?? null, JSON.stringify(o.location ?? {}), services[0] ?? '', services.length ? 'event' : 'unmapped', services,
      o.diff ?? null, o.link ?? null, o.denied ?? false, o.authorized ?? null, o.changeRef ?? null],
  );
  return id;
}

/** A write that carried a planned change's id, folded into its receipts. */
export async function aReceipt(db: Database, orgId: string, changeId: string, r: { source?: SourceKind; title: string; occurredAt: string; resource?: string }): Promise<string> {
  const eventId = `evt-${hex(8)}`;
  await db.query(
    `INSERT INTO change_receipts (org_id, change_id, source, kind, event_id, title, occurred_at, received_at, principal, action, resource, location)
     VALUES ($1, $2, $3, 'k8s_write', $4, $5, $6, $6, $7, 'patch', $8, '{"cluster":"prod"}')`,
    [orgId, changeId, r.source ?? 'kubernetes', eventId, r.title, r.occurredAt, JSON.stringify({ kind: 'service', name: 'system:serviceaccount:jenkins:deployer', id: null, detail: { ciNamespace: 'jenkins' } }), r.resource ?? 'deployments/checkout'],
  );
  return eventId;
}
