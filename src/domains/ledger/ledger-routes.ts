import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Clock } from '../../platform/clock.js';
import { timeBound } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { notFound, unauthorized } from '../../platform/errors.js';
import type { CheckpointService } from './checkpoint-service.js';
import { errors } from '../../platform/http/schemas.js';
import { exportLedger, publicEvent } from './ledger-export.js';
import { findAuditEvent, listAuditEvents, verifyLedger, type AuditFilter } from './ledger-queries.js';
import * as S from './ledger-schemas.js';
import { SETTINGS_ACTIONS, settingsCapture, type SettingsCapture } from './settings-capture.js';

export type LedgerRouteDeps = { db: Database; clock: Clock; checkpoints: CheckpointService };

type FilterQuery = { action?: string; actor?: string; targetType?: string; targetId?: string; correlationId?: string; since?: string; until?: string; q?: string };

export function toFilter(q: FilterQuery, now: Date): AuditFilter {
  const f: AuditFilter = { since: timeBound(q.since, now, 'since'), until: timeBound(q.until, now, 'until') };
  for (const k of ['action', 'actor', 'targetType', 'targetId', 'correlationId', 'q'] as const) if (q[k]) f[k] = q[k];
  return f;
}

export { publicEvent };

export const ledgerRoutes: FastifyPluginAsyncTypebox<LedgerRouteDeps> = async (app, { db, clock, checkpoints }) => {
  const tags = ['audit'];
  const orgRecord = (p: unknown) => {
    const org = (p as { org?: { id: string; slug: string } } | null)?.org;
    if (!org) throw unauthorized();
    return org;
  };
  const orgOf = (p: unknown) => orgRecord(p).id;

  app.get('/api/audit', {
    config: { access: { scope: 'audit:read' } },
    schema: { tags, summary: 'Audit events, newest first, with filters and cursor pagination', querystring: S.AuditQuery, response: { 200: S.AuditPageBody, ...errors(400, 401, 403, 429) } },
  }, async (req) => {
    const { cursor, limit = 50, ...q } = req.query;
    const page = await listAuditEvents(db, orgOf(req.principal), toFilter(q, clock.now()), limit, cursor || undefined);
    return { items: page.items.map(publicEvent), nextCursor: page.nextCursor };
  });

  app.get('/api/audit/export', {
    config: { access: { scope: 'audit:read' } },
    schema: {
      tags, summary: 'Every matching audit event as NDJSON, newest first, then a trailer line with the head they lead to',
      description: 'Without filters the file holds the whole chain and `changeledger audit verify --file` (or scripts/verify-ledger.mjs) proves it offline. '
        + 'The last line is `{"trailer":{format, organization, head, events, complete, order, exportedAt, filter?}}`.',
      querystring: S.AuditExportQuery, produces: ['application/x-ndjson'],
    },
  }, async (req, reply) => {
    const org = orgRecord(req.principal);
    const filter = toFilter(req.query, clock.now());
    void reply
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', 'attachment; filename="audit-events.ndjson"');
    async function* lines() {
      for await (const line of exportLedger(db, clock, org, filter)) yield `${JSON.stringify(line)}\n`;
    }
    return reply.send(Readable.from(lines()));
  });

  app.get('/api/audit/settings-captures', {
    config: { access: { scope: 'audit:read' } },
    schema: {
      tags, summary: 'Settings writes as before-state captures, newest first: what each write replaced, its SHA-256, and whether writing it back restores it',
      querystring: S.SettingsCaptureQuery, response: { 200: S.SettingsCapturePageBody, ...errors(400, 401, 403, 429) },
    },
  }, async (req) => {
    const { settings, cursor, limit = 50 } = req.query;
    const page = await listAuditEvents(db, orgOf(req.principal), { actions: settings ? [SETTINGS_ACTIONS.get(settings)!] : [...SETTINGS_ACTIONS.values()] }, limit, cursor || undefined);
    return { items: page.items.map((e) => settingsCapture(e)).filter((c): c is SettingsCapture => c !== null), nextCursor: page.nextCursor };
  });

  app.get('/api/audit/settings-captures/:seq', {
    config: { access: { scope: 'audit:read' } },
    schema: {
      tags, summary: 'One settings write, by the sequence number of its audit event, as a before-state capture',
      params: S.SeqParams, response: { 200: S.SettingsCaptureBody, ...errors(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const e = await findAuditEvent(db, orgOf(req.principal), req.params.seq);
    const capture = e ? settingsCapture(e) : null;
    if (!capture) throw notFound(e ? `audit event ${req.params.seq} is ${e.action}, not a settings write` : `no audit event ${req.params.seq}`);
    return capture;
  });

  app.get('/api/audit/verify', {
    config: { access: { scope: 'audit:read' } },
    schema: { tags, summary: "Walk the organisation's hash chain and name the first broken event", response: { 200: S.VerifyBody, ...errors(401, 403, 429) } },
  }, async (req) => {
    const { orgId: _o, ...res } = await verifyLedger(db, orgOf(req.principal));
    return res;
  });

  app.get('/api/audit/checkpoint-key', {
    config: { access: 'public' },
    schema: {
      tags, summary: 'The public key that signs checkpoints: PEM for openssl and `audit verify --key`, and the signed-note verifier key',
      querystring: Type.Object({ format: Type.Optional(Type.Literal('pem', { description: 'pem: the PEM alone, as text/plain' })) }),
      response: { 200: S.CheckpointKeyBody, ...errors(400, 429) },
    },
  }, async (req, reply) => {
    const key = await checkpoints.publicKey();
    if (req.query.format === 'pem') return reply.type('text/plain; charset=utf-8').send(key.pem as never);
    return key;
  });

  app.get('/api/audit/checkpoints', {
    config: { access: { scope: 'audit:read' } },
    schema: { tags, summary: "Signed checkpoints of the organisation's ledger, newest first", querystring: S.CheckpointQuery, response: { 200: S.CheckpointPageBody, ...errors(400, 401, 403, 429) } },
  }, async (req) => checkpoints.list(orgOf(req.principal), req.query.limit ?? 50, req.query.cursor || undefined));

  app.post('/api/audit/checkpoints', {
    config: { access: { scope: 'audit:read' } },
    schema: { tags, summary: 'Sign a checkpoint of the head now (owners and admins); the hourly job makes one whenever the head moved', response: { 201: S.CheckpointBody, ...errors(401, 403, 429) } },
  }, async (req, reply) => {
    const org = orgRecord(req.principal);
    const cp = await db.transaction((tx) => checkpoints.create(tx, org));
    return reply.code(201).send(cp!);
  });
};
