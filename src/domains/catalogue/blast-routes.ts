import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../platform/http/schemas.js';
import { SILENCE_MODES } from './blast.js';
import type { BlastService } from './blast-service.js';

const COMPONENT_KINDS = ['service', 'instance', 'database', 'schema', 'vm', 'host', 'datastore', 'pod', 'node', 'device', 'external', 'integration', 'workload', 'volume'] as const;
const ComponentInput = Type.Object(
  {
    kind: Type.Optional(Type.Enum(COMPONENT_KINDS)),
    key: Type.Optional(Type.String({ minLength: 1, maxLength: 500, examples: ['svc:checkout-api'] })),
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 200, examples: ['checkout-api'] })),
  },
  { additionalProperties: false },
);
const Mode = Type.Enum(SILENCE_MODES);
const BlastRequest = Type.Object(
  {
    components: Type.Optional(Type.Array(ComponentInput, { maxItems: 100 })),
    lines: Type.Optional(Type.String({ maxLength: 20_000, description: 'Names or keys, one a line (resolved like {query})' })),
    hops: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], { default: 1 })),
    title: Type.Optional(Type.String({ maxLength: 200 })),
    silenceInfra: Type.Optional(Type.Union([Mode, Type.Null()], { description: 'dedicated | all | none; null or omitted: the organisation default' })),
  },
  { additionalProperties: false },
);
const Ref = Type.Object({ key: Type.String(), kind: Type.String(), name: Type.String() });
const Counts = Type.Object(Object.fromEntries(
  ['services', 'databases', 'schemas', 'items', 'workloads', 'vms', 'hosts', 'nodes', 'datastores', 'devices', 'volumes', 'pods', 'shared', 'capped', 'externals', 'sources'].map((k) => [k, Type.Integer()]),
), { description: 'What a change silences (pods count per workload) and what it leaves loud' });
const Pair = Type.Object({ from: Type.String(), to: Type.String() });
export const Blast = Type.Object({
  format: Type.String(),
  scope: Type.Object({ serviceKeys: Type.Array(Type.String()), assetKeys: Type.Array(Type.String()), hvEntityKeys: Type.Array(Type.String()), sourceIds: Type.Array(Type.String()), integrationIds: Type.Array(Type.String()) }),
  counts: Counts, silenceInfra: Mode, hops: Type.Integer(),
  notSilenced: Type.Array(Type.Object({ kind: Type.Enum(['monitors', 'multi-service-source', 'external', 'unseen', 'shared-infra', 'capped', 'infra-off']), name: Type.String(), why: Type.String(), items: Type.Array(Type.Record(Type.String(), Type.Unknown())), count: Type.Integer() })),
  services: Type.Optional(Type.Array(Type.Object({ ...Ref.properties, hop: Type.Integer(), side: Type.Enum(['component', 'caller', 'callee', 'both']), reason: Type.Optional(Type.Array(Type.String())) }))),
  infra: Type.Optional(Type.Array(Type.Object({ ...Ref.properties, silenced: Type.Boolean(), shared: Type.Boolean(), capped: Type.Optional(Type.Boolean()), pods: Type.Optional(Type.Integer()), hop: Type.Integer(), depth: Type.Integer(), reason: Type.Optional(Type.Array(Type.String())) }))),
  edges: Type.Optional(Type.Array(Pair, { description: 'Call edges among the affected services' })),
  nodes: Type.Array(Type.Object({
    ...Ref.properties, role: Type.Enum(['component', 'caller', 'callee', 'both', 'infra']), hop: Type.Integer(), silenced: Type.Boolean(), shared: Type.Optional(Type.Boolean()),
    details: Type.Optional(Type.Object({ tier: Type.Optional(Type.String()), engine: Type.Optional(Type.String()), instance: Type.Optional(Ref), pods: Type.Optional(Type.Integer()) })),
  }), { description: "The dependency map's cards" }),
  lineage: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), through: Type.Optional(Type.String({ description: 'A bridged link: the entity it passes that is no card (a database instance)' })) }), { description: 'Runs-on links among the cards' }),
  refused: Type.Union([Type.String(), Type.Null()]), large: Type.Boolean(), warnings: Type.Array(Type.String()),
  mapInfra: Type.Optional(Type.Literal('live')), edgesDropped: Type.Optional(Type.Boolean()),
  derivedFromLive: Type.Optional(Type.Boolean()), infraFromLive: Type.Optional(Type.Boolean()), edgesFromLive: Type.Optional(Type.Boolean()),
}, { $id: 'Blast', description: 'A blast radius (changeledger/change-blast/1) in its full shape' });
const Candidate = Type.Object({ kind: Type.String(), key: Type.String(), name: Type.String() });
const Tier = Type.Enum(['critical', 'important', 'standard']);
const PreviewBody = Type.Object({
  blast: Blast,
  resolved: Type.Array(Type.Object({ ...Candidate.properties, match: Type.Enum(['exact', 'alias', 'manual', 'key']), query: Type.Optional(Type.String()), seen: Type.Boolean() })),
  unresolved: Type.Array(Type.Object({ query: Type.String(), candidates: Type.Array(Candidate) }), { description: 'A line that is not exactly one thing, with up to 10 candidates' }),
  match: Type.Object({ matched: Type.Integer(), unresolved: Type.Array(Type.String()) }),
  refused: Type.Union([Type.String(), Type.Null()], { description: 'A save would answer 422' }),
  large: Type.Boolean({ description: '100 services or more: a save answers 409 without confirmLarge' }),
  counts: Counts, silenceInfra: Mode,
  criticality: Type.Union([Tier, Type.Null()]), criticalitySource: Type.Enum(['components', 'blast', 'none', 'pending']),
  componentTiers: Type.Record(Type.String(), Type.Union([Tier, Type.Null()])),
  unknownTierComponents: Type.Array(Candidate),
  scopeLine: Type.String({ examples: ['Silence scope: 12 services · 2 databases · +54 infrastructure (3 held, 51 shared)'] }),
  scopeBreakdown: Type.String({ description: 'The scope line tooltip: silenced infrastructure per kind' }),
}, { $id: 'BlastPreview' });
const Route = Type.Object({
  method: Type.Union([Type.String(), Type.Null()]), route: Type.String(), calls: Type.Integer(), errorShare: Type.Number(), p95Ms: Type.Number(),
  samplePath: Type.Union([Type.String(), Type.Null()]), lastSeen: Type.String(), probe: Type.Boolean(), externalIngress: Type.Boolean({ description: 'The same route is also reached from outside the estate' }),
});
export const ContractsBody = Type.Object({
  edges: Type.Array(Type.Object({ caller: Type.Object({ key: Type.String(), name: Type.String() }), callee: Type.Object({ key: Type.String(), name: Type.String() }), routes: Type.Array(Route), note: Type.Optional(Type.String()) })),
  withContract: Type.Integer(), total: Type.Integer(), routes: Type.Integer(), header: Type.String({ examples: ['3 of 4 call edges have a contract · 11 routes'] }),
}, { $id: 'Contracts' });

export const blastRoutes: FastifyPluginAsyncTypebox<{ blast: BlastService }> = async (app, { blast }) => {
  const tags = ['changes'];
  app.post('/api/changes/preview-blast', {
    config: { access: { scope: 'changes:read' } },
    schema: {
      tags, summary: 'What a registration would silence, and its criticality — computed, never stored nor trimmed (the editor’s live preview)',
      body: BlastRequest, response: { 200: PreviewBody, ...errors(400, 401, 403) },
    },
  }, async (req) => blast.preview(req.principal!.org.id, req.body));

  app.post('/api/changes/preview-contracts', {
    config: { access: { scope: 'changes:read' } },
    schema: {
      tags, summary: 'The contract of each service → service call edge such a registration would cover: the routes of the callee this caller uses (health probes and routes not seen for 7 days left out unless asked)',
      body: Type.Object({ ...BlastRequest.properties, edges: Type.Optional(Type.Array(Pair, { maxItems: 5000, description: 'The call edges of a preview already made: the components are then not walked again' })), includeStale: Type.Optional(Type.Boolean()), includeProbes: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      response: { 200: ContractsBody, ...errors(400, 401, 403) },
    },
  }, async (req) => blast.previewContracts(req.principal!.org.id, req.body));

};
