import { describe, expect, it } from 'vitest';
import { fixtureJson, withValue } from '../../../test/fixtures/catalogue/fixtures.js';
import { fromJaegerDependencies, type JaegerResult } from './jaeger.js';

function ok(r: JaegerResult) {
  if (!r.ok) throw new Error(`${r.field}: ${r.error}`);
  return r;
}
const linksOf = (r: JaegerResult) => ok(r).estate.links.map((l) => `${l.from} -${l.via}-> ${l.to}`).sort();

describe('a Jaeger /api/dependencies answer', () => {
  const r = ok(fromJaegerDependencies(fixtureJson('jaeger-dependencies.json')));

  it('makes a service per name, including one that only calls itself', () => {
    expect(r.estate.entities.map((e) => `${e.kind} ${e.key} ${e.name}`).sort()).toEqual([
      'service svc:cart cart', 'service svc:checkout checkout', 'service svc:frontend frontend', 'service svc:ledger ledger', 'service svc:payments payments', 'service svc:redis redis',
    ]);
  });

  it('links parent to child with calls, skipping the self-call', () => {
    expect(linksOf(r)).toEqual([
      'svc:cart -calls-> svc:redis', 'svc:checkout -calls-> svc:cart', 'svc:checkout -calls-> svc:payments',
      'svc:frontend -calls-> svc:cart', 'svc:frontend -calls-> svc:checkout', 'svc:payments -calls-> svc:ledger',
    ]);
    expect(r.ignored).toBe(1);
  });
});

describe('Jaeger rules', () => {
  it('accepts the bare list, merges duplicate pairs and trims names', () => {
    const r = fromJaegerDependencies([
      { parent: 'frontend', child: 'checkout', callCount: 3 },
      { parent: ' frontend ', child: 'checkout', callCount: 9 },
      { parent: 'frontend', child: 'checkout' },
      { parent: 'checkout', child: 'frontend', callCount: 1 },
    ]);
    expect(linksOf(r)).toEqual(['svc:checkout -calls-> svc:frontend', 'svc:frontend -calls-> svc:checkout']);
    expect(ok(r).estate.entities).toHaveLength(2);
    expect(ok(r).ignored).toBe(0);
  });

  it('takes an empty answer as an empty graph', () => {
    expect(fromJaegerDependencies({ data: [], total: 0, limit: 0, offset: 0, errors: null })).toMatchObject({ ok: true, estate: { entities: [], links: [] }, ignored: 0 });
    expect(fromJaegerDependencies([])).toMatchObject({ ok: true, estate: { entities: [] } });
  });
});

describe('Jaeger validation', () => {
  const base = () => ({ data: [{ parent: 'frontend', child: 'checkout', callCount: 1 }, { parent: 'checkout', child: 'payments', callCount: 2 }], total: 0, limit: 0, offset: 0, errors: null });

  it('names the field of each problem', () => {
    const rows: Array<[string, unknown, string]> = [
      ['data', undefined, 'data'],
      ['data', null, 'data'],
      ['data', { parent: 'a', child: 'b' }, 'data'],
      ['data.1', 'checkout->payments', 'data.1'],
      ['data.1', ['checkout', 'payments'], 'data.1'],
      ['data.0.parent', undefined, 'data.0.parent'],
      ['data.0.parent', 7, 'data.0.parent'],
      ['data.1.child', '  ', 'data.1.child'],
      ['data.1.child', 'x'.repeat(301), 'data.1.child'],
      ['data.1.callCount', -1, 'data.1.callCount'],
      ['data.1.callCount', 1.5, 'data.1.callCount'],
      ['data.1.callCount', '12', 'data.1.callCount'],
    ];
    for (const [path, value, field] of rows) expect(fromJaegerDependencies(withValue(base(), path, value)), `${path} = ${JSON.stringify(value)}`).toMatchObject({ ok: false, field });
  });

  it('names the field in a bare list, and refuses what is neither', () => {
    expect(fromJaegerDependencies([{ parent: 'a', child: 'b' }, { parent: 'a' }])).toMatchObject({ ok: false, field: '1.child' });
    for (const doc of [null, 'frontend -> checkout', 42]) expect(fromJaegerDependencies(doc)).toMatchObject({ ok: false, field: 'data' });
  });

  it('refuses an error answer rather than importing it as an empty graph', () => {
    const answer = { data: null, total: 0, limit: 0, offset: 0, errors: [{ code: 500, msg: 'elasticsearch: index jaeger-dependencies-2025-05-14 not found' }] };
    expect(fromJaegerDependencies(answer)).toMatchObject({ ok: false, field: 'errors', error: expect.stringContaining('index jaeger-dependencies') });
  });
});
