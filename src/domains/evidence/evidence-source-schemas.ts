import { Type } from 'typebox';
import { PeerAuthInput } from '../../platform/http/schemas.js';

/** Settings → Evidence: request and response schemas, one per direction. */

const Str = Type.String();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const SourceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, title: 'ID' }) });

const Kind = Type.Enum(['prometheus', 'loki', 'elasticsearch', 'otlp'], {
  title: 'Kind', description: 'prometheus (metrics), loki or elasticsearch (Elasticsearch / OpenSearch logs), otlp (our own POST /v1/logs intake)',
});


const fields = {
  name: Type.String({ minLength: 1, maxLength: 200, title: 'Name' }),
  url: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2000, title: 'URL', description: 'The base URL (http://prometheus:9090); private addresses are allowed; none for otlp' }))),
  auth: Type.Optional(PeerAuthInput),
  config: Type.Optional(Type.Unknown({ title: 'Settings', description: 'loki: {serviceLabel, selector, errorFilter}; elasticsearch: {index, timeField, serviceField, levelField, messageField, errorLevels}; none for prometheus and otlp' })),
  enabled: Type.Optional(Type.Boolean({ title: 'Enabled' })),
};

export const SourceCreate = Type.Object({ kind: Kind, ...fields }, { additionalProperties: false });
export const SourceUpdate = Type.Object({ ...fields, kind: Type.Optional(Kind), name: Type.Optional(fields.name) }, { additionalProperties: false });

export const Source = Type.Object({
  id: Str, kind: Kind, name: Str, url: Nullable(Str), authKind: Type.Enum(['none', 'bearer', 'basic']), hasSecret: Type.Boolean(),
  authHint: Nullable(Str), config: Type.Record(Str, Type.Unknown()), enabled: Type.Boolean(), createdAt: Str, updatedAt: Str,
}, { $id: 'EvidenceSource' });

export const SourceTest = Type.Object({ ok: Type.Boolean(), version: Type.Optional(Str), message: Str }, { $id: 'EvidenceSourceTest' });

const Thresholds = Type.Object({
  errorRatioPoints: Type.Number(), errorRatioFactor: Type.Number(), latencyIncrease: Type.Number(), latencyFloorMs: Type.Number(),
  rateDrop: Type.Number(), rateFloor: Type.Number(), downMinutes: Type.Integer(), flappingEntries: Type.Integer(),
});
const Queries = Type.Object({ rate: Str, errorRatio: Str, p95: Str });
const Templates = Type.Object({ name: Type.Enum(['otel', 'classic', 'custom']), serviceLabel: Str, queries: Queries });
const StoredTemplates = Type.Union([
  Type.Object({ preset: Type.Enum(['otel', 'classic']) }),
  Type.Object({ serviceLabel: Str, rate: Str, errorRatio: Str, p95: Str }),
]);

export const Settings = Type.Object({
  thresholds: Thresholds, thresholdsAreDefault: Type.Boolean(), defaultThresholds: Thresholds,
  redTemplates: Templates, redTemplatesStored: Nullable(StoredTemplates),
  presets: Type.Object({ otel: Templates, classic: Templates }),
  aiEnabled: Type.Boolean(), updatedAt: Nullable(Str),
}, { $id: 'EvidenceSettings' });

export const SettingsInput = Type.Object({
  thresholds: Type.Optional(Nullable(Type.Unknown({ title: 'Thresholds', description: 'Any of errorRatioPoints, errorRatioFactor, latencyIncrease, latencyFloorMs, rateDrop, rateFloor, downMinutes, flappingEntries (the rest keep the defaults); null: the defaults' }))),
  redTemplates: Type.Optional(Nullable(Type.Unknown({ title: 'RED templates', description: '{preset: "otel" | "classic"} or {serviceLabel?, rate, errorRatio, p95} with $range, $offset and $by; null: the default (otel)' }))),
  aiEnabled: Type.Optional(Type.Boolean({ title: 'AI assessment of change reports', description: 'Owners only' })),
}, { additionalProperties: false });
