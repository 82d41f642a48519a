/** The catalogue's words: entities, their kinds, and the links between them. */

export const ENTITY_KINDS = [
  'service', 'instance', 'database', 'schema', 'external', 'vm', 'host', 'pod', 'node', 'datastore', 'device', 'volume',
  'business-process', 'workload',
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];
export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet'] as const;
export const TIERS = ['critical', 'important', 'standard'] as const;
export type Tier = (typeof TIERS)[number];
export const VIAS = ['calls', 'runs-on', 'member'] as const;
export type Via = (typeof VIAS)[number];

export type Entity = {
  key: string;
  kind: EntityKind;
  name: string;
  engine?: string | null;
  tier?: Tier | null;
  owner?: string | null;
  team?: string | null;
  environment?: string | null;
  /** Anything else a source knows (a workload's kind, a pod's namespace). */
  attrs?: Record<string, unknown>;
};

/** `from` uses `to`: calls it, runs on it, or (a business process) has it as a member. */
export type Link = { from: string; to: string; via: Via; lastSeen?: string | null };

export type Estate = { entities: Entity[]; links: Link[] };

export function isKind(k: string): k is EntityKind {
  return (ENTITY_KINDS as readonly string[]).includes(k);
}

/** Services and data-source instances are `svc:<name>`. */
export const serviceKey = (name: string) => `svc:${name}`;
