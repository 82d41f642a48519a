import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasChromium, launchChromium, openPage, signInAt } from '../support/browser.js';
import { shoot } from '../support/ui-suite.js';
import { webBundle } from '../support/deliveries-web.js';
import { describeEachEngine } from '../support/engines.js';
import { PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../support/test-app.js';

// The catalogue entity page in Debian's Chromium against the real app: the changes and the flag
// changes that touched the entity, "Register a change here", and a flag's owner linking to its
// service wherever the owner is shown.

if (!hasChromium) console.warn('chromium not installed: entity UI test skipped');

const artifactsDir = join(process.cwd(), 'test-artifacts');
const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: standard }
  - { key: "svc:payments-api", kind: service, name: payments-api, tier: critical }
  - { key: "svc:lonely", kind: service, name: lonely, tier: standard }
links:
  - { from: "svc:checkout-api", to: "svc:payments-api", via: calls }
`;
type Json = Record<string, unknown>;

let bundle: ReturnType<typeof webBundle> | undefined;
const web = () => (bundle ??= webBundle());
const entityPath = (key: string) => `/catalogue/${encodeURIComponent(key)}`;

describeEachEngine('the catalogue entity page: what touched it', (engine) => {
  let t: TestApp | undefined;
  let base = '';
  let browser: Browser | undefined;
  let owner: SignedIn;
  const suffix = engine.name;
  const ids: Record<string, string> = {};

  const inject = async (method: 'POST' | 'PUT', url: string, payload: Json) => {
    const r = await t!.main.inject({ method, url, headers: owner.headers, payload });
    expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
    return r.json() as Json;
  };

  beforeAll(async () => {
    if (!hasChromium) return;
    await mkdir(artifactsDir, { recursive: true });
    t = await testApp(engine.db(), { webDir: (await web()).dir });
    await t.main.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${String((t.main.server.address() as { port: number }).port)}`;
    const made = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Acme', email: `olivia.${suffix}@acme.dev`, password: PASSWORD });
    owner = await signIn(t, made.org, made.owner, PASSWORD);
    const imported = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imported.statusCode, imported.body).toBe(200);
    await inject('PUT', `/api/organizations/${made.org.id}/change-settings`, { approvalRequired: 'none' });
    // One change names payments-api; another names checkout-api, whose blast radius holds payments-api (its callee).
    for (const [title, key] of [['Rotate the payments key', 'svc:payments-api'], ['Deploy checkout 2.4', 'svc:checkout-api']] as const) {
      ids[title] = ((await inject('POST', '/api/changes', { title, components: [{ key }], startNow: true }))['change'] as { id: string }).id;
    }
    await inject('POST', '/api/flags', { key: 'payments.retry', type: 'boolean', risk: 'low', ownerService: 'payments-api', reason: 'introduce the flag' });
    await inject('PUT', '/api/flags/payments.retry/environments/production', { enabled: true, reason: 'retry declined cards' });
    await inject('POST', '/api/flags', { key: 'ghost.flag', type: 'boolean', risk: 'low', ownerService: 'ghost-svc', reason: 'introduce the flag' });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await t?.close();
  }, 60_000);

  it.skipIf(!hasChromium)('lists the changes naming the entity or holding it in their blast radius, and the flag changes of the flags it owns', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, entityPath('svc:payments-api'), owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      await page.getByTestId('entity-change').first().waitFor();
      expect((await page.getByTestId('entity-change').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-change-id')))).sort()).toEqual(
        [ids['Rotate the payments key'], ids['Deploy checkout 2.4']].sort(),
      );
      expect(await page.getByTestId('entity-changes-count').textContent()).toBe('2');
      await page.getByTestId('entity-flag-change').first().waitFor();
      expect(await page.getByTestId('entity-flag-change').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-flag')))).toEqual(['payments.retry', 'payments.retry']);
      expect(await page.getByTestId('entity-flag-changes').textContent()).toContain('retry declined cards');
      expect(await page.getByTestId('entity-flag-audit').getAttribute('href')).toBe('/flags/audit?service=svc%3Apayments-api');
      await shoot(page, `entity-activity-${suffix}.png`);

      await page.getByTestId('entity-change').filter({ hasText: 'Deploy checkout 2.4' }).getByTestId('home-change-title').click();
      await page.waitForURL((url) => url.pathname === `/changes/${ids['Deploy checkout 2.4']!}`);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!hasChromium)('"Register a change here" opens the new-change page with the entity as its component', async () => {
    const { page, context } = await openPage(browser!);
    try {
      await signInAt(page, base, entityPath('svc:lonely'), owner.user.email, PASSWORD);
      await page.getByTestId('entity-changes-empty').waitFor();
      expect(await page.getByTestId('entity-changes-empty').textContent()).toContain('No change has named it or held it in its blast radius yet');
      expect(await page.getByTestId('entity-flag-changes-empty').textContent()).toContain('No flag owned by this service has changed');
      await shoot(page, `entity-empty-${suffix}.png`);
      await page.getByTestId('entity-register-change').click();
      await page.waitForURL((url) => url.pathname === '/changes/new' && url.searchParams.get('component') === 'svc:lonely');
      expect(await page.locator('#change-components').inputValue()).toBe('svc:lonely');
      await page.getByLabel('Title', { exact: true }).fill('Restart lonely');
      await page.getByTestId('change-submit').click();
      await page.waitForURL((url) => /^\/changes\/chg_/.test(url.pathname));
      const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
      const stored = await t!.main.inject({ method: 'GET', url: `/api/changes/${id}`, headers: owner.headers });
      expect((stored.json() as { change: { components: Array<{ key: string }> } }).change.components.map((c) => c.key)).toEqual(['svc:lonely']);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!hasChromium)('a flag owned by payments-api links to svc:payments-api on the flag page and in the list; an owner the catalogue lacks stays text', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/flags/payments.retry', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      const owned = page.getByTestId('flag-owner');
      await page.locator('a[data-testid="flag-owner"]').waitFor();
      expect(await owned.textContent()).toBe('payments-api');
      expect(new URL(await owned.getAttribute('href') ?? '', base).pathname).toBe(entityPath('svc:payments-api'));
      await owned.click();
      await page.waitForURL((url) => url.pathname === entityPath('svc:payments-api'));
      await page.getByTestId('entity-header').waitFor();

      await page.goto(new URL('/flags', base).toString());
      const rows = page.getByTestId('flag-row');
      await page.locator('a[data-testid="flag-row-owner"]').waitFor();
      const row = (key: string) => rows.filter({ has: page.locator(`[data-testid="flag-link"]`, { hasText: key }) });
      expect(await row('payments.retry').locator('a[data-testid="flag-row-owner"]').getAttribute('data-entity')).toBe('svc:payments-api');
      expect(await row('ghost.flag').getByTestId('flag-row-owner').evaluate((el) => el.tagName)).toBe('SPAN');
      expect(await row('ghost.flag').getByTestId('flag-row-owner').textContent()).toBe('ghost-svc');
      await shoot(page, `flag-owner-links-${suffix}.png`);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
