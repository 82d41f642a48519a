import type { FastifyRequest } from 'fastify';
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

export const IsoTime = Type.String({ format: 'date-time', description: 'UTC, ISO-8601 with Z' });

/**
 * A preValidation hook: a POST sent without a body (a pipeline's `curl -X POST …/start`, a
 * button) is taken as an empty object, so the body schema's defaults apply instead of a 400.
 */
export async function missingBodyIsEmpty(req: FastifyRequest): Promise<void> {
  if (req.method === 'POST' && (req.body === undefined || req.body === null)) req.body = {};
}
