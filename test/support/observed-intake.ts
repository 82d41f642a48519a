import { createHash, randomBytes } from 'node:crypto';
import { createSealer } from '../../src/platform/crypto/sealed.js';
import type { ObservedEvent, SourceKind } from '../../src/domains/observed/observed-types.js';
import type { TestApp } from './test-app.js';

/**
 * A change source written straight into its table, so the intake's tests do not depend on the
 * connections API: the secret sealed with the app's data key, its SHA-256 (hex) beside it.
 */
export async function addChangeSource(t: TestApp, orgId: string, kind: SourceKind, opts: { name?: string; secret?: string; config?: Record<string, unknown> } = {}): Promise<{ id: string; secret: string }> {
  const id = `src_${randomBytes(16).toString('hex')}`;
  const secret = opts.secret ?? randomBytes(24).toString('base64url');
  const at = t.clock.now().toISOString();
  await t.services.db.query(
    `INSERT INTO change_sources (id, org_id, kind, name, secret_sealed, secret_hash, config, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $8)`,
    [id, orgId, kind, opts.name ?? `${kind} ${id.slice(4, 10)}`, createSealer(t.dataKey).seal(secret), createHash('sha256').update(secret, 'utf8').digest('hex'), JSON.stringify(opts.config ?? {}), at]);
  return { id, secret };
}

let n = 0;
/** An observed event as an adapter would hand it over; every field can be overridden. */
export function anEvent(over: Partial<ObservedEvent> = {}): ObservedEvent {
  n += 1;
  return {
    eventId: `ev-${n}-${randomBytes(4).toString('hex')}`, kind: 'k8s_write', title: `patch deployments/app-${n}`, occurredAt: '2026-03-02T09:00:00.000Z',
    principal: { kind: 'person', name: 'alice@example.com', id: 'alice', detail: {} }, action: 'patch', resource: `deployments/app-${n}`,
    location: { cluster: 'prod-eu', namespace: 'shop' }, serviceHint: null, repo: null, diff: null, params: null, link: null, denied: false,
    errorCode: null, outcome: null, changeRef: null, capBucket: null, resourceName: null, ...over,
  };
}

export const parsedOf = (events: ObservedEvent[], extra: { ignored?: number; noise?: number } = {}) => ({ events, ignored: extra.ignored ?? 0, noise: extra.noise ?? 0, rejected: [] });
