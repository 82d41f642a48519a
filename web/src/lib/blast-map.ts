import type { Blast, MapCard } from '../api/types';

// What the dependency map draws of a blast radius, as pure functions: the layers a card
// belongs to, which cards the hops / direction / layer controls leave on the map, and the
// runs-on links bridged over the cards a hidden layer takes away.

export const mapLayers = [
  { id: 'services', label: 'Services', kinds: ['service', 'instance', 'external', 'integration'] },
  { id: 'databases', label: 'Databases', kinds: ['database'] },
  { id: 'schemas', label: 'Schemas', kinds: ['schema'] },
  { id: 'workloads', label: 'Workloads', kinds: ['workload', 'pod'] },
  { id: 'nodes', label: 'K8s nodes', kinds: ['node'] },
  { id: 'vms', label: 'VMs', kinds: ['vm'] },
  { id: 'hosts', label: 'Hosts', kinds: ['host'] },
  { id: 'datastores', label: 'Datastores', kinds: ['datastore', 'volume'] },
  { id: 'devices', label: 'Devices', kinds: ['device'] },
] as const;

export type LayerId = (typeof mapLayers)[number]['id'];

// The readable picture of a large change: the call graph without its hardware.
export const defaultLayers: readonly LayerId[] = ['services', 'databases', 'schemas'];

const layerByKind = new Map<string, LayerId>(mapLayers.flatMap((l) => l.kinds.map((k) => [k, l.id] as const)));

// A kind from a newer server that no layer names: services stay with services, anything
// else with the hosts (it is hardware of some sort).
export function layerOf(card: Pick<MapCard, 'kind' | 'role'>): LayerId {
  return layerByKind.get(card.kind) ?? (card.role === 'infra' ? 'hosts' : 'services');
}

export type MapHops = 0 | 1 | 2;
export type MapDirection = 'callers' | 'callees' | 'both';

export type MapView = { hops: MapHops; direction: MapDirection; layers: ReadonlySet<LayerId> };

export type MapEdge = {
  id: string;
  from: string;
  to: string;
  via: 'calls' | 'runs-on';
  // Keys of the cards (hidden, or never on the map) a runs-on link was bridged over.
  through: string[];
};

export type VisibleMap = {
  cards: MapCard[];
  edges: MapEdge[];
  // Cards per layer among those the hops and direction keep (what each chip would show).
  layerCounts: Record<LayerId, number>;
  // Cards the hops and direction keep, before the layers.
  inScope: number;
};

export function isComponentCard(card: MapCard, componentKeys: ReadonlySet<string>): boolean {
  return card.role === 'component' || componentKeys.has(card.key);
}

function serviceInScope(card: MapCard, view: MapView): boolean {
  switch (card.role) {
    case 'component':
      return true;
    case 'caller':
      return view.direction !== 'callees' && card.hop <= view.hops;
    case 'callee':
      return view.direction !== 'callers' && card.hop <= view.hops;
    case 'both':
      return card.hop <= view.hops;
    case 'infra':
      return false;
  }
}

// Runs-on links among the cards (the server bridges those through a database's instance, which
// is named on the database card, not drawn), plus one for any infrastructure card still without a
// parent, from the nearest card on the chain that reached it.
export function runsOnLinks(blast: Blast): MapEdge[] {
  const onMap = new Set(blast.nodes.map((n) => n.key));
  const links: MapEdge[] = blast.lineage
    .filter((l) => onMap.has(l.from) && onMap.has(l.to))
    .map((l) => ({ id: '', from: l.from, to: l.to, via: 'runs-on', through: l.through ? [l.through] : [] }));
  const hasParent = new Set(links.map((l) => l.to));
  for (const item of blast.infra ?? []) {
    if (!onMap.has(item.key) || hasParent.has(item.key)) continue;
    const chain = item.reason ?? [];
    const at = chain.lastIndexOf(item.key);
    if (at <= 0) continue;
    for (let i = at - 1; i >= 0; i--) {
      const above = chain[i];
      if (above !== undefined && onMap.has(above)) {
        links.push({ id: '', from: above, to: item.key, via: 'runs-on', through: chain.slice(i + 1, at) });
        break;
      }
    }
  }
  return links;
}

