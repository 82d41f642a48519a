/** The contract of each service → service call edge of a blast radius: the callee's routes this caller uses. Pure. */
import type { RouteRow } from './catalogue-store.js';
import type { Graph } from './inventory.js';

/** Caller key of routes that requests from outside the estate took (root SERVER spans). */
export const INGRESS = 'ingress';

export type ContractRoute = Omit<RouteRow, 'caller' | 'callee'> & { externalIngress: boolean };
export type EdgeContract = { caller: { key: string; name: string }; callee: { key: string; name: string }; routes: ContractRoute[]; note?: string };
export type Contracts = { edges: EdgeContract[]; withContract: number; total: number; routes: number; header: string };

const NO_TRACES = 'no traces seen for this edge';

/**
 * `routes` holds every route row of the callees concerned (already filtered for freshness and
 * probes); rows with caller `ingress` only mark the same callee route as reached from outside.
 */
export function contractsOf(g: Graph, edges: Array<{ from: string; to: string }>, routes: RouteRow[]): Contracts {
  const serviceEdges = edges.filter((e) => g.nodes.get(e.from)?.kind === 'service' && g.nodes.get(e.to)?.kind === 'service');
  const byEdge = new Map<string, RouteRow[]>();
  const ingress = new Set<string>();
  for (const r of routes) {
    if (r.caller === INGRESS) ingress.add(`${r.callee}\u0000${r.method ?? ''}\u0000${r.route}`);
    else (byEdge.get(`${r.caller}\u0000${r.callee}`) ?? byEdge.set(`${r.caller}\u0000${r.callee}`, []).get(`${r.caller}\u0000${r.callee}`)!).push(r);
  }
  const name = (k: string) => ({ key: k, name: g.nodes.get(k)?.name ?? k });
  const out: EdgeContract[] = serviceEdges
    .map((e) => {
      const rows = (byEdge.get(`${e.from}\u0000${e.to}`) ?? []).slice().sort((a, b) => b.calls - a.calls || a.route.localeCompare(b.route));
      const contract: EdgeContract = {
        caller: name(e.from), callee: name(e.to),
        routes: rows.map(({ caller: _c, callee: _e, ...r }) => ({ ...r, externalIngress: ingress.has(`${e.to}\u0000${r.method ?? ''}\u0000${r.route}`) })),
      };
      if (!rows.length) contract.note = NO_TRACES;
      return contract;
    })
    .sort((a, b) => a.caller.key.localeCompare(b.caller.key) || a.callee.key.localeCompare(b.callee.key));
  const withContract = out.filter((c) => c.routes.length > 0).length;
  const routeCount = out.reduce((n, c) => n + c.routes.length, 0);
  const header = `${withContract} of ${out.length} call edge${out.length === 1 ? '' : 's'} ${out.length === 1 ? 'has' : 'have'} a contract · ${routeCount} route${routeCount === 1 ? '' : 's'}`;
  return { edges: out, withContract, total: out.length, routes: routeCount, header };
}
