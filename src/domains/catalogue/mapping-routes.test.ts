import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { listAuditEvents } from '../ledger/index.js';

const ESTATE = `
entities:
  - { key: "svc:checkout", kind: service, name: checkout }
  - { key: "svc:payments", kind: service, name: payments }
  - { key: "db:prod-primary/wallet", kind: database, name: wallet }
  - { key: "db:prod-replica/wallet", kind: database, name: wallet }
`;

describeEachEngine('component matching, aliases and manual services', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let member: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Mappings');
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `m${Math.random().toString(36).slice(2, 7)}@x.test`, role: 'member', password: PASSWORD });
    member = await signIn(t, owner.org, user, PASSWORD);
    await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=discovery', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
  });
  afterAll(async () => t.close());
  const match = (body: Record<string, unknown>, s: SignedIn = owner) => t.main.inject({ method: 'POST', url: '/api/catalog/match', headers: s.headers, payload: body });
  const org = () => `/api/organizations/${owner.org.id}`;

  it('resolves exact names and keys, and leaves an ambiguous name with its candidates', async () => {
    const r = (await match({ components: [{ query: 'CHECKOUT' }, { kind: 'service', key: 'svc:unseen' }], lines: 'wallet\npayments' })).json();
    expect(r.resolved.map((x: { key: string; match: string; seen: boolean }) => [x.key, x.match, x.seen])).toEqual([['svc:checkout', 'exact', true], ['svc:unseen', 'key', false], ['svc:payments', 'exact', true]]);
    expect(r.unresolved).toEqual([{ query: 'wallet', candidates: [{ kind: 'database', key: 'db:prod-primary/wallet', name: 'wallet' }, { kind: 'database', key: 'db:prod-replica/wallet', name: 'wallet' }] }]);
  });

  it('remembers a name as an alias (owners and admins), audited, and matches by it', async () => {
    const denied = await t.main.inject({ method: 'PUT', url: `${org()}/component-aliases/main-wallet`, headers: member.headers, payload: { kind: 'database', key: 'db:prod-primary/wallet' } });
    expect(denied.statusCode).toBe(403);
    const set = await t.main.inject({ method: 'PUT', url: `${org()}/component-aliases/Main-Wallet`, headers: owner.headers, payload: { kind: 'database', key: 'db:prod-primary/wallet' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ alias: 'main-wallet', key: 'db:prod-primary/wallet', createdBy: owner.user.email });
    expect((await match({ lines: 'main-wallet' })).json().resolved[0]).toMatchObject({ key: 'db:prod-primary/wallet', match: 'alias' });
    expect((await t.main.inject({ url: `${org()}/component-aliases`, headers: member.headers })).json().items).toHaveLength(1);
    expect((await listAuditEvents(engine.db(), owner.org.id, { action: 'component_alias.' }, 5)).items[0]).toMatchObject({ action: 'component_alias.set', data: { to: { key: 'db:prod-primary/wallet' } } });
    expect((await t.main.inject({ method: 'DELETE', url: `${org()}/component-aliases/main-wallet`, headers: owner.headers })).statusCode).toBe(200);
    expect((await match({ lines: 'main-wallet' })).json().unresolved).toHaveLength(1);
  });

  it('a manual service is in the catalogue at once, matches by name, and is merged when discovery reports its key', async () => {
    const created = await t.main.inject({ method: 'POST', url: `${org()}/manual-services`, headers: owner.headers, payload: { name: 'Legacy Billing' } });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ key: 'svc:legacy-billing', merged: false });
    expect((await t.main.inject({ method: 'POST', url: `${org()}/manual-services`, headers: owner.headers, payload: { name: 'legacy billing' } })).statusCode).toBe(409);
    expect((await match({ lines: 'legacy billing' })).json().resolved[0]).toMatchObject({ key: 'svc:legacy-billing', match: 'exact' });
    const inv = await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('svc:legacy-billing')}`, headers: owner.headers });
    expect(inv.statusCode).toBe(200);
    const discovered = ESTATE + '  - { key: "svc:legacy-billing", kind: service, name: legacy-billing, tier: standard }\n';
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=discovery', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: discovered });
    expect(imp.json()).toMatchObject({ entities: { changed: 1, unchanged: 4 } });
    const list = (await t.main.inject({ url: `${org()}/manual-services`, headers: owner.headers })).json().items;
    expect(list).toEqual([expect.objectContaining({ key: 'svc:legacy-billing', merged: true })]);
    // Discovery owns it now: when discovery stops reporting it, it goes stale like any other.
    await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=discovery', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    t.clock.advance(61_000);
    expect((await t.main.inject({ url: `/api/catalog/inventory/${encodeURIComponent('svc:legacy-billing')}`, headers: owner.headers })).json().entity.stale).toBe(true);
  });

  it('keeps another organisation out, and tokens cannot change mappings', async () => {
    const other = await signedInOwner(t, 'Other');
    expect((await t.main.inject({ url: `${org()}/component-aliases`, headers: other.headers })).statusCode).toBe(404);
    const tok = await createToken(t, owner, ['catalogue:read', 'catalogue:write']);
    // The pipeline listener does not serve the session-only writes at all.
    const res = await t.pipeline.inject({ method: 'POST', url: `${org()}/manual-services`, headers: { authorization: `Bearer ${tok.secret}` }, payload: { name: 'x' } });
    expect(res.statusCode).toBe(404);
    expect((await t.pipeline.inject({ method: 'POST', url: '/api/catalog/match', headers: { authorization: `Bearer ${tok.secret}` }, payload: { lines: 'checkout' } })).json().resolved[0].key).toBe('svc:checkout');
  });
});
