import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { testApp } from '../../../test/support/test-app.js';
import type { Listener } from './access.js';
import { schemaCompilers, type CompileCount } from './validation.js';

// The server compiles each schema at its first request. These tests compile all of them when the
// listeners get ready instead, so a schema that Ajv or fast-json-stringify refuses fails here, not
// at a user's first request of that route.
describeEachEngine('every schema of both listeners', (engine) => {
  it('compiles: every route validator and every response serializer, as Fastify would at ready()', async () => {
    const counts: Record<Listener, CompileCount> = { main: { validators: 0, serializers: 0 }, pipeline: { validators: 0, serializers: 0 } };
    const t = await testApp(engine.db(), { eagerSchemas: counts });
    try {
      await t.main.ready();
      await t.pipeline.ready();
    } finally {
      await t.close();
    }
    // Both listeners carry every route (the guards decide which answers), so both compile them all.
    // The UI's file routes are not registered here (no built UI); they carry no schemas.
    for (const l of ['main', 'pipeline'] as const) {
      expect(counts[l].validators, `${l}: validators`).toBeGreaterThan(200);
      expect(counts[l].serializers, `${l}: serializers`).toBeGreaterThan(800);
    }
  });
});

describe('the schema compilers', () => {
  const broken = { body: { type: 'object', properties: { name: { type: 'text' } } } };
  const server = (eager: boolean) => {
    const app = Fastify({ schemaController: { compilersFactory: schemaCompilers({ eager }) } });
    app.post('/broken', { schema: broken }, async () => ({ ok: true }));
    app.post('/fine', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } }, async () => ({ ok: true }));
    return app;
  };

  it('compiled up front, a schema that cannot compile stops the listener from getting ready, naming the route', async () => {
    const app = server(true);
    await expect(app.ready()).rejects.toThrow(/POST: \/broken/);
    await app.close();
  });

  it('compiled at first use, the same schema fails only its own route, and the others validate', async () => {
    const app = server(false);
    await app.ready();
    expect((await app.inject({ method: 'POST', url: '/fine', payload: { name: 'a' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/fine', payload: { name: 1 } })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/broken', payload: { name: 'a' } })).statusCode).toBe(500);
    await app.close();
  });

  it('hands a value\'s parent to Ajv either way, so a root value is converted in place', () => {
    for (const eager of [true, false]) {
      const compilers = schemaCompilers({ eager });
      const validate = compilers.buildValidator({}, {} as never)({ schema: { type: 'array', items: { type: 'integer' } }, method: 'GET', url: '/x', httpPart: 'querystring' }) as
        unknown as ((data: unknown, parent?: object) => boolean) & { schemaEnv?: unknown };
      // Fastify passes the parent only to a function that carries a schemaEnv.
      expect(Boolean(validate.schemaEnv), `eager: ${String(eager)}`).toBe(true);
      const request = { query: '7' as unknown };
      expect(validate(request.query, { parentData: request, parentDataProperty: 'query' })).toBe(true);
      expect(request.query, `eager: ${String(eager)}`).toEqual([7]);
    }
  });
});
