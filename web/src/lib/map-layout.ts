import type { ELK, ElkExtendedEdge, ElkNode, LayoutOptions } from 'elkjs/lib/elk-api';
import type { MapCard } from '../api/types';
import { isComponentCard, type MapEdge } from './blast-map';

// Where the dependency map puts its cards, with ELK's layered algorithm in two bands:
//  - services: left to right, one partition per column — callers two hops out, callers one
//    hop out, the components, callees one hop out, callees two hops out;
//  - infrastructure below: top to bottom along the runs-on chain. The services that stand
//    above it take part as thin anchors in the first row, kept in the order the services
//    band drew them (semi-interactive crossing minimisation), so the chain under a service
//    stays roughly under it.
// Edges inside a band follow ELK's orthogonal routes; a service's link down into the
// infrastructure band curves from its card to where its anchor's route turns down.

// Services and data cards are wider (a database names its instance on a line of its
// own); infrastructure a little narrower (a pod's or workload's name still fits); pods low.
export function cardSize(card: MapCard): { width: number; height: number } {
  if (card.role !== 'infra') return { width: 216, height: card.details?.instance !== undefined ? 68 : 54 };
  if (card.kind === 'pod') return { width: 196, height: 44 };
  return { width: 196, height: 54 };
}

const BAND_GAP = 24;
const MARGIN = 16;
const ANCHOR_WIDTH = 12;

export type Point = { x: number; y: number };
export type PlacedCard = { key: string; x: number; y: number; width: number; height: number };
// `d` is the SVG path; `points` its polyline (the arrowhead sits on its last segment).
export type PlacedEdge = MapEdge & { points: Point[]; d: string };
export type MapLayout = { width: number; height: number; cards: Map<string, PlacedCard>; edges: PlacedEdge[] };

let engine: Promise<ELK> | null = null;

// ELK is half a megabyte of code: it loads with the first map, not with the app.
function elk(): Promise<ELK> {
  engine ??= import('elkjs/lib/elk.bundled.js').then((m) => new m.default());
  return engine;
}

export function column(card: MapCard, componentKeys: ReadonlySet<string>): number {
  if (isComponentCard(card, componentKeys)) return 2;
  const hop = Math.min(Math.max(card.hop, 1), 2);
  return card.role === 'caller' ? 2 - hop : 2 + hop;
}

const common: LayoutOptions = {
  'elk.algorithm': 'layered',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.separateConnectedComponents': 'false',
  'elk.spacing.nodeNode': '12',
  'elk.spacing.edgeNode': '12',
  'elk.spacing.edgeEdge': '6',
  'elk.layered.spacing.edgeNodeBetweenLayers': '14',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '6',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
};

function box(id: string, size: { width: number; height: number }, layoutOptions: LayoutOptions = {}): ElkNode {
  return { id, ...size, layoutOptions };
}

function edge(e: MapEdge, from: string, to: string): ElkExtendedEdge {
  return { id: e.id, sources: [from], targets: [to] };
}

// An ELK edge's route as one polyline (sections joined), shifted by the band's offset.
function route(laid: ElkExtendedEdge | undefined, dx: number, dy: number): Point[] {
  const points: Point[] = [];
  for (const s of laid?.sections ?? []) {
    for (const p of [s.startPoint, ...(s.bendPoints ?? []), s.endPoint]) points.push({ x: p.x + dx, y: p.y + dy });
  }
  return points;
}

