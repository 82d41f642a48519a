/**
 * The synthetic estate of the blast benchmark, generated in JavaScript from a seeded generator (the
 * same estate on both engines and every run) and bulk-loaded straight into catalogue_entities and
 * catalogue_links with multi-row INSERT … SELECT FROM unnest in large chunks, one transaction: a
 * benchmark loader, not an import (no per-row diffing, no audit event).
 *
 * Shape at scale 1: 20,000 services, 5,000 hosts, 20,000 VMs, 60,000 pods in 8,000 workloads,
 * 2,000 Kubernetes nodes, 300 datastores, 50 externals and 150,000 call edges, 5 of the services
 * hubs with 2,000 callers each.
 *  - 8,000 services run on the pods of one workload each (service → pod, pod → workload, pod → node);
 *    pods land on random nodes, so a node carries ~30 pods of ~30 services (shared).
 *  - the other 12,000 run on VMs: one each, 6,000 more spread over them, and 1,500 colocations
 *    (a second service on another's VM: shared VMs).
 *  - a node is a VM (node → vm); node VMs sit on the first tenth of the hosts, the rest on the others
 *    (≈ 4 VMs a host, some hosts carry one service only: dedicated when that service is in scope);
 *    every VM on a datastore, a tenth on two (~70 VMs a datastore: always shared).
 *  - call edges: the hubs' callers, 1,000 calls to externals, 100 calls from externals (webhooks),
 *    the rest random service → service, 2 % of those stale (left out by both computations).
 */
import type { Database } from '../src/platform/db/database.js';
import { int, say, seconds, seededRandom } from './bench-support.js';
import { createBenchOrganization } from './ledger-appends.js';

export type EstateSize = {
  services: number; hosts: number; vms: number; pods: number; workloads: number; nodes: number; datastores: number;
  callEdges: number; hubs: number; hubCallers: number; externals: number; externalCalls: number; webhookCalls: number; colocations: number;
};

export const FULL_SIZE: EstateSize = {
  services: 20_000, hosts: 5_000, vms: 20_000, pods: 60_000, workloads: 8_000, nodes: 2_000, datastores: 300,
  callEdges: 150_000, hubs: 5, hubCallers: 2_000, externals: 50, externalCalls: 1_000, webhookCalls: 100, colocations: 1_500,
};

/** Every count times the scale (at least 1); the number of hubs stays 5. */
export function sizeAt(scale: number): EstateSize {
  const s = (n: number) => Math.max(1, Math.round(n * scale));
  const f = FULL_SIZE;
  return {
    services: s(f.services), hosts: s(f.hosts), vms: s(f.vms), pods: s(f.pods), workloads: s(f.workloads), nodes: s(f.nodes), datastores: s(f.datastores),
    callEdges: s(f.callEdges), hubs: f.hubs, hubCallers: s(f.hubCallers), externals: s(f.externals), externalCalls: s(f.externalCalls),
    webhookCalls: s(f.webhookCalls), colocations: s(f.colocations),
  };
}

export const STALE_SHARE = 0.02;
const SOURCE = 'bench:blast';
const TIERS = ['critical', 'important', 'standard'] as const;

export type Estate = {
  size: EstateSize;
  entities: { key: string[]; kind: string[]; name: string[]; tier: (string | null)[]; team: (string | null)[] };
  links: { from: string[]; to: string[]; via: string[]; stale: boolean[] };
  serviceKeys: string[];
  hubKeys: string[];
  counts: Record<string, number>;
};

const pad = (i: number, n: number) => String(i).padStart(String(Math.max(1, n - 1)).length, '0');

