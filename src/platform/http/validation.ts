import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema.js';

type Schema = Record<string, unknown>;
type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Factory = NonNullable<Compilers['buildValidator']>;
type SerializerFactory = NonNullable<Compilers['buildSerializer']>;
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
/**
 * One pool for the process: it keeps an Ajv instance for each set of shared schemas and options,
 * and Fastify asks for compilers once for every plugin context of both listeners. A new instance
 * compiles Ajv's meta-schema again, which took 1.2 s of the server's start (a CPU profile).
 */
const pool = AjvCompiler();

export const buildValidator: Factory = (externalSchemas) => {
  const external = externalSchemas as Parameters<typeof pool>[0];
  const body = pool(external, { customOptions: { ...COMMON, coerceTypes: false }, plugins: [finiteKeyword as never] });
  const text = pool(external, { customOptions: { ...COMMON, coerceTypes: 'array' }, plugins: [finiteKeyword as never] });
  // Compiled at a route's first request, not at start (see the note on buildSerializer).
  return (route) => {
    let compiled: FastifyValidationResult | undefined;
    const validate: FastifyValidationResult = (data: unknown) => {
      compiled ??= (route.httpPart === 'body' ? body : text)({ ...route, schema: withFiniteNumbers(route.schema) as Schema });
      const result = compiled(data);
      // Fastify reads a failure's reasons from the function it was given.
      validate.errors = compiled.errors ?? null;
      return result;
    };
    // Fastify calls it as it would Ajv's own function, and reads nothing else of it.
    return validate as never;
  };
};

/**
 * Fastify's own serializers (fast-json-stringify), each compiled at the first answer that needs it.
 * Compiling every route's request and response schemas up front took about 1.5 s of a 6 s start on
 * the embedded engine (measured with --cpu-prof), and most routes of a process never answer every
 * status they declare. A route's first answer of a kind pays a few milliseconds instead.
 */
export const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas as never, options as never);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => (serialize ??= compile(route as never))(data);
  };
};
