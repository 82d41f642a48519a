import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

type Schema = Record<string, unknown>;
type Factory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator'];
type Keywords = { addKeyword(def: object): unknown };

// strictNumbers off: the `finite` keyword below refuses ±Infinity with its own words, in a body and a query alike.
const COMMON = { removeAdditional: false, useDefaults: true, allErrors: false, strictNumbers: false } as const;
/** Keywords whose value is data, not a schema. */
const DATA = new Set(['const', 'default', 'enum', 'examples', 'required', 'description', 'title', 'pattern', 'format', '$id', '$ref']);
/** Keywords whose value maps names to schemas. */
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** A copy of the schema with every number marked finite: Ajv's type, minimum and maximum checks all let ±Infinity through. */
export function withFiniteNumbers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withFiniteNumbers);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (DATA.has(k)) out[k] = v;
    else if (MAPS.has(k) && v && typeof v === 'object') out[k] = Object.fromEntries(Object.entries(v as Schema).map(([name, s]) => [name, withFiniteNumbers(s)]));
    else out[k] = withFiniteNumbers(v);
  }
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (types.includes('integer') || types.includes('number')) out.finite = true;
  return out;
}

// No `type: 'number'` here: Ajv skips number keywords for a non-finite value, which is the case to catch.
function finiteKeyword(ajv: Keywords): void {
  ajv.addKeyword({ keyword: 'finite', schemaType: 'boolean', errors: false, validate: (_on: boolean, data: unknown) => typeof data !== 'number' || Number.isFinite(data) });
}

/**
 * Two Ajv instances, so what a request may carry is decided in one place for every route:
 * - a JSON body is taken as sent: `{"key": true}` is not the string "true", `null` is not `false`;
 * - a query string, a path or a header is text, so only there is it converted to the declared type;
 * - everywhere a number must be finite: `1e400` or `Infinity` is a 400, never ±Infinity in SQL.
 */
export const buildValidator: Factory = (externalSchemas) => {
  const pool = AjvCompiler();
  const external = externalSchemas as Parameters<typeof pool>[0];
  const body = pool(external, { customOptions: { ...COMMON, coerceTypes: false }, plugins: [finiteKeyword as never] });
  const text = pool(external, { customOptions: { ...COMMON, coerceTypes: 'array' }, plugins: [finiteKeyword as never] });
  return (route) => {
    const schema = withFiniteNumbers(route.schema) as Schema;
    return route.httpPart === 'body' ? body({ ...route, schema }) : text({ ...route, schema });
  };
};