export function generateEstate(size: EstateSize, seed = 20_260_301): Estate {
  const rand = seededRandom(seed);
  const pick = (n: number) => Math.floor(rand() * n);
  const entities: Estate['entities'] = { key: [], kind: [], name: [], tier: [], team: [] };
  const links: Estate['links'] = { from: [], to: [], via: [], stale: [] };
  const counts: Record<string, number> = {};
  const entity = (key: string, kind: string, name: string, tier: string | null = null, team: string | null = null) => {
    entities.key.push(key);
    entities.kind.push(kind);
    entities.name.push(name);
    entities.tier.push(tier);
    entities.team.push(team);
    counts[kind] = (counts[kind] ?? 0) + 1;
  };
  const link = (from: string, to: string, via: 'calls' | 'runs-on', stale = false) => {
    links.from.push(from);
    links.to.push(to);
    links.via.push(via);
    links.stale.push(stale);
    const k = `${via}${stale ? ' (stale)' : ''}`;
    counts[k] = (counts[k] ?? 0) + 1;
  };

  const svc = Array.from({ length: size.services }, (_, i) => `svc:s${pad(i, size.services)}`);
  const host = Array.from({ length: size.hosts }, (_, i) => `host:h${pad(i, size.hosts)}`);
  const vm = Array.from({ length: size.vms }, (_, i) => `vm:v${pad(i, size.vms)}`);
  const node = Array.from({ length: size.nodes }, (_, i) => `node:n${pad(i, size.nodes)}`);
  const ds = Array.from({ length: size.datastores }, (_, i) => `ds:d${pad(i, size.datastores)}`);
  const ext = Array.from({ length: size.externals }, (_, i) => `ext:api${pad(i, size.externals)}.example.com`);
  const workload = Array.from({ length: size.workloads }, (_, i) => `workload:apps/Deployment/w${pad(i, size.workloads)}`);

  for (const [i, k] of svc.entries()) {
    const r = rand();
    entity(k, 'service', k.slice(4), TIERS[r < 0.1 ? 0 : r < 0.4 ? 1 : 2]!, `team-${i % 120}`);
  }
  for (const k of ext) entity(k, 'external', k.slice(4));
  for (const k of host) entity(k, 'host', k.slice(5));
  for (const k of vm) entity(k, 'vm', k.slice(3));
  for (const k of node) entity(k, 'node', k.slice(5));
  for (const k of ds) entity(k, 'datastore', k.slice(3));
  for (const k of workload) entity(k, 'workload', k.slice(k.lastIndexOf('/') + 1));

  // Which services run on pods, which on VMs, which are hubs: a seeded shuffle.
  const perm = svc.map((_, i) => i);
  for (let i = perm.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [perm[i], perm[j]] = [perm[j]!, perm[i]!];
  }
  const podServices = perm.slice(0, size.workloads);
  const vmServices = perm.slice(size.workloads);

  // Pods: one per workload, the rest spread at random; each on a random node.
  const podsOfWorkload: number[] = Array.from({ length: size.workloads }, () => 1);
  for (let p = size.workloads; p < size.pods; p++) podsOfWorkload[pick(size.workloads)]! += 1;
  let podNo = 0;
  for (const [w, n] of podsOfWorkload.entries()) {
    const owner = svc[podServices[w]!]!;
    for (let j = 0; j < n; j++) {
      const key = `pod:apps/w${pad(w, size.workloads)}-p${pad(podNo++, size.pods)}`;
      entity(key, 'pod', key.slice(9));
      link(owner, key, 'runs-on');
      link(key, workload[w]!, 'runs-on');
      link(key, node[pick(size.nodes)]!, 'runs-on');
    }
  }

  // Nodes are the first VMs; the other VMs carry the VM services: one each, the rest at random, then colocations.
  for (let i = 0; i < size.nodes; i++) link(node[i]!, vm[i % size.vms]!, 'runs-on');
  const appVms = Math.max(1, size.vms - size.nodes);
  const placed = new Set<string>();
  const place = (s: string, v: string) => {
    const id = `${s} ${v}`;
    if (placed.has(id)) return false;
    placed.add(id);
    link(s, v, 'runs-on');
    return true;
  };
  for (let a = 0; a < Math.max(appVms, vmServices.length); a++) {
    const s = a < vmServices.length ? vmServices[a]! : vmServices[pick(vmServices.length)]!;
    place(svc[s]!, vm[size.nodes + (a % appVms)]!);
  }
  for (let c = 0; c < size.colocations; ) if (place(svc[vmServices[pick(vmServices.length)]!]!, vm[size.nodes + pick(appVms)]!)) c++;

  // VMs on hosts (node VMs on the first tenth of the hosts) and on one or two datastores.
  const nodeHosts = Math.max(1, Math.round(size.hosts / 10));
  for (let v = 0; v < size.vms; v++) {
    link(vm[v]!, host[v < size.nodes ? pick(nodeHosts) : Math.min(size.hosts - 1, nodeHosts + pick(Math.max(1, size.hosts - nodeHosts)))]!, 'runs-on');
    const d1 = pick(size.datastores);
    link(vm[v]!, ds[d1]!, 'runs-on');
    if (rand() < 0.1 && size.datastores > 1) link(vm[v]!, ds[(d1 + 1 + pick(size.datastores - 1)) % size.datastores]!, 'runs-on');
  }

  // Call edges: hubs first, then externals, then random service → service edges up to the total.
  const calls = new Set<string>();
  const call = (from: string, to: string, stale = false) => {
    const id = `${from} ${to}`;
    if (from === to || calls.has(id)) return false;
    calls.add(id);
    link(from, to, 'calls', stale);
    return true;
  };
  const hubKeys = perm.slice(perm.length - size.hubs).map((i) => svc[i]!);
  const hubCallers = Math.min(size.hubCallers, size.services - 1);
  for (const h of hubKeys) for (let c = 0; c < hubCallers; ) if (call(svc[pick(size.services)]!, h)) c++;
  for (let c = 0; c < size.externalCalls; ) if (call(svc[pick(size.services)]!, ext[pick(size.externals)]!)) c++;
  for (let c = 0; c < size.webhookCalls; ) if (call(ext[pick(size.externals)]!, svc[pick(size.services)]!)) c++;
  while (calls.size < size.callEdges) call(svc[pick(size.services)]!, svc[pick(size.services)]!, rand() < STALE_SHARE);

  return { size, entities, links, serviceKeys: svc, hubKeys, counts };
}