export async function layoutMap(cards: readonly MapCard[], edges: readonly MapEdge[], componentKeys: ReadonlySet<string>): Promise<MapLayout> {
  const upper = cards.filter((c) => c.role !== 'infra');
  const lower = cards.filter((c) => c.role === 'infra');
  const inUpper = new Set(upper.map((c) => c.key));
  const inLower = new Set(lower.map((c) => c.key));
  const engineReady = await elk();

  // Services: columns by side and hop.
  const sorted = [...upper].sort((a, b) => column(a, componentKeys) - column(b, componentKeys));
  const upperEdges = edges.filter((e) => inUpper.has(e.from) && inUpper.has(e.to));
  const servicesGraph: ElkNode = {
    id: 'services',
    layoutOptions: {
      ...common,
      'elk.direction': 'RIGHT',
      'elk.partitioning.activate': 'true',
      'elk.layered.spacing.nodeNodeBetweenLayers': '64',
    },
    children: sorted.map((c) => box(c.key, cardSize(c), { 'elk.partitioning.partition': String(column(c, componentKeys)) })),
    edges: upperEdges.map((e) => edge(e, e.from, e.to)),
  };
  const services = upper.length > 0 ? await engineReady.layout(servicesGraph) : { id: 'services', width: 0, height: 0, children: [], edges: [] };

  // Infrastructure: the chain downwards, under anchors standing for the services above.
  const upperPos = new Map((services.children ?? []).map((n) => [n.id, n]));
  const down = edges.filter((e) => inLower.has(e.to) && (inUpper.has(e.from) || inLower.has(e.from)));
  const anchored = [...new Set(down.filter((e) => inUpper.has(e.from)).map((e) => e.from))].sort((a, b) => {
    const pa = upperPos.get(a);
    const pb = upperPos.get(b);
    return (pa?.x ?? 0) - (pb?.x ?? 0) || (pa?.y ?? 0) - (pb?.y ?? 0);
  });
  const anchors = anchored.map((key, i) =>
    box(`anchor:${key}`, { width: ANCHOR_WIDTH, height: 1 }, {
      'elk.layered.layering.layerConstraint': 'FIRST',
      'elk.position': `(${String(i * 100)},0)`,
    }),
  );
  const infraGraph: ElkNode = {
    id: 'infra',
    layoutOptions: { ...common, 'elk.direction': 'DOWN', 'elk.layered.spacing.nodeNodeBetweenLayers': '40', 'elk.layered.crossingMinimization.semiInteractive': 'true' },
    children: [...anchors, ...lower.map((c) => box(c.key, cardSize(c)))],
    edges: down.map((e) => edge(e, inUpper.has(e.from) ? `anchor:${e.from}` : e.from, e.to)),
  };
  const infra = lower.length > 0 ? await engineReady.layout(infraGraph) : { id: 'infra', width: 0, height: 0, children: [], edges: [] };

  // Both bands centred on the wider one; the infrastructure band below the services.
  const upperWidth = services.width ?? 0;
  const lowerWidth = infra.width ?? 0;
  const width = Math.max(upperWidth, lowerWidth);
  const ux = MARGIN + (width - upperWidth) / 2;
  const uy = MARGIN;
  const lx = MARGIN + (width - lowerWidth) / 2;
  const ly = uy + (services.height ?? 0) + (upper.length > 0 && lower.length > 0 ? BAND_GAP : 0);

  const placed = new Map<string, PlacedCard>();
  for (const n of services.children ?? []) placed.set(n.id, { key: n.id, x: (n.x ?? 0) + ux, y: (n.y ?? 0) + uy, width: n.width ?? 0, height: n.height ?? 0 });
  for (const n of infra.children ?? []) {
    if (!n.id.startsWith('anchor:')) placed.set(n.id, { key: n.id, x: (n.x ?? 0) + lx, y: (n.y ?? 0) + ly, width: n.width ?? 0, height: n.height ?? 0 });
  }

  // Cards of the services band standing above another card of their column.
  const upperCards = [...placed.values()].filter((c) => inUpper.has(c.key));
  const upperBelow = (c: PlacedCard): number =>
    upperCards.filter((o) => o !== c && o.y > c.y && o.x < c.x + c.width && o.x + o.width > c.x).length;

  const laidUpper = new Map((services.edges ?? []).map((e) => [e.id, e]));
  const laidLower = new Map((infra.edges ?? []).map((e) => [e.id, e]));
  const out: PlacedEdge[] = [];
  for (const e of edges) {
    const a = placed.get(e.from);
    const b = placed.get(e.to);
    if (a === undefined || b === undefined) continue;
    let points: Point[] = [];
    let lead = '';
    if (laidUpper.has(e.id)) points = route(laidUpper.get(e.id), ux, uy);
    else if (laidLower.has(e.id)) {
      points = route(laidLower.get(e.id), lx, ly);
      // From the service card's foot, a curve straight to where the route turns down
      // towards its card: the anchor's stub and the first sideways run are left out, so
      // links of several services do not share one crowded channel.
      if (inUpper.has(e.from) && points.length >= 2) {
        let j = 0;
        if (points[1]!.x === points[0]!.x && points.length > 2) j = 1;
        if (points[j + 1] !== undefined && points[j + 1]!.y === points[j]!.y && j + 2 < points.length) j += 1;
        points = points.slice(j);
        const start = points[0]!;
        lead = leadIn(a, start, upperBelow(a), uy + (services.height ?? 0) + 10);
      }
    }
    // Anything ELK did not route (a link up from the infrastructure): a straight line.
    if (points.length < 2) points = [{ x: a.x + a.width / 2, y: a.y + a.height }, { x: b.x + b.width / 2, y: b.y }];
    out.push({ ...e, points, d: lead === '' ? rounded(points) : lead + rounded(points).replace(/^M/, 'L') });
  }
  const height = ly + (infra.height ?? 0) + MARGIN;
  return { width: width + 2 * MARGIN, height: Math.max(height, uy + (services.height ?? 0) + MARGIN), cards: placed, edges: out };
}

