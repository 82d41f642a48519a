/**
 * The intake endpoints of change sources, on the pipeline listener: one path per kind with the
 * connection's id, and PagerDuty's shared `POST /v2/change/enqueue` whose routing key is the
 * connection's secret. Each request: connection → the adapter's own authentication (401, nothing
 * stored) → the adapter's parse (400 naming the field) → IntakeService.record in one transaction →
 * the answer, sent only after the commit.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { AppError, badRequest, notFound, unauthorized } from '../../platform/errors.js';
import { errors } from '../../platform/http/schemas.js';
import type { AuditContext } from '../ledger/index.js';
import type { IntakeService } from './intake-service.js';
import { findSource, findSourceBySecretHash, type SourceRow } from './observed-store.js';
import { secretHash } from './source-store.js';
import type { IntakeRequest, Parsed, SourceKind } from './observed-types.js';
import { INTAKE_ADAPTERS } from './sources/index.js';

/** The largest body a sender may post: a Kubernetes audit batch or an EventBridge burst. */
export const INTAKE_BODY_LIMIT = 5 * 1024 * 1024;
/** Requests a minute per connection: a busy cluster's audit webhook flushes every second or so. */
export const INTAKE_PER_MINUTE = 600;

/** The kinds with a path of their own (PagerDuty's path is its documented one). */
export const PATH_KINDS = ['github', 'gitlab', 'argocd', 'kubernetes', 'aws', 'azure', 'cloudevents', 'webhook'] as const satisfies readonly SourceKind[];
const JSON_TYPES = ['application/json', 'application/cloudevents+json', 'application/cloudevents-batch+json'];

const Counts = {
  recorded: Type.Integer(), duplicate: Type.Integer(), enriched: Type.Integer(), noise: Type.Integer(), capped: Type.Integer(),
  denied: Type.Integer(), ignored: Type.Integer(), receipts: Type.Integer(),
};
const IntakeAnswer = Type.Object({
  ...Counts,
  rejected: Type.Array(Type.Object({ index: Type.Integer(), field: Type.String(), message: Type.String() }), { description: 'Bad items of a batch; the good ones were recorded' }),
}, { additionalProperties: false, description: 'What this delivery became, counted; sent only after it is committed' });
const IgnoredAnswer = Type.Object({ ignored: Type.Integer({ description: 'Events of a type that is not recorded (a ping, a star, a read)' }) }, { additionalProperties: false });
const PagerDutyAnswer = Type.Object({
  status: Type.Literal('success'), message: Type.String(), ...Counts, rejected: IntakeAnswer.properties.rejected,
}, { additionalProperties: false, description: 'PagerDuty\'s documented answer to a change event (202 {status, message}), with our counts beside it' });

const isJsonType = (type: string) => JSON_TYPES.includes(type) || type.endsWith('+json');

/** The body as the adapter reads it: JSON for JSON types (a 400 when it is not), else null (a binary CloudEvent). */
function bodyOf(req: FastifyRequest, raw: Buffer): unknown {
  const type = String(req.headers['content-type'] ?? 'application/json').split(';')[0]!.trim().toLowerCase();
  if (!isJsonType(type)) return null;
  if (raw.length === 0) return null;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (err) {
    throw badRequest(`the body is not valid JSON (${(err as Error).message})`, 'body');
  }
}

export type IntakeRoutesDeps = { db: Database; clock: Clock; intake: IntakeService };

