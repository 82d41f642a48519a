import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

export const ErrorBody = Type.Object(
  { error: Type.String(), field: Type.Optional(Type.String()) },
  {
    $id: 'Error', additionalProperties: true,
    description: 'Every refusal: a sentence for a person and, for bad input, the field it is about. Some refusals add what a client needs to go on (the current status, candidates, counts).',
  },
);

/** Standard error answers for a route's `response` map. */
export function errors(...codes: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(codes.map((c) => [c, ErrorBody]));
}

/**
 * How changeledger signs in to a peer it calls (an Alertmanager, a Prometheus, a log store): none,
 * a bearer token, or basic auth. A secret left out on an update keeps the stored one.
 */
export const PeerAuthInput = Type.Union([
  Type.Object({ kind: Type.Literal('none') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('bearer'), token: Type.Optional(Type.String({ minLength: 1, maxLength: 4000, title: 'Token', description: 'Left out on an update: the stored token is kept' })) }, { additionalProperties: false }),
  Type.Object({
    kind: Type.Literal('basic'), username: Type.String({ minLength: 1, maxLength: 200, title: 'User name' }),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 4000, title: 'Password', description: 'Left out on an update: the stored password is kept' })),
  }, { additionalProperties: false }),
], { title: 'Auth' });

export const IsoTime = Type.String({ format: 'date-time', description: 'UTC, ISO-8601 with Z' });

/**
 * A POST sent without a body (a pipeline's `curl -X POST -H 'content-type: application/json' …/start`,
 * a button) is taken as an empty object, so the body schema's defaults apply instead of a 400.
 */
async function missingBodyIsEmpty(req: FastifyRequest): Promise<void> {
  if (req.method === 'POST' && (req.body === undefined || req.body === null)) req.body = {};
}

/**
 * One rule for every route: an empty or blank JSON body is no body (Fastify's own parser refuses it
 * with "Body cannot be empty"), and a POST without a body is `{}`.
 */
export function installEmptyBodyRule(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    void json(req, text, done);
  });
  app.addHook('preValidation', missingBodyIsEmpty);
}