const n = (v: number): string => String(Math.round(v * 10) / 10);

// How a service's runs-on link leaves its card for the infrastructure band: from its foot
// when nothing of its column stands below it, else from its side (the one towards the
// target) down the gap beside the column, each card a little further out, so no link runs
// through another card.
function leadIn(card: PlacedCard, start: Point, below: number, bandBottom: number): string {
  const curve = (from: Point): string => {
    const bend = Math.max(16, (start.y - from.y) * 0.5);
    return `C${n(from.x)},${n(from.y + bend)} ${n(start.x)},${n(start.y - bend)} ${n(start.x)},${n(start.y)} `;
  };
  if (below === 0) {
    const foot = { x: card.x + card.width / 2, y: card.y + card.height };
    return `M${n(foot.x)},${n(foot.y)} ${curve(foot)}`;
  }
  const right = start.x >= card.x + card.width / 2;
  const side = right ? card.x + card.width : card.x;
  const channel = right ? side + 8 + 5 * below : side - 8 - 5 * below;
  const y = card.y + card.height - 12;
  const turn = { x: channel, y: bandBottom };
  return `${rounded([{ x: side, y }, { x: channel, y }, turn])} ${curve(turn)}`;
}

// A polyline with its corners rounded off (orthogonal routes read better that way).
export function rounded(points: readonly Point[], radius = 6): string {
  const first = points[0];
  if (first === undefined) return '';
  let d = `M${n(first.x)},${n(first.y)}`;
  for (let i = 1; i < points.length; i++) {
    const p = points[i]!;
    const prev = points[i - 1]!;
    const next = points[i + 1];
    if (next === undefined) {
      d += ` L${n(p.x)},${n(p.y)}`;
      break;
    }
    const r = Math.min(radius, Math.hypot(p.x - prev.x, p.y - prev.y) / 2, Math.hypot(next.x - p.x, next.y - p.y) / 2);
    const towards = (q: Point, len: number): Point => {
      const dist = Math.hypot(q.x - p.x, q.y - p.y) || 1;
      return { x: p.x + ((q.x - p.x) / dist) * len, y: p.y + ((q.y - p.y) / dist) * len };
    };
    const enter = towards(prev, r);
    const leave = towards(next, r);
    d += ` L${n(enter.x)},${n(enter.y)} Q${n(p.x)},${n(p.y)} ${n(leave.x)},${n(leave.y)}`;
  }
  return d;
}

// The zoom at which the whole map fits a viewport of this size: never above 100%, never
// below `floor`, in whole percent.
export function fitZoom(layout: Pick<MapLayout, 'width' | 'height'>, viewport: { width: number; height: number }, floor: number): number {
  const scale = Math.min(1, (viewport.width - 8) / layout.width, (viewport.height - 8) / layout.height);
  return Math.max(floor, Math.floor(scale * 100) / 100);
}

// Where the viewport scrolls to at this zoom: nowhere when the map fits; else the components
// in the middle (their top a third down), the left edge moved back to the start of a card it
// would cut, so no card opens clipped off the left.
export function openingView(layout: MapLayout, focusKeys: readonly string[], zoom: number, viewport: { width: number; height: number }): { left: number; top: number } {
  const focus = focusKeys.map((k) => layout.cards.get(k)).filter((c) => c !== undefined);
  if (focus.length === 0) return { left: 0, top: 0 };
  const maxLeft = Math.max(0, layout.width * zoom - viewport.width);
  const maxTop = Math.max(0, layout.height * zoom - viewport.height);
  const lo = Math.min(...focus.map((c) => c.x));
  const hi = Math.max(...focus.map((c) => c.x + c.width));
  let left = Math.min(maxLeft, Math.max(0, ((lo + hi) / 2) * zoom - viewport.width / 2));
  const cut = [...layout.cards.values()].filter((c) => c.x * zoom < left && (c.x + c.width) * zoom > left);
  if (cut.length > 0) left = Math.max(0, Math.min(...cut.map((c) => c.x)) * zoom - 8);
  const top = Math.min(maxTop, Math.max(0, Math.min(...focus.map((c) => c.y)) * zoom - viewport.height / 3));
  return { left, top };
}
