import { api } from '../api/client';

/**
 * The catalogue entity a flag's owner names: `payments-api` is the service `svc:payments-api`; an
 * owner written as a key (it has a prefix) is that key. The server reads owners the same way
 * (ownerNamesOf in the flags domain) when the entity page asks for a service's flag changes.
 */
export function ownerEntityKey(owner: string): string {
  return owner.includes(':') ? owner : `svc:${owner}`;
}

// Whether an entity is in the catalogue, asked once a minute at most per key: the flag list
// shows many rows with few distinct owners, and the inventory answers from a ≤ 60 s snapshot.
const TTL_MS = 60_000;
const known = new Map<string, { at: number; exists: Promise<boolean> }>();

export function entityExists(key: string): Promise<boolean> {
  const hit = known.get(key);
  if (hit !== undefined && Date.now() - hit.at < TTL_MS) return hit.exists;
  // A search rather than GET …/inventory/{key}: an owner the catalogue lacks is an ordinary
  // answer here, not a 404 in the browser's console.
  const exists = api.catalogueInventory({ kinds: [], q: key, hops: 1, includeStale: false }, 0, 50).then(
    (page) => page.entities.some((e) => e.key === key),
    () => {
      known.delete(key); // a failure is not an answer: ask again next time
      return false;
    },
  );
  known.set(key, { at: Date.now(), exists });
  return exists;
}