export const observedIntakeRoutes: FastifyPluginAsyncTypebox<IntakeRoutesDeps> = async (app, deps) => {
  // The exact bytes, in this plugin only: GitHub signs them, and a binary CloudEvent may be any type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  const rawOf = (req: FastifyRequest) => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));

  /** The adapter's parse, with anything it throws that is not one of our refusals turned into a 400: it read what a client sent. */
  const parse = (source: SourceRow, request: IntakeRequest, ciNamespaces: string[]): Parsed => {
    try {
      return INTAKE_ADAPTERS[source.kind].parse(request, { sourceId: source.id, config: source.config, ciNamespaces, now: deps.clock.now() });
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw badRequest(`the ${source.kind} payload could not be read: ${(err as Error).message}`, 'body');
    }
  };

  const receive = async (req: FastifyRequest, reply: FastifyReply, source: SourceRow, request: IntakeRequest) => {
    const secret = deps.intake.secretOf(source);
    // A bad secret writes nothing at all, not even a counter: anyone can post to a public URL.
    if (!(await INTAKE_ADAPTERS[source.kind].authenticate(request, secret))) throw unauthorized(`the request does not carry this ${source.kind} change source's secret`);
    const ctx: AuditContext = { actor: { kind: 'service', id: source.id, name: `change source "${source.name}" (${source.kind})` }, source: 'webhook', requestId: req.id };
    const { counts, capReached, rejected, events } = await deps.intake.receive(ctx, source, request.rawBody, (ciNamespaces) => parse(source, request, ciNamespaces));
    // A webhook has no marker: the cap goes to the server's log, once per delivery that reached it.
    if (capReached) req.log.info({ sourceId: source.id, capped: counts.capped }, 'change source reached a cap: the rest of this delivery was counted capped');
    const { rejected: _n, ...shown } = counts;
    if (source.kind === 'pagerduty') return reply.status(202).send({ status: 'success' as const, message: 'Change event processed', ...shown, rejected });
    const nothing = events === 0 && rejected.length === 0 && counts.noise === 0;
    if (nothing) return reply.status(202).send({ ignored: counts.ignored });
    return reply.status(200).send({ ...shown, rejected });
  };

  for (const kind of PATH_KINDS) {
    app.post(`/v1/changes/${kind}/:sourceId`, {
      config: { access: 'source', pipelineBodyLimit: INTAKE_BODY_LIMIT, tokensPerMinute: INTAKE_PER_MINUTE },
      bodyLimit: INTAKE_BODY_LIMIT,
      schema: {
        tags: ['observed'],
        summary: `Intake of ${kind} change events (observed changes); see docs/observed.md`,
        description: `Paste the connection's endpoint into the sender. Authentication is the sender's own (docs/observed.md, "${kind}"). Bodies up to 5 MiB.`,
        params: Type.Object({ sourceId: Type.String({ minLength: 1, maxLength: 100, description: 'The connection\'s id (Settings → Change sources)' }) }),
        body: Type.Unknown({ description: 'The sender\'s own payload, as it sends it' }),
        response: { 200: IntakeAnswer, 202: IgnoredAnswer, ...errors(400, 401, 404, 413, 429) },
      },
    }, async (req, reply) => {
      const source = await findSource(deps.db, req.params.sourceId);
      // Another kind's connection reads as no connection: the path does not reveal what exists.
      if (!source || source.kind !== kind) throw notFound(`no ${kind} change source ${req.params.sourceId}`);
      const raw = rawOf(req);
      return receive(req, reply, source, { headers: req.headers, rawBody: raw, body: bodyOf(req, raw) });
    });
  }

  app.post('/v2/change/enqueue', {
    config: { access: 'source', pipelineBodyLimit: INTAKE_BODY_LIMIT, tokensPerMinute: INTAKE_PER_MINUTE },
    bodyLimit: INTAKE_BODY_LIMIT,
    schema: {
      tags: ['observed'],
      summary: 'PagerDuty-compatible change event (Events API v2 change events): routing_key is the connection\'s secret',
      body: Type.Unknown({ description: '{routing_key, payload{summary, timestamp, source, custom_details}, links}' }),
      response: { 202: PagerDutyAnswer, ...errors(400, 401, 413, 429) },
    },
  }, async (req, reply) => {
    const raw = rawOf(req);
    const body = bodyOf(req, raw);
    const key = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).routing_key : undefined;
    if (typeof key !== 'string' || key === '') throw badRequest('routing_key is required: the secret of a PagerDuty change source', 'routing_key');
    const source = await findSourceBySecretHash(deps.db, secretHash(key));
    // The key is the secret: an unknown one is refused as a bad secret would be.
    if (!source || source.kind !== 'pagerduty') throw unauthorized('the routing_key is not the secret of a PagerDuty change source');
    return receive(req, reply, source, { headers: req.headers, rawBody: raw, body });
  });
};