function emptyCounts(): Record<LayerId, number> {
  return Object.fromEntries(mapLayers.map((l) => [l.id, 0])) as Record<LayerId, number>;
}

export function visibleMap(blast: Blast, componentKeys: ReadonlySet<string>, view: MapView): VisibleMap {
  const byKey = new Map(blast.nodes.map((n) => [n.key, n]));
  const links = runsOnLinks(blast);
  const down = new Map<string, MapEdge[]>();
  for (const l of links) down.set(l.from, [...(down.get(l.from) ?? []), l]);

  // In scope: the services the hops and direction keep, the components, and everything
  // down their runs-on chains.
  const scope = new Set<string>();
  const stack: string[] = [];
  for (const card of blast.nodes) {
    if (isComponentCard(card, componentKeys) || serviceInScope(card, view)) {
      scope.add(card.key);
      stack.push(card.key);
    }
  }
  while (stack.length > 0) {
    const at = stack.pop()!;
    for (const l of down.get(at) ?? []) {
      const below = byKey.get(l.to);
      if (below === undefined || scope.has(l.to)) continue;
      // A service-kind card below (a schema's database) keeps its own hops and direction.
      if (below.role !== 'infra' && !isComponentCard(below, componentKeys)) continue;
      scope.add(l.to);
      stack.push(l.to);
    }
  }

  const layerCounts = emptyCounts();
  const drawn = new Set<string>();
  for (const key of scope) {
    const card = byKey.get(key)!;
    const layer = layerOf(card);
    layerCounts[layer] += 1;
    if (view.layers.has(layer) || isComponentCard(card, componentKeys)) drawn.add(key);
  }
  const cards = blast.nodes.filter((n) => drawn.has(n.key));

  const edges: MapEdge[] = [];
  for (const e of blast.edges ?? []) {
    if (drawn.has(e.from) && drawn.has(e.to)) edges.push({ id: `calls:${e.from}>${e.to}`, from: e.from, to: e.to, via: 'calls', through: [] });
  }
  // Runs-on: from every drawn card down to the nearest drawn cards, over hidden ones
  // (breadth first, so the shortest bridge wins).
  for (const from of cards) {
    const reached = new Map<string, string[]>();
    const seen = new Set([from.key]);
    let frontier: { key: string; through: string[] }[] = [{ key: from.key, through: [] }];
    while (frontier.length > 0) {
      const next: typeof frontier = [];
      for (const at of frontier) {
        for (const l of down.get(at.key) ?? []) {
          if (seen.has(l.to)) continue;
          seen.add(l.to);
          const through = [...at.through, ...l.through];
          if (drawn.has(l.to)) reached.set(l.to, through);
          else if (scope.has(l.to)) next.push({ key: l.to, through: [...through, l.to] });
        }
      }
      frontier = next;
    }
    for (const [to, through] of reached) {
      edges.push({ id: `runs-on:${from.key}>${to}`, from: from.key, to, via: 'runs-on', through });
    }
  }
  return { cards, edges, layerCounts, inScope: scope.size };
}

// The layers chosen are remembered per person in this browser.
export function layersStorageKey(userId: string): string {
  return `changeledger:dependency-map:layers:${userId}`;
}

export function readLayers(storage: Pick<Storage, 'getItem'> | null, userId: string): Set<LayerId> {
  const known = new Set<string>(mapLayers.map((l) => l.id));
  try {
    const raw = storage?.getItem(layersStorageKey(userId)) ?? null;
    if (raw !== null) {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) return new Set(parsed.filter((x): x is LayerId => typeof x === 'string' && known.has(x)));
    }
  } catch {
    // A value another version wrote, or storage the browser refuses: the defaults then.
  }
  return new Set(defaultLayers);
}

export function writeLayers(storage: Pick<Storage, 'setItem'> | null, userId: string, layers: ReadonlySet<LayerId>): void {
  try {
    storage?.setItem(layersStorageKey(userId), JSON.stringify(mapLayers.map((l) => l.id).filter((id) => layers.has(id))));
  } catch {
    // Private mode or a full quota: the choice then lasts for this page only.
  }
}

// "ledger · on Prod (10.4.16.71)": same-named databases on a primary and a replica differ.
export function cardTitle(card: MapCard): string {
  const instance = card.details?.instance;
  return instance === undefined ? card.name : `${card.name} · on ${instance.name}`;
}
