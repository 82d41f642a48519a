import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { readEvidenceSettings, withServiceOverrides } from './evidence-settings-store.js';
import { DEFAULT_RED_TEMPLATES } from './red-templates.js';
import { DEFAULT_THRESHOLDS } from './thresholds.js';

// A catalogue entity's attrs.prometheus reaches collection: another label value, or its own queries.
const ESTATE = `
format: changeledger/catalogue/1
entities:
  - { key: "svc:billing", kind: service, name: Billing, attrs: { prometheus: { label: "billing-api" } } }
  - { key: "svc:legacy", kind: service, name: Legacy, attrs: { prometheus: { rate: "sum(rate(legacy_hits[$range] $offset))", errorRatio: "sum(rate(legacy_errs[$range] $offset)) / sum(rate(legacy_hits[$range] $offset))", p95: "max(legacy_p95 $offset) or vector($range) * 0" } } }
  - { key: "svc:broken", kind: service, name: Broken, attrs: { prometheus: { rate: "no placeholders" } } }
  - { key: "svc:plain", kind: service, name: Plain }
`;

describeEachEngine('evidence settings store', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Overrides');
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('reads the documented defaults for an organisation that saved nothing', async () => {
    expect(await readEvidenceSettings(engine.db(), owner.org.id)).toEqual({ thresholds: DEFAULT_THRESHOLDS, redTemplates: DEFAULT_RED_TEMPLATES, aiEnabled: true });
  });

  it('adds the catalogue\'s per-service overrides of the blast radius\' services, keyed by lower-case key, and skips one that does not check', async () => {
    const services = ['svc:Billing', 'svc:legacy', 'svc:broken', 'svc:plain', 'svc:elsewhere'].map((key) => ({ key }));
    const t2 = await withServiceOverrides(engine.db(), owner.org.id, DEFAULT_RED_TEMPLATES, services);
    expect(t2.perService).toEqual({
      'svc:billing': { label: 'billing-api' },
      'svc:legacy': { queries: { rate: 'sum(rate(legacy_hits[$range] $offset))', errorRatio: expect.stringContaining('legacy_errs'), p95: expect.stringContaining('legacy_p95') } },
    });
    expect(t2.queries).toEqual(DEFAULT_RED_TEMPLATES.queries);
    // Services without overrides: the templates unchanged.
    expect(await withServiceOverrides(engine.db(), owner.org.id, DEFAULT_RED_TEMPLATES, [{ key: 'svc:plain' }])).toBe(DEFAULT_RED_TEMPLATES);
  });
});
