import type { FastifyError, FastifyInstance } from 'fastify';
import { describeUniqueViolation } from '../db/unique-violation.js';
import { AppError } from '../errors.js';

type AjvIssue = { instancePath?: string; keyword?: string; message?: string; params?: Record<string, unknown> };

/** The field an Ajv issue is about, as a dotted path (`scopes.2`, `name`). */
function fieldOf(issue: AjvIssue): string | undefined {
  const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const extra = issue.params?.missingProperty ?? issue.params?.additionalProperty;
  if (typeof extra === 'string') return path ? `${path}.${extra}` : extra;
  return path || undefined;
}

/** JSON Schema types in a person's words. */
const TYPE_WORDS: Record<string, string> = {
  string: 'text', integer: 'a whole number', number: 'a number', boolean: 'true or false', object: 'an object', array: 'a list', null: 'null',
};
const typeWords = (type: unknown) => String(type).split(',').map((t) => TYPE_WORDS[t] ?? t).join(' or ');

function describe(issue: AjvIssue, field: string | undefined): string {
  if (issue.keyword === 'required') return `${field} is required`;
  if (issue.keyword === 'type') return `${field} must be ${typeWords(issue.params?.type)}`;
  if (issue.keyword === 'finite') return `${field} must be a finite number`;
  if (issue.keyword === 'additionalProperties') return `${field} is not a known field`;
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) return `${field} must be one of: ${issue.params.allowedValues.join(', ')}`;
  return `${field ?? 'request'} ${issue.message ?? 'is invalid'}`;
}

/** PostgreSQL errors that can only come from what a client sent. */
export function clientDataError(err: unknown): string | null {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return null;
  if (code.startsWith('22')) return 'a value cannot be stored (invalid characters or out of range)';
  return null;
}

/** One error shape everywhere: `{error, field?}`. A 5xx is logged once, with the request id. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      if (err.status === 429) void reply.header('retry-after', String(err.extra?.retryAfter ?? 60));
      const body: Record<string, unknown> = { error: err.message, ...(err.field ? { field: err.field } : {}), ...(err.extra ?? {}) };
      return reply.status(err.status).send(body);
    }
    if (err.validation) {
      const issue = err.validation[0] as AjvIssue | undefined;
      const part = err.validationContext === 'querystring' || err.validationContext === 'params' || err.validationContext === 'headers' ? err.validationContext : 'body';
      const field = issue ? fieldOf(issue) : undefined;
      // A union of literals (hops: 1 | 2) fails once per literal: name them all.
      const consts = issue?.keyword === 'const'
        ? (err.validation as AjvIssue[]).filter((i) => i.keyword === 'const' && i.instancePath === issue.instancePath).map((i) => JSON.stringify(i.params?.allowedValue))
        : [];
      // A nullable field (string | null) fails once per type: name them all.
      const types = issue?.keyword === 'type'
        ? [...new Set((err.validation as AjvIssue[]).filter((i) => i.keyword === 'type' && i.instancePath === issue.instancePath).map((i) => typeWords(i.params?.type)))]
        : [];
      const message = consts.length > 1 ? `${field ?? part} must be one of: ${consts.join(', ')}`
        : types.length > 1 ? `${field ?? part} must be ${types.join(' or ')}`
          : issue ? describe(issue, field ?? part) : `${part} is invalid`;
      return reply.status(400).send({ error: message, ...(field ? { field } : {}) });
    }
    // Two requests that create the same thing at once: the loser's check saw nothing, the database refused.
    const taken = describeUniqueViolation(err);
    if (taken) return reply.status(409).send({ error: taken.message, ...(taken.field ? { field: taken.field } : {}) });
    const dataError = clientDataError(err);
    if (dataError) return reply.status(400).send({ error: dataError });
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'request body is too large' : err.message;
      return reply.status(status).send({ error: message });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.status(500).send({ error: 'internal error', requestId: req.id });
  });
}
