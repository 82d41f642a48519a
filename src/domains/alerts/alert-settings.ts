import { openOrNull, type Sealer } from '../../platform/crypto/sealed.js';
import type { AlertmanagerAuth } from './alertmanager-client.js';
import type { AlertmanagerAuthKind } from './alert-settings-store.js';

/**
 * An Alertmanager's credentials, unsealed for a request. Stored sealed: a bearer token as is, basic
 * auth as JSON {username, password}. Null when the sealed value cannot be opened with this data key.
 */
export function openAlertmanagerAuth(sealer: Sealer, row: { authKind: AlertmanagerAuthKind; authSealed: string | null }): AlertmanagerAuth | null {
  if (row.authKind === 'none') return { kind: 'none' };
  const plain = openOrNull(sealer, row.authSealed);
  if (plain === null) return null;
  if (row.authKind === 'bearer') return { kind: 'bearer', token: plain };
  try {
    const b = JSON.parse(plain) as { username?: unknown; password?: unknown };
    return typeof b.username === 'string' && typeof b.password === 'string' ? { kind: 'basic', user: b.username, password: b.password } : null;
  } catch {
    return null;
  }
}

/**
 * Alertmanagers usually live on the organisation's own network: requests to them may reach private
 * addresses (RFC 1918, CGNAT, unique-local). Loopback, link-local and metadata addresses stay refused.
 */
export const ALERTMANAGER_ALLOW_PRIVATE = true;
