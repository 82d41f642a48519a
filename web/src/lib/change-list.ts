import { changeListQuery } from '../api/client';
import { changeStatuses, tiers, type Change, type ChangeListFilters, type ChangeStatus, type Tier } from '../api/types';

// The changes list as its URL says: /changes?status=pending_approval,approved&criticality=critical&mine=1&q=CHG-1A2B3C4D.
// "pending" is a criticality the server cannot filter on (it is criticalitySource, not a
// tier), so a view asking for it filters the answer itself.

export type CriticalityFilter = Tier | 'pending';
export const criticalityFilters: readonly CriticalityFilter[] = [...tiers, 'pending'];

// The source chips of the one list: each is a server filter. One at a time, since the server's
// filters narrow each other (kind= and source= together would intersect, not add up).
export const sourceChips = ['deployments', 'flags', 'kubernetes', 'cloud', 'unauthorized', 'denied'] as const;
export type SourceChip = (typeof sourceChips)[number];
export const sourceChipLabels: Record<SourceChip, string> = {
  deployments: 'Deployments',
  flags: 'Flags',
  kubernetes: 'Kubernetes',
  cloud: 'Cloud',
  unauthorized: 'Unauthorized',
  denied: 'Denied attempts',
};
const chipQuery: Record<SourceChip, Record<string, string>> = {
  deployments: { kind: 'push,pr_merged,deploy,sync' },
  flags: { source: 'flags' },
  kubernetes: { source: 'kubernetes' },
  cloud: { source: 'aws,azure' },
  // Writes the reference rule flagged: no planned change, ticket, window or authorized principal vouched for them.
  unauthorized: { unauthorized: 'true' },
  denied: { denied: 'true' },
};

export type ChangeListView = { status: ChangeStatus[]; criticality: CriticalityFilter[]; mine: boolean; q: string; chip: SourceChip | null; service: string };

function splitList<T extends string>(value: string | null, allowed: readonly T[]): T[] {
  const wanted = new Set((value ?? '').split(',').map((s) => s.trim()));
  return allowed.filter((a) => wanted.has(a));
}

export function readListView(params: URLSearchParams): ChangeListView {
  return {
    status: splitList(params.get('status'), changeStatuses),
    criticality: splitList(params.get('criticality'), criticalityFilters),
    mine: params.get('mine') === '1',
    q: (params.get('q') ?? '').trim(),
    chip: sourceChips.find((c) => c === params.get('chip')) ?? null,
    service: (params.get('service') ?? '').trim(),
  };
}

export function listViewHref(view: ChangeListView): string {
  const params = new URLSearchParams();
  if (view.status.length > 0) params.set('status', view.status.join(','));
  if (view.criticality.length > 0) params.set('criticality', view.criticality.join(','));
  if (view.mine) params.set('mine', '1');
  if (view.q !== '') params.set('q', view.q);
  if (view.chip !== null) params.set('chip', view.chip);
  if (view.service !== '') params.set('service', view.service);
  const query = params.toString();
  return query === '' ? '/changes' : `/changes?${query}`;
}

/** GET /api/changes's query for a view: the planned-change filters, then the chip's and the service. */
export function recordListQuery(view: ChangeListView): string {
  const params = new URLSearchParams(changeListQuery(serverFilters(view)).replace(/^\?/, ''));
  if (view.chip !== null) for (const [k, v] of Object.entries(chipQuery[view.chip])) params.set(k, v);
  if (view.service !== '') params.set('service', view.service);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

// What goes to the server: the tiers only, and none at all when "pending" is asked for (the
// client then keeps the tiers asked for and the pending ones).
export function serverFilters(view: ChangeListView): ChangeListFilters {
  const pending = view.criticality.includes('pending');
  return {
    status: view.status,
    criticality: pending ? [] : view.criticality.filter((c): c is Tier => c !== 'pending'),
    mine: view.mine,
    q: view.q,
  };
}

export function keepChange(view: ChangeListView, change: Pick<Change, 'criticality' | 'criticalitySource'>): boolean {
  if (!view.criticality.includes('pending')) return true;
  if (change.criticalitySource === 'pending') return true;
  return change.criticality !== null && view.criticality.includes(change.criticality);
}

export function isFiltered(view: ChangeListView): boolean {
  return view.status.length > 0 || view.criticality.length > 0 || view.mine || view.q !== '' || view.chip !== null || view.service !== '';
}
