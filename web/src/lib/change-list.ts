import { changeStatuses, tiers, type Change, type ChangeListFilters, type ChangeStatus, type Tier } from '../api/types';

// The changes list as its URL says: /changes?status=pending_approval,approved&criticality=critical&mine=1&q=CHG-1A2B3C4D.
// "pending" is a criticality the server cannot filter on (it is criticalitySource, not a
// tier), so a view asking for it filters the answer itself.

export type CriticalityFilter = Tier | 'pending';
export const criticalityFilters: readonly CriticalityFilter[] = [...tiers, 'pending'];

export type ChangeListView = { status: ChangeStatus[]; criticality: CriticalityFilter[]; mine: boolean; q: string };

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
  };
}

export function listViewHref(view: ChangeListView): string {
  const params = new URLSearchParams();
  if (view.status.length > 0) params.set('status', view.status.join(','));
  if (view.criticality.length > 0) params.set('criticality', view.criticality.join(','));
  if (view.mine) params.set('mine', '1');
  if (view.q !== '') params.set('q', view.q);
  const query = params.toString();
  return query === '' ? '/changes' : `/changes?${query}`;
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

export function keepChange(view: ChangeListView, change: Change): boolean {
  if (!view.criticality.includes('pending')) return true;
  if (change.criticalitySource === 'pending') return true;
  return change.criticality !== null && view.criticality.includes(change.criticality);
}

export function isFiltered(view: ChangeListView): boolean {
  return view.status.length > 0 || view.criticality.length > 0 || view.mine || view.q !== '';
}
