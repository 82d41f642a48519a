import { describe, expect, it } from 'vitest';
import { manualKey, matchComponents, matchContext, resolveName } from './matching.js';

const ctx = matchContext(
  [
    { kind: 'service', key: 'svc:checkout', name: 'checkout' },
    { kind: 'database', key: 'db:prod-primary/wallet', name: 'wallet' },
    { kind: 'database', key: 'db:prod-replica/wallet', name: 'wallet' },
    { kind: 'service', key: 'svc:payments', name: 'Payments' },
  ],
  [{ alias: 'pay-api', kind: 'service', key: 'svc:payments' }],
  [{ key: 'svc:legacy-billing', name: 'Legacy Billing' }],
);

describe('component matching', () => {
  it.each([
    ['exactly one case-insensitive name hit is exact', 'PAYMENTS', { key: 'svc:payments', match: 'exact' }],
    ['a key names itself', 'svc:checkout', { key: 'svc:checkout', match: 'key' }],
    ['a remembered alias comes next', 'Pay-API', { key: 'svc:payments', match: 'alias' }],
    ['then a manual service by name', 'legacy billing', { key: 'svc:legacy-billing', match: 'manual', seen: false }],
  ] as const)('%s', (_n, q, expected) => {
    expect(resolveName(ctx, q)).toMatchObject(expected);
  });
  it('leaves an ambiguous name unresolved with its candidates: the same database on a primary and its replica', () => {
    expect(resolveName(ctx, 'wallet')).toEqual({ query: 'wallet', candidates: [
      { kind: 'database', key: 'db:prod-primary/wallet', name: 'wallet' }, { kind: 'database', key: 'db:prod-replica/wallet', name: 'wallet' },
    ] });
  });
  it('offers at most 10 candidates', () => {
    const many = matchContext(Array.from({ length: 30 }, (_, i) => ({ kind: 'service', key: `svc:api-${i}`, name: `api-${i}` })), [], []);
    expect((resolveName(many, 'api') as { candidates: unknown[] }).candidates).toHaveLength(10);
  });
  it('takes {kind, key} as given, keeps unseen keys, resolves lines, and counts', () => {
    const r = matchComponents(ctx, { components: [{ kind: 'service', key: 'svc:never-seen' }, { query: 'checkout' }], lines: 'payments\nwallet\n\n svc:checkout ' });
    expect(r.resolved.map((x) => [x.key, x.match, x.seen])).toEqual([['svc:never-seen', 'key', false], ['svc:checkout', 'exact', true], ['svc:payments', 'exact', true]]);
    expect(r.match).toEqual({ matched: 3, unresolved: ['wallet'] });
  });
  it('makes manual service keys from names', () => {
    expect(manualKey('Payments API (EU)')).toBe('svc:payments-api-eu');
    expect(manualKey('!!!')).toBeNull();
  });
});

describe('a name shared by a service and its infrastructure', () => {
  it('resolves to the one service-like entity; two of them stay ambiguous', () => {
    const ctx = matchContext(
      [{ kind: 'service', key: 'svc:payments-api', name: 'payments-api' }, { kind: 'workload', key: 'workload:shop/Deployment/payments-api', name: 'payments-api' },
        { kind: 'database', key: 'db:a/wallet', name: 'wallet' }, { kind: 'database', key: 'db:b/wallet', name: 'wallet' }, { kind: 'pod', key: 'pod:x/wallet', name: 'wallet' }],
      [], [],
    );
    expect(resolveName(ctx, 'payments-api')).toMatchObject({ key: 'svc:payments-api', match: 'exact' });
    expect(resolveName(ctx, 'wallet')).toMatchObject({ query: 'wallet', candidates: expect.arrayContaining([expect.objectContaining({ key: 'db:a/wallet' })]) });
  });
});
