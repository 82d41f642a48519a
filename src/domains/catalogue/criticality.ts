/** A change's criticality: the highest catalogue tier of its service components. Pure. */
import type { Graph } from './inventory.js';
import { TIERS, type Tier } from './entity.js';

export type CriticalitySource = 'components' | 'blast' | 'none' | 'pending';
export type Criticality = {
  criticality: Tier | null;
  criticalitySource: CriticalitySource;
  componentTiers: Record<string, Tier | null>;
  unknownTierComponents: Array<{ kind: string; key: string; name: string }>;
};

/** Services and instances carry a tier; databases, schemas and infrastructure do not decide it. */
const TIERED_KINDS = new Set(['service', 'instance']);
const rank = (t: Tier) => TIERS.indexOf(t);

export function highest(tiers: Iterable<Tier | null | undefined>): Tier | null {
  let best: Tier | null = null;
  for (const t of tiers) if (t && (best === null || rank(t) < rank(best))) best = t;
  return best;
}

/**
 * - service components, all tiered → the highest of them (`components`);
 * - a service component without a tier → `pending`: an approver classifies it (the highest known
 *   tier so far is answered meanwhile);
 * - no service component → the highest tier in the blast radius (`blast`), else `none` → standard.
 */
export function criticalityOf(g: Graph, components: Array<{ kind: string; key: string; name: string }>, blastServiceKeys: string[]): Criticality {
  const services = components.filter((c) => TIERED_KINDS.has(g.nodes.get(c.key)?.kind ?? c.kind));
  const componentTiers: Record<string, Tier | null> = {};
  for (const c of services) componentTiers[c.key] = (g.nodes.get(c.key)?.tier as Tier | null | undefined) ?? null;
  if (services.length) {
    const unknown = services.filter((c) => componentTiers[c.key] === null).map(({ kind, key, name }) => ({ kind, key, name }));
    return { criticality: highest(Object.values(componentTiers)), criticalitySource: unknown.length ? 'pending' : 'components', componentTiers, unknownTierComponents: unknown };
  }
  const fromBlast = highest(blastServiceKeys.map((k) => g.nodes.get(k)?.tier as Tier | null | undefined));
  return fromBlast
    ? { criticality: fromBlast, criticalitySource: 'blast', componentTiers, unknownTierComponents: [] }
    : { criticality: 'standard', criticalitySource: 'none', componentTiers, unknownTierComponents: [] };
}
