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

/** Ajv's compiled function as Fastify calls it: with the value's parent when it carries a schemaEnv. */
type AjvValidate = FastifyValidationResult & ((data: unknown, parent?: object) => ReturnType<FastifyValidationResult>) & { schemaEnv?: unknown };

/** How many schemas a set of compilers has compiled: what a check of every route counts. */
export type CompileCount = { validators: number; serializers: number };

/**
 * The validator and serializer factories Fastify is given. By default each schema compiles at the
 * first request that needs it (see the note on the serializers below). `eager` compiles every one
 * when the listener gets ready, as Fastify's own compilers do: a schema Ajv or
 * fast-json-stringify refuses then stops `ready()` instead of answering 500 at its first request.
 * The tests build both listeners that way, so no route ships a schema that cannot compile.
 */
export function schemaCompilers(o: { eager?: boolean; count?: CompileCount } = {}): { buildValidator: Factory; buildSerializer: SerializerFactory } {
  const counted = <F>(f: F, kind: keyof CompileCount): F => {
    if (o.count) o.count[kind] += 1;
    return f;
  };
  const buildValidator: Factory = (externalSchemas) => {
    const external = externalSchemas as Parameters<typeof pool>[0];
    const body = pool(external, { customOptions: { ...COMMON, coerceTypes: false }, plugins: [finiteKeyword as never] });
    const text = pool(external, { customOptions: { ...COMMON, coerceTypes: 'array' }, plugins: [finiteKeyword as never] });
    return (route) => {
      const compile = () => counted((route.httpPart === 'body' ? body : text)({ ...route, schema: withFiniteNumbers(route.schema) as Schema }), 'validators');
      if (o.eager) return compile();
      let compiled: AjvValidate | undefined;
      const validate = ((data: unknown, parent?: object) => {
        compiled ??= compile() as AjvValidate;
        // Ajv's own function takes the value's parent, which it needs to replace a root value (a
        // coerced or defaulted one); Fastify hands it over when the function has a schemaEnv.
        const result = compiled(data, parent);
        // Fastify reads a failure's reasons from the function it was given.
        validate.errors = compiled.errors ?? null;
        return result;
      }) as AjvValidate;
      validate.schemaEnv = true;
      return validate as never;
    };
  };
  /**
   * Fastify's own serializers (fast-json-stringify). Compiling every route's request and response
   * schemas up front took about 1.5 s of a 6 s start on the embedded engine (measured with
   * --cpu-prof), and most routes of a process never answer every status they declare, so by
   * default a route's first answer of a kind pays a few milliseconds instead.
   */
  const buildSerializer: SerializerFactory = (externalSchemas, options) => {
    const compileWith = SerializerSelector()(externalSchemas as never, options as never);
    return (route) => {
      const compile = () => counted(compileWith(route as never) as (data: unknown) => string, 'serializers');
      if (o.eager) return compile();
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => (serialize ??= compile())(data);
    };
  };
  return { buildValidator, buildSerializer };
}
