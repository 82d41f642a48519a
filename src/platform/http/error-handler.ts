import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, unavailableAnswer } from '../db/unavailable.js';
import { describeUniqueViolation } from '../db/unique-violation.js';
import { AppError, FieldError } from '../errors.js';
import { fieldSentence, schemaHas, schemaProblem, typeWords } from '../field-words.js';
import { sizeWords } from './guards.js';

type AjvIssue = { instancePath?: string; keyword?: string; message?: string; params?: Record<string, unknown> };
type Part = 'body' | 'querystring' | 'params' | 'headers';

/** The field an Ajv issue is about, as a dotted path (`scopes.2`, `name`). */
function fieldOf(issue: AjvIssue): string | undefined {
  const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const extra = issue.params?.missingProperty ?? issue.params?.additionalProperty;
  if (typeof extra === 'string') return path ? `${path}.${extra}` : extra;
  return path || undefined;
}

const PARTS: Part[] = ['body', 'querystring', 'params', 'headers'];

function schemaOf(req: FastifyRequest, part: Part): unknown {
  return (req.routeOptions.schema as Record<string, unknown> | undefined)?.[part];
}

function dataOf(req: FastifyRequest, part: Part): unknown {
  return part === 'body' ? req.body : part === 'querystring' ? req.query : part === 'params' ? req.params : req.headers;
}

/** The value at a dotted path of what was sent, to say which list item is meant. */
function valueAt(data: unknown, field: string): unknown {
  let at = data;
  for (const segment of field.split('.')) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[segment] : undefined;
  return at;
}

/** A hand-written check's field, worded with the labels of the request part that has it. */
function fieldErrorMessage(req: FastifyRequest, err: FieldError): string {
  const part = PARTS.find((p) => schemaHas(schemaOf(req, p), err.field!)) ?? 'body';
  return fieldSentence({ field: err.field!, problem: err.problem, value: err.value }, schemaOf(req, part));
}

/** A schema refusal: one sentence naming the field by its label, and the field. */
function schemaRefusal(req: FastifyRequest, err: FastifyError): { error: string; field?: string } {
  const all = (err.validation ?? []) as AjvIssue[];
  const issue = all[0];
  const part: Part = err.validationContext === 'querystring' || err.validationContext === 'params' || err.validationContext === 'headers' ? err.validationContext : 'body';
  if (!issue) return { error: `${part} is invalid` };
  const field = fieldOf(issue);
  // An unknown field has no label: it is named as sent.
  if (issue.keyword === 'additionalProperties') return { error: `${field} is not a known field`, ...(field ? { field } : {}) };
  const same = all.filter((i) => i.keyword === issue.keyword && i.instancePath === issue.instancePath);
  // A union of literals (hops: 1 | 2) fails once per literal; a nullable field (string | null) once per type: name them all.
  const consts = issue.keyword === 'const' ? same.map((i) => JSON.stringify(i.params?.allowedValue)) : [];
  const types = issue.keyword === 'type' ? [...new Set(same.map((i) => typeWords(i.params?.type)))] : [];
  const problem = consts.length > 1 ? `must be one of: ${consts.join(', ')}`
    : types.length > 1 ? `must be ${types.join(' or ')}`
      : schemaProblem(issue.keyword, issue.params, issue.message);
  if (!field) return { error: `${part === 'body' ? 'The request body' : `The ${part}`} ${problem}` };
  return { error: fieldSentence({ field, problem, value: valueAt(dataOf(req, part), field) }, schemaOf(req, part)), field };
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
      const message = err instanceof FieldError ? fieldErrorMessage(req, err) : err.message;
      const body: Record<string, unknown> = { error: message, ...(err.field ? { field: err.field } : {}), ...(err.extra ?? {}) };
      return reply.status(err.status).send(body);
    }
    if (err.validation) return reply.status(400).send(schemaRefusal(req, err));
    // Two requests that create the same thing at once: the loser's check saw nothing, the database refused.
    const taken = describeUniqueViolation(err);
    if (taken) return reply.status(409).send({ error: taken.message, ...(taken.field ? { field: taken.field } : {}) });
    const dataError = clientDataError(err);
    if (dataError) return reply.status(400).send({ error: dataError });
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // The limit is the route's own (alert intake takes 1 MiB) or the listener's.
      const message = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? `request body is over ${sizeWords(req.routeOptions.bodyLimit)}` : err.message;
      return reply.status(status).send({ error: message });
    }
    if (isDatabaseUnavailable(err)) {
      // Not the client's fault and nothing was written: it may send the same request again.
      req.log.warn({ err: (err as Error).message }, 'database unavailable');
      const answer = unavailableAnswer(err);
      return reply.status(503).header('retry-after', String(answer.retryAfter)).send({ error: answer.message, requestId: req.id });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.status(500).send({ error: 'internal error', requestId: req.id });
  });
}
