import { Type } from 'typebox';
import { IsoTime } from '../../platform/http/schemas.js';
import { ACTOR_KINDS, AUDIT_SOURCES } from './audit-event.js';
import { AUDIT_PAGE_MAX } from './ledger-queries.js';
import { SETTINGS_NAMES } from './settings-capture.js';

const Hash = Type.String({ pattern: '^[0-9a-f]{64}$' });

export const AuditEventBody = Type.Object({
  seq: Type.Integer({ description: 'Gap-free per organisation' }),
  occurredAt: IsoTime,
  actor: Type.Object({
    kind: Type.Enum(ACTOR_KINDS),
    id: Type.Union([Type.String(), Type.Null()]),
    name: Type.String(),
    automation: Type.Union([Type.String(), Type.Null()], { description: 'Which automation acted' }),
    trigger: Type.Union([Type.String(), Type.Null()], { description: 'What set the automation off' }),
  }),
  action: Type.String({ examples: ['token.created'] }),
  target: Type.Object({ type: Type.String(), id: Type.String() }),
  correlationId: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()]),
  source: Type.Enum(AUDIT_SOURCES),
  data: Type.Record(Type.String(), Type.Unknown()),
  schemaVersion: Type.Integer(),
  prevHash: Hash,
  hash: Hash,
});

const TimeBound = Type.String({ maxLength: 40, description: 'A duration back from now (15m, 1h, 7d) or an ISO-8601 time' });
const Filter = {
  action: Type.Optional(Type.String({ maxLength: 200, description: 'Action prefix: token. matches token.created' })),
  actor: Type.Optional(Type.String({ maxLength: 200, description: 'Actor id (usr_…, token id)' })),
  targetType: Type.Optional(Type.String({ maxLength: 100 })),
  targetId: Type.Optional(Type.String({ maxLength: 300 })),
  correlationId: Type.Optional(Type.String({ maxLength: 200 })),
  since: Type.Optional(TimeBound),
  until: Type.Optional(TimeBound),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Free text over action, actor, target, correlation id and data' })),
};

export const AuditQuery = Type.Object(
  { ...Filter, cursor: Type.Optional(Type.String({ maxLength: 200 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_PAGE_MAX, default: 50 })) },
  { additionalProperties: false },
);
export const AuditExportQuery = Type.Object(Filter, { additionalProperties: false });

export const AuditPageBody = Type.Object({ items: Type.Array(AuditEventBody), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const VerifyBody = Type.Object({
  ok: Type.Boolean(),
  checked: Type.Integer(),
  head: Type.Union([Type.Object({ seq: Type.Integer(), hash: Hash }), Type.Null()]),
  firstBrokenSeq: Type.Union([Type.Integer(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
});

const Completeness = ['complete', 'partial', 'unknown'] as const;
const Prestate = ['present', 'absent', 'unknown'] as const;
export const SettingsCaptureQuery = Type.Object({
  settings: Type.Optional(Type.Enum(SETTINGS_NAMES, { description: 'Only the writes of these settings' })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_PAGE_MAX, default: 50 })),
}, { additionalProperties: false });
export const SettingsCaptureBody = Type.Object({
  seq: Type.Integer({ description: 'The audit event of the write' }),
  action: Type.String(),
  settings: Type.String(),
  method: Type.Literal('settings_write'),
  source: Type.Literal('changeledger'),
  capturedAt: IsoTime,
  capturedBy: Type.String(),
  before: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'The values the write replaced, field by field; null when the ledger does not hold them' }),
  after: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  sha256: Type.Union([Type.String({ pattern: '^[0-9a-f]{64}$' }), Type.Null()], { description: 'SHA-256 of the canonical JSON of before' }),
  sizeBytes: Type.Integer(),
  completeness: Type.Enum(Completeness),
  prestateStatus: Type.Enum(Prestate),
  restorable: Type.Boolean(),
  note: Type.Union([Type.String(), Type.Null()]),
}, { description: 'A settings write as a before-state capture' });
export const SeqParams = Type.Object({ seq: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1, description: 'The sequence number of the audit event' }) });
export const SettingsCapturePageBody = Type.Object({ items: Type.Array(SettingsCaptureBody), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const CheckpointBody = Type.Object({
  id: Type.String(),
  seq: Type.Integer({ description: 'The head sequence the checkpoint signs' }),
  hash: Hash,
  signedAt: IsoTime,
  keyId: Type.String({ pattern: '^[0-9a-f]{8}$', description: "The signed note's key id (first 4 bytes of SHA-256 over name, 0x0A, 0x01, public key), in hex" }),
  note: Type.String({ description: 'The checkpoint as a C2SP signed note: save it as a file and give it to `audit verify --file … --checkpoint`' }),
});

export const CheckpointPageBody = Type.Object({ items: Type.Array(CheckpointBody), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const CheckpointQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 100 })),
});

export const CheckpointKeyBody = Type.Object({
  name: Type.String({ description: 'The key name in every signature line, and the start of each origin' }),
  keyId: Type.String({ pattern: '^[0-9a-f]{8}$' }),
  algorithm: Type.Literal('Ed25519'),
  pem: Type.String({ description: 'The public key as PEM (SPKI), for `audit verify --key` and `openssl pkeyutl -verify`' }),
  verifierKey: Type.String({ description: 'The signed-note verifier key: name+keyid+base64(0x01 ‖ key)' }),
});
