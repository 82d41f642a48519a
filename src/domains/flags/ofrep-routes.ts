import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import { clientDataError } from '../../platform/http/error-handler.js';
import { RateLimiter } from '../../platform/http/rate-limit.js';
import { isDatabaseUnavailable, unavailableAnswer } from '../../platform/db/unavailable.js';
import { evaluate, type EvalContext } from './flag-eval.js';
import { FLAG_KEY } from './flag.js';
import * as store from './flag-store.js';
import type { SdkKeyService, SdkPrincipal } from './sdk-key-service.js';

export type OfrepDeps = { db: Database; clock: Clock; sdkKeys: SdkKeyService };

/** Polling applications must never be starved by the pipeline's 60 a minute. */
export const SDK_REQUESTS_PER_MINUTE = 6000;

const Body = Type.Object({ context: Type.Optional(Type.Record(Type.String(), Type.Unknown())) });
const KeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) });

declare module 'fastify' {
  interface FastifyRequest {
    sdk: SdkPrincipal | null;
  }
}

function presentedKey(req: FastifyRequest): string | null {
  const apiKey = req.headers['x-api-key'];
  if (typeof apiKey === 'string') return apiKey.trim();
  const m = typeof req.headers.authorization === 'string' ? /^bearer\s+(\S+)$/i.exec(req.headers.authorization) : null;
  return m ? m[1]! : null;
}

function result(flag: store.StoredState & { key: string }, e: ReturnType<typeof evaluate>) {
  return e.ok
    ? { key: flag.key, value: e.value, reason: e.reason, variant: e.variant, metadata: { version: flag.version } }
    : { key: flag.key, errorCode: e.errorCode, errorDetails: e.errorDetails };
}

/**
 * The OpenFeature Remote Evaluation Protocol, so any OpenFeature SDK reads flags through us.
 * Authenticated by SDK keys (X-API-Key or Authorization: Bearer cls_…) on both listeners, with
 * OFREP's own error shape ({key, errorCode, errorDetails}), which also carries our `error`.
 */
export const ofrepRoutes: FastifyPluginAsyncTypebox<OfrepDeps> = async (app, { db, clock, sdkKeys }) => {
  const limiter = new RateLimiter(SDK_REQUESTS_PER_MINUTE);
  app.decorateRequest('sdk', null);
  app.addHook('onRequest', async (req) => {
    if (req.is404) return;
    const value = presentedKey(req);
    if (!value) throw new AppError(401, 'send an SDK key: X-API-Key: cls_… or Authorization: Bearer cls_…');
    req.sdk = await sdkKeys.authenticate(value);
    if (!req.sdk) throw new AppError(401, 'unknown or revoked SDK key');
    const wait = limiter.hit(req.sdk.keyId, clock.now().getTime());
    if (wait > 0) throw new AppError(429, `more than ${SDK_REQUESTS_PER_MINUTE} evaluations a minute for this SDK key; retry in ${wait} s`, undefined, { retryAfter: wait });
  });
  app.setErrorHandler(async (err: FastifyError & Partial<AppError>, req, reply) => {
    const key = (req.params as { key?: string } | undefined)?.key;
    if (err instanceof AppError) {
      if (err.status === 429) void reply.header('retry-after', String(err.extra?.retryAfter ?? 60));
      return reply.status(err.status).send({ error: err.message, errorCode: 'GENERAL', errorDetails: err.message });
    }
    if (isDatabaseUnavailable(err)) {
      const { retryAfter, message: details } = unavailableAnswer(err);
      return reply.status(503).header('retry-after', String(retryAfter)).send({ ...(key ? { key } : {}), errorCode: 'GENERAL', errorDetails: details, error: details });
    }
    const invalidContext = err.validation?.some((v) => (v.instancePath ?? '').startsWith('/context'));
    // A value the database cannot store (a NUL in a string) is the client's: 400, never 500.
    const status = clientDataError(err) ? 400 : err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, 'unexpected error in flag evaluation');
    const details = status === 500 ? 'internal error' : err.message;
    return reply.status(status === 413 || status === 415 ? status : status === 500 ? 500 : 400).send({
      ...(key ? { key } : {}), errorCode: invalidContext ? 'INVALID_CONTEXT' : status === 500 ? 'GENERAL' : 'PARSE_ERROR', errorDetails: details, error: details,
    });
  });

  const tags = ['ofrep'];
  app.post('/ofrep/v1/evaluate/flags/:key', {
    config: { access: 'sdk' },
    schema: { tags, summary: 'Evaluate one flag for a context (OpenFeature Remote Evaluation Protocol)', params: KeyParams, body: Body, security: [{ sdkKey: [] }] },
  }, async (req, reply) => {
    const sdk = req.sdk!;
    // A key no flag can have is not found, and never reaches the database.
    const [found] = FLAG_KEY.test(req.params.key) ? await store.flagsForEnv(db, sdk.orgId, sdk.env, req.params.key) : [];
    if (!found) return reply.status(404).send({ key: req.params.key, errorCode: 'FLAG_NOT_FOUND', errorDetails: `no flag ${req.params.key} in ${sdk.env}`, error: `no flag ${req.params.key}` });
    const out = result({ ...found.state, key: found.flag.key }, evaluate(found.flag, found.state, (req.body?.context ?? {}) as EvalContext));
    if ('errorCode' in out) return reply.status(400).send({ ...out, error: out.errorDetails });
    return out;
  });

  app.post('/ofrep/v1/evaluate/flags', {
    config: { access: 'sdk' },
    schema: { tags, summary: 'Evaluate every flag for a context; ETag / If-None-Match answers 304 when nothing changed', body: Body, security: [{ sdkKey: [] }] },
  }, async (req, reply) => {
    const sdk = req.sdk!;
    const ctx = (req.body?.context ?? {}) as EvalContext;
    const all = await store.flagsForEnv(db, sdk.orgId, sdk.env);
    const body = { flags: all.map(({ flag, state }) => result({ ...state, key: flag.key }, evaluate(flag, state, ctx))), metadata: { environment: sdk.env } };
    const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
    void reply.header('etag', etag).header('cache-control', 'no-cache');
    if (req.headers['if-none-match'] === etag) return reply.status(304).send();
    return body;
  });

  app.get('/ofrep/v1/configuration', { config: { access: 'sdk' }, schema: { tags, summary: 'What this OFREP server supports' } }, async () => ({
    name: 'changeledger',
    capabilities: {
      cacheInvalidation: { polling: { enabled: true, minPollingIntervalMs: 10_000 } },
      flagEvaluation: { supportedTypes: ['boolean', 'string', 'number', 'object'] },
    },
  }));
};
