import type { CatalogueListing, CatalogueWalk } from '../api/client';
import { entityKinds, type InventoryEntity, type Neighbour, type NeighbourSide } from '../api/types';

// The catalogue list's whole state lives in the URL so a view can be shared as a link:
// /catalogue?kind=service,database&q=pay&hops=1&includeStale=1&offset=50&limit=25.
// Defaults (two hops, no stale call edges, the first page of 50) are left out.

export type CatalogueView = CatalogueListing & { offset: number; limit: number };

export const pageSizes = [10, 25, 50, 100, 200] as const;
export const defaultPageSize = 50;
const maxPageSize = 2000;

export const defaultWalk: CatalogueWalk = { hops: 2, includeStale: false };

function intParam(value: string | null, min: number, max: number): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

export function walkFrom(params: URLSearchParams): CatalogueWalk {
  return { hops: params.get('hops') === '1' ? 1 : 2, includeStale: params.get('includeStale') === '1' };
}

// Kinds the server does not know are kept: its 400 then says which, rather than the UI
// quietly dropping part of a shared link.
export function viewFrom(params: URLSearchParams): CatalogueView {
  const kinds = [...new Set((params.get('kind') ?? '').split(',').map((k) => k.trim()).filter((k) => k !== ''))];
  return {
    kinds,
    q: (params.get('q') ?? '').trim(),
    ...walkFrom(params),
    offset: intParam(params.get('offset'), 0, Number.MAX_SAFE_INTEGER) ?? 0,
    limit: intParam(params.get('limit'), 1, maxPageSize) ?? defaultPageSize,
  };
}

function walkInto(params: URLSearchParams, walk: CatalogueWalk): void {
  if (walk.hops !== defaultWalk.hops) params.set('hops', String(walk.hops));
  if (walk.includeStale) params.set('includeStale', '1');
}

export function catalogueHref(view: CatalogueView): string {
  const params = new URLSearchParams();
  if (view.kinds.length > 0) params.set('kind', view.kinds.join(','));
  if (view.q.trim() !== '') params.set('q', view.q.trim());
  walkInto(params, view);
  if (view.offset > 0) params.set('offset', String(view.offset));
  if (view.limit !== defaultPageSize) params.set('limit', String(view.limit));
  const query = params.toString();
  return query === '' ? '/catalogue' : `/catalogue?${query}`;
}

// Everything but the page: two answers of one listing must come from one snapshot.
export function listingKey(view: CatalogueView): string {
  return JSON.stringify([view.kinds, view.q, view.hops, view.includeStale, view.limit]);
}

export function entityHref(key: string, walk: CatalogueWalk = defaultWalk): string {
  const params = new URLSearchParams();
  walkInto(params, walk);
  const query = params.toString();
  return `/catalogue/${encodeURIComponent(key)}${query === '' ? '' : `?${query}`}`;
}

// Kinds in the catalogue's own order, unknown ones (from a newer server) last.
export function kindOrder(kinds: Iterable<string>): string[] {
  const rank = (k: string): number => {
    const i = (entityKinds as readonly string[]).indexOf(k);
    return i === -1 ? entityKinds.length : i;
  };
  return [...new Set(kinds)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

// What an entity runs on (a database its instance, a service its VM): its hop-1 runs-on
// neighbours on the uses side.
export function runsOn(entity: InventoryEntity): Neighbour[] {
  return entity.uses.hop1.filter((n) => n.via === 'runs-on');
}

export function sideCount(side: NeighbourSide): number {
  return side.hop1.length + side.hop2.length;
}