/** What the measurements and the report need of an estate once it is loaded (the arrays are let go: a smaller heap, less GC in the timings). */
export type EstateSummary = Pick<Estate, 'size' | 'serviceKeys' | 'hubKeys' | 'counts'>;
export type EstateLoad = { orgId: string; entities: number; links: number; generateMs: number; loadMs: number; analyzeMs: number; estate: EstateSummary };

export const CHUNK = 20_000;

/**
 * Generates the estate and loads it in one transaction: entities, then links (their foreign keys
 * need the entities), in chunks; then VACUUM ANALYZE. Only the summary outlives the call.
 */
export async function loadEstate(db: Database, engineLabel: string, size: EstateSize, at: Date): Promise<EstateLoad> {
  const g0 = performance.now();
  const estate = generateEstate(size);
  const generateMs = performance.now() - g0;
  const orgId = 'org_blastbench';
  await createBenchOrganization(db, orgId, 'Blast radius benchmark');
  const e = estate.entities;
  const l = estate.links;
  const iso = at.toISOString();
  say(`  [${engineLabel}] load: generated ${int(e.key.length)} entities and ${int(l.from.length)} links in ${seconds(generateMs)}; loading in statements of ${int(CHUNK)} rows, one transaction`);
  const t0 = performance.now();
  await db.transaction(async (tx) => {
    for (let lo = 0; lo < e.key.length; lo += CHUNK) {
      const hi = Math.min(e.key.length, lo + CHUNK);
      await tx.query(
        `INSERT INTO catalogue_entities (org_id, key, kind, name, source, stale, tier, team, attrs, first_seen, last_seen)
         SELECT $1, k, kd, n, $2, false, ti, te,
                CASE WHEN kd = 'workload' THEN '{"workloadKind": "Deployment", "namespace": "apps"}'::jsonb ELSE '{}'::jsonb END, $3, $3
           FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS u(k, kd, n, ti, te)`,
        [orgId, SOURCE, iso, e.key.slice(lo, hi), e.kind.slice(lo, hi), e.name.slice(lo, hi), e.tier.slice(lo, hi), e.team.slice(lo, hi)],
      );
    }
    say(`  [${engineLabel}] load: entities done after ${seconds(performance.now() - t0)}`);
    for (let lo = 0; lo < l.from.length; lo += CHUNK) {
      const hi = Math.min(l.from.length, lo + CHUNK);
      await tx.query(
        `INSERT INTO catalogue_links (org_id, from_key, to_key, via, source, stale, first_seen, last_seen)
         SELECT $1, f, t, v, $2, s, $3, $3 FROM unnest($4::text[], $5::text[], $6::text[], $7::boolean[]) AS u(f, t, v, s)`,
        [orgId, SOURCE, iso, l.from.slice(lo, hi), l.to.slice(lo, hi), l.via.slice(lo, hi), l.stale.slice(lo, hi)],
      );
      if (((lo / CHUNK) + 1) % 5 === 0 || hi === l.from.length) say(`  [${engineLabel}] load: ${int(hi)} / ${int(l.from.length)} links after ${seconds(performance.now() - t0)}`);
    }
  });
  const loadMs = performance.now() - t0;
  // PGlite has no autovacuum: VACUUM sets hint bits and the visibility map, ANALYZE gives the
  // baseline's planner the real distributions, as a server would have long before this size.
  const a0 = performance.now();
  await db.exec('VACUUM (ANALYZE) catalogue_entities');
  await db.exec('VACUUM (ANALYZE) catalogue_links');
  const analyzeMs = performance.now() - a0;
  say(`  [${engineLabel}] load: done in ${seconds(loadMs)}, VACUUM ANALYZE ${seconds(analyzeMs)}`);
  const { size: sz, serviceKeys, hubKeys, counts } = estate;
  return { orgId, entities: e.key.length, links: l.from.length, generateMs, loadMs, analyzeMs, estate: { size: sz, serviceKeys, hubKeys, counts } };
}
