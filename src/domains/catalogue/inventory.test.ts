import { describe, expect, it } from 'vitest';
import type { EntityKind, Via } from './entity.js';
import { buildGraph, inventoryEntity, walk, type GraphNode } from './inventory.js';

const node = (key: string, kind: EntityKind = 'service'): GraphNode => ({ key, kind, name: key.split(':')[1]!, stale: false, engine: null, tier: null, owner: null, team: null, environment: null });
const link = (from: string, to: string, via: Via = 'calls', stale = false) => ({ from, to, via, stale });
const keys = (xs: Array<{ key: string }>) => xs.map((x) => x.key);

describe('the inventory walk', () => {
  const g = buildGraph(
    [node('svc:a'), node('svc:b'), node('svc:c'), node('svc:d'), node('ext:stripe.com', 'external'), node('svc:behind-ext'), node('pod:p1', 'pod'), node('node:n1', 'node'), node('svc:old')],
    [
      link('svc:a', 'svc:b'), link('svc:b', 'svc:c'), link('svc:a', 'svc:c'), link('svc:c', 'svc:d'),
      link('svc:a', 'ext:stripe.com'), link('ext:stripe.com', 'svc:behind-ext'),
      link('svc:a', 'pod:p1', 'runs-on'), link('pod:p1', 'node:n1', 'runs-on', true),
      link('svc:a', 'svc:old', 'calls', true), link('svc:b', 'svc:a'),
    ],
  );
  const o = { hops: 2 as const, includeStale: false };

  it('puts each key at its shortest depth, and never the entity itself', () => {
    const uses = walk(g, 'svc:a', 'uses', o);
    expect(keys(uses.hop1)).toEqual(['ext:stripe.com', 'pod:p1', 'svc:b', 'svc:c']);
    expect(keys(uses.hop2)).toEqual(['node:n1', 'svc:d']);
    expect([...keys(uses.hop1), ...keys(uses.hop2)]).not.toContain('svc:a');
  });
  it('reaches an external but does not walk through it on the uses side', () => {
    expect(keys(walk(g, 'svc:a', 'uses', o).hop2)).not.toContain('svc:behind-ext');
    expect(keys(walk(g, 'svc:behind-ext', 'usedBy', o).hop2)).toEqual(['svc:a']);
  });
  it('counts stale call edges only when asked, stale placements always, and marks them on hop 1', () => {
    expect(keys(walk(g, 'svc:a', 'uses', o).hop1)).not.toContain('svc:old');
    const withStale = walk(g, 'svc:a', 'uses', { ...o, includeStale: true });
    expect(withStale.hop1.find((n) => n.key === 'svc:old')).toEqual({ key: 'svc:old', kind: 'service', name: 'old', via: 'calls', stale: true });
    expect(walk(g, 'pod:p1', 'uses', o).hop1).toEqual([{ key: 'node:n1', kind: 'node', name: 'n1', via: 'runs-on', stale: true }]);
  });
  it('gives via on hop 1 only, and hops=1 leaves hop 2 empty', () => {
    const e = inventoryEntity(g, 'svc:a', o);
    expect(e.uses.hop1.every((n) => n.via)).toBe(true);
    expect(e.uses.hop2.every((n) => n.via === undefined)).toBe(true);
    expect(keys(e.usedBy.hop1)).toEqual(['svc:b']);
    expect(inventoryEntity(g, 'svc:a', { ...o, hops: 1 }).uses.hop2).toEqual([]);
  });
  it('stops a list at 200 neighbours and a walk at 2,000 edges, saying truncated', () => {
    const hubNodes = [node('svc:hub'), ...Array.from({ length: 250 }, (_, i) => node(`svc:c${String(i).padStart(3, '0')}`))];
    const hub = buildGraph(hubNodes, hubNodes.slice(1).map((n) => link(n.key, 'svc:hub')));
    const e = inventoryEntity(hub, 'svc:hub', o);
    expect(e.usedBy.hop1).toHaveLength(200);
    expect(e.truncated).toBe(true);
    const wideNodes = [node('svc:root'), ...Array.from({ length: 50 }, (_, i) => node(`svc:m${i}`)), ...Array.from({ length: 100 }, (_, i) => node(`svc:leaf${i}`))];
    const wideLinks = [...Array.from({ length: 50 }, (_, i) => link('svc:root', `svc:m${i}`)), ...Array.from({ length: 50 }, (_, i) => Array.from({ length: 100 }, (_, j) => link(`svc:m${i}`, `svc:leaf${j}`))).flat()];
    const wide = walk(buildGraph(wideNodes, wideLinks), 'svc:root', 'uses', o);
    expect(wide.truncated).toBe(true);
    expect(wide.hop2.length).toBe(100);
  });
});
