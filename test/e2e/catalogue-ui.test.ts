import { type Locator, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from '../support/browser.js';
import { snap, uiSuite } from '../support/ui-suite.js';

// Drives the catalogue pages of the built UI (dist/web, produced by `npm run build`)
// against a real server process in Debian's Chromium: imports through the UI (twice,
// then without one service), the kind chips, search and paging in the URL, and the
// +1/+2 walk on an entity page. Without a browser the test is skipped loudly rather
// than silently passing.

if (!hasChromium) console.warn('chromium not installed: catalogue UI test skipped');

const ownerEmail = 'owner@example.test';
const ownerPassword = 'correct-horse-battery-staple';

// A small shop: services calling each other, databases on instances, VMs on hosts, one
// external, one business process, and svc:legacy-reports, which the third import leaves
// out so that it (and its links) go stale.
const legacyLines = [
  '  - { key: "svc:legacy-reports", kind: service, name: legacy-reports, tier: standard, owner: ivan, team: data }',
  '  - { from: "svc:legacy-reports", to: "svc:reporting", via: calls }',
  '  - { from: "svc:legacy-reports", to: "db:payments-pg/ledger", via: calls }',
  '  - { from: "svc:legacy-reports", to: "vm:app-5", via: runs-on }',
];

const estate = `format: changeledger/catalogue/1
source: cmdb
entities:
  - { key: "svc:web-frontend", kind: service, name: web-frontend, tier: critical, owner: alice, team: shop, environment: production }
  - { key: "svc:checkout", kind: service, name: checkout, tier: critical, owner: alice, team: shop, environment: production }
  - { key: "svc:payments", kind: service, name: payments, tier: critical, owner: bob, team: payments, environment: production }
  - { key: "svc:payouts", kind: service, name: payouts, tier: important, owner: bob, team: payments }
  - { key: "svc:cart", kind: service, name: cart, tier: important, owner: carol, team: shop }
  - { key: "svc:inventory", kind: service, name: inventory, tier: important, owner: dave, team: supply }
  - { key: "svc:search", kind: service, name: search, tier: important, owner: erin, team: discovery }
  - { key: "svc:catalog", kind: service, name: catalog, tier: standard, owner: erin, team: discovery }
  - { key: "svc:auth", kind: service, name: auth, tier: critical, owner: frank, team: identity }
  - { key: "svc:notifications", kind: service, name: notifications, tier: standard, owner: grace, team: platform }
  - { key: "svc:shipping", kind: service, name: shipping, tier: important, owner: heidi, team: supply }
  - { key: "svc:reporting", kind: service, name: reporting, tier: standard, owner: ivan, team: data }
${legacyLines[0]!}
  - { key: "instance:orders-pg", kind: instance, name: orders-pg, engine: postgres }
  - { key: "instance:payments-pg", kind: instance, name: payments-pg, engine: postgres }
  - { key: "instance:inventory-pg", kind: instance, name: inventory-pg, engine: postgres }
  - { key: "instance:catalog-pg", kind: instance, name: catalog-pg, engine: postgres }
  - { key: "instance:auth-pg", kind: instance, name: auth-pg, engine: postgres }
  - { key: "db:orders-pg/orders", kind: database, name: orders, engine: postgres }
  - { key: "db:payments-pg/ledger", kind: database, name: ledger, engine: postgres }
  - { key: "db:inventory-pg/stock", kind: database, name: stock, engine: postgres }
  - { key: "db:catalog-pg/products", kind: database, name: products, engine: postgres }
  - { key: "db:auth-pg/users", kind: database, name: users, engine: postgres }
  - { key: "ds:cart-redis", kind: datastore, name: cart-redis, engine: redis }
  - { key: "vm:app-1", kind: vm, name: app-1 }
  - { key: "vm:app-2", kind: vm, name: app-2 }
  - { key: "vm:app-3", kind: vm, name: app-3 }
  - { key: "vm:app-4", kind: vm, name: app-4 }
  - { key: "vm:app-5", kind: vm, name: app-5 }
  - { key: "host:rack-1", kind: host, name: rack-1 }
  - { key: "host:rack-2", kind: host, name: rack-2 }
  - { key: "ext:stripe.com", kind: external, name: stripe.com }
  - { key: "bp:order-to-cash", kind: business-process, name: order to cash }
links:
  - { from: "svc:web-frontend", to: "svc:checkout", via: calls }
  - { from: "svc:web-frontend", to: "svc:search", via: calls }
  - { from: "svc:web-frontend", to: "svc:catalog", via: calls }
  - { from: "svc:web-frontend", to: "svc:auth", via: calls }
  - { from: "svc:checkout", to: "svc:payments", via: calls }
  - { from: "svc:checkout", to: "svc:cart", via: calls }
  - { from: "svc:checkout", to: "svc:inventory", via: calls }
  - { from: "svc:checkout", to: "db:orders-pg/orders", via: calls }
  - { from: "svc:payments", to: "ext:stripe.com", via: calls }
  - { from: "svc:payments", to: "db:payments-pg/ledger", via: calls }
  - { from: "svc:payouts", to: "svc:payments", via: calls }
  - { from: "svc:cart", to: "ds:cart-redis", via: calls }
  - { from: "svc:inventory", to: "db:inventory-pg/stock", via: calls }
  - { from: "svc:search", to: "svc:catalog", via: calls }
  - { from: "svc:catalog", to: "db:catalog-pg/products", via: calls }
  - { from: "svc:auth", to: "db:auth-pg/users", via: calls }
  - { from: "svc:notifications", to: "svc:auth", via: calls }
  - { from: "svc:shipping", to: "svc:inventory", via: calls }
  - { from: "svc:shipping", to: "db:orders-pg/orders", via: calls }
  - { from: "svc:reporting", to: "db:orders-pg/orders", via: calls }
  - { from: "svc:reporting", to: "db:payments-pg/ledger", via: calls }
${legacyLines.slice(1).join('\n')}
  - { from: "svc:web-frontend", to: "vm:app-1", via: runs-on }
  - { from: "svc:checkout", to: "vm:app-1", via: runs-on }
  - { from: "svc:cart", to: "vm:app-1", via: runs-on }
  - { from: "svc:payments", to: "vm:app-2", via: runs-on }
  - { from: "svc:payouts", to: "vm:app-2", via: runs-on }
  - { from: "svc:catalog", to: "vm:app-2", via: runs-on }
  - { from: "svc:inventory", to: "vm:app-3", via: runs-on }
  - { from: "svc:search", to: "vm:app-3", via: runs-on }
  - { from: "svc:shipping", to: "vm:app-3", via: runs-on }
  - { from: "svc:auth", to: "vm:app-4", via: runs-on }
  - { from: "svc:notifications", to: "vm:app-4", via: runs-on }
  - { from: "svc:reporting", to: "vm:app-5", via: runs-on }
  - { from: "vm:app-1", to: "host:rack-1", via: runs-on }
  - { from: "vm:app-2", to: "host:rack-1", via: runs-on }
  - { from: "vm:app-3", to: "host:rack-1", via: runs-on }
  - { from: "vm:app-4", to: "host:rack-2", via: runs-on }
  - { from: "vm:app-5", to: "host:rack-2", via: runs-on }
  - { from: "db:orders-pg/orders", to: "instance:orders-pg", via: runs-on }
  - { from: "db:payments-pg/ledger", to: "instance:payments-pg", via: runs-on }
  - { from: "db:inventory-pg/stock", to: "instance:inventory-pg", via: runs-on }
  - { from: "db:catalog-pg/products", to: "instance:catalog-pg", via: runs-on }
  - { from: "db:auth-pg/users", to: "instance:auth-pg", via: runs-on }
  - { from: "instance:orders-pg", to: "host:rack-2", via: runs-on }
  - { from: "instance:payments-pg", to: "host:rack-2", via: runs-on }
  - { from: "instance:inventory-pg", to: "host:rack-2", via: runs-on }
  - { from: "instance:catalog-pg", to: "host:rack-2", via: runs-on }
  - { from: "instance:auth-pg", to: "host:rack-2", via: runs-on }
  - { from: "bp:order-to-cash", to: "svc:checkout", via: member }
  - { from: "bp:order-to-cash", to: "svc:payments", via: member }
  - { from: "bp:order-to-cash", to: "svc:shipping", via: member }
`;

const withoutLegacy = estate
  .split('\n')
  .filter((line) => !legacyLines.includes(line))
  .join('\n');

const entityCount = estate.split('\n').filter((line) => line.startsWith('  - { key:')).length;
const linkCount = estate.split('\n').filter((line) => line.startsWith('  - { from:')).length;
const serviceCount = estate.split('\n').filter((line) => line.includes('kind: service')).length;


describe('catalogue web UI', () => {
  const suite = uiSuite({ name: 'catalogue-ui', owner: { email: ownerEmail, password: ownerPassword } });

  it.skipIf(!hasChromium)(
    'imports an estate through the UI, filters and pages it in the URL, and walks an entity’s neighbours',
    async () => {
      const { server, browser } = suite();
      expect(entityCount).toBeGreaterThanOrEqual(30);
      const { context, page, consoleErrors } = await openPage(browser);

      try {
        await signIn(page, server.url);
        await importTwice(page);
        await pageThrough(page);
        await refuseBrokenFile(page);
        await importWithoutLegacy(page);
        await filterServices(page);
        await servicePage(page);
        await databasePage(page);
      } finally {
        await context.close();
      }
      // Expected noise: the 401 of the first GET /api/session (not signed in yet) and the
      // 400 of the deliberately broken import.
      expect(consoleErrors.filter((text) => !/\b(400|401)\b/.test(text))).toEqual([]);
    },
    120_000,
  );
});

async function signIn(page: Page, baseUrl: string): Promise<void> {
  // A protected page first: the app must bounce to /signin and come back afterwards.
  await page.goto(new URL('/catalogue', baseUrl).toString());
  await page.waitForURL((url) => url.pathname === '/signin');
  expect(new URL(page.url()).searchParams.get('next')).toBe('/catalogue');

  await page.getByLabel('E-mail', { exact: true }).fill(ownerEmail);
  await page.getByLabel('Password', { exact: true }).fill(ownerPassword);
  await page.getByTestId('signin-submit').click();

  await page.waitForURL((url) => url.pathname === '/catalogue');
  await page.getByTestId('header-user').waitFor();
  expect(await page.getByTestId('nav-catalogue').getAttribute('aria-current')).toBe('page');
}

// The import summary's counts for entities or links, as shown.
async function counts(page: Page, part: 'entities' | 'links'): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const c of ['added', 'changed', 'unchanged', 'stale']) {
    out[c] = ((await page.getByTestId(`import-${part}-${c}`).textContent()) ?? '').trim();
  }
  return out;
}

// Submits the import card and waits for this answer's summary (not the previous one).
async function submitImport(page: Page): Promise<void> {
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/catalog/imports');
  await page.getByTestId('import-submit').click();
  expect((await answered).status()).toBe(200);
  await page.getByTestId('import-summary').waitFor();
}

function rows(page: Page): Locator {
  return page.getByTestId('catalogue-row');
}

async function waitForRange(page: Page, text: string): Promise<void> {
  await page.getByTestId('catalogue-range').filter({ hasText: text }).waitFor();
}

async function importTwice(page: Page): Promise<void> {
  // An empty catalogue says so and opens the import card by itself.
  await page.getByTestId('catalogue-empty').waitFor();
  const card = page.getByTestId('catalogue-import');
  await card.waitFor();

  await card.getByLabel('Format').selectOption('changeledger');
  await card.getByLabel('File', { exact: true }).setInputFiles({ name: 'estate.yaml', mimeType: 'application/yaml', buffer: Buffer.from(estate) });
  expect(await page.getByTestId('import-file-name').textContent()).toContain('estate.yaml');
  await submitImport(page);
  expect(await page.getByTestId('import-summary-source').textContent()).toBe('cmdb');
  expect(await counts(page, 'entities')).toEqual({ added: String(entityCount), changed: '0', unchanged: '0', stale: '0' });
  expect(await counts(page, 'links')).toEqual({ added: String(linkCount), changed: '0', unchanged: '0', stale: '0' });

  // The list reloads behind the card, with a chip per kind.
  await waitForRange(page, `1–${String(entityCount)} of ${String(entityCount)}`);
  expect(await rows(page).count()).toBe(entityCount);
  const serviceChip = page.locator('[data-testid="kind-chip"][data-kind="service"]');
  expect(await serviceChip.textContent()).toBe(`service${String(serviceCount)}`);

  // The same file again: nothing changes.
  await submitImport(page);
  await page.getByTestId('import-entities-unchanged').filter({ hasText: String(entityCount) }).waitFor();
  expect(await counts(page, 'entities')).toEqual({ added: '0', changed: '0', unchanged: String(entityCount), stale: '0' });
  expect(await counts(page, 'links')).toEqual({ added: '0', changed: '0', unchanged: String(linkCount), stale: '0' });
}

async function pageThrough(page: Page): Promise<void> {
  await page.getByLabel('Per page').selectOption('10');
  await page.waitForURL((url) => url.searchParams.get('limit') === '10');
  await waitForRange(page, `1–10 of ${String(entityCount)}`);
  expect(await rows(page).count()).toBe(10);
  const firstPage = await rows(page).first().getAttribute('data-key');

  await page.getByTestId('catalogue-next').click();
  await page.waitForURL((url) => url.searchParams.get('offset') === '10');
  await waitForRange(page, `11–20 of ${String(entityCount)}`);
  expect(await rows(page).first().getAttribute('data-key')).not.toBe(firstPage);
  expect(await page.getByTestId('catalogue-previous').isDisabled()).toBe(false);

  // An import makes a new snapshot: the second page of the old one is gone, and the
  // listing starts over at the first page, saying so.
  await submitImport(page);
  await page.getByTestId('catalogue-restarted').waitFor();
  expect(await page.getByTestId('catalogue-restarted').textContent()).toContain('The catalogue changed — back to the first page.');
  await page.waitForURL((url) => !url.searchParams.has('offset'));
  expect(new URL(page.url()).searchParams.get('limit')).toBe('10');
  await waitForRange(page, `1–10 of ${String(entityCount)}`);
  // The first page's rows replace the second page's once the new snapshot's page has loaded.
  await expect.poll(() => rows(page).first().getAttribute('data-key'), { timeout: 10_000 }).toBe(firstPage);
}

async function refuseBrokenFile(page: Page): Promise<void> {
  const card = page.getByTestId('catalogue-import');
  await card.getByRole('button', { name: 'Remove' }).click();
  await card.getByLabel('Or paste the file').fill('format: changeledger/catalogue/1\nentities:\n  - { key: "svc:x", kind: galaxy }\n');
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/catalog/imports');
  await page.getByTestId('import-submit').click();
  expect((await answered).status()).toBe(400);
  await page.getByTestId('import-error').waitFor();
  expect(await page.getByTestId('import-error-field').textContent()).toBe('entities.0.kind');
  expect(await page.getByTestId('import-summary').count()).toBe(0);
  expect(await card.getByLabel('Or paste the file').getAttribute('aria-invalid')).toBe('true');
}

async function importWithoutLegacy(page: Page): Promise<void> {
  const card = page.getByTestId('catalogue-import');
  await card.getByLabel('Or paste the file').fill(withoutLegacy);
  await submitImport(page);
  expect(await page.getByTestId('import-error').count()).toBe(0);
  expect(await counts(page, 'entities')).toEqual({ added: '0', changed: '0', unchanged: String(entityCount - 1), stale: '1' });
  expect(await counts(page, 'links')).toEqual({ added: '0', changed: '0', unchanged: String(linkCount - 3), stale: '3' });
  await page.getByTestId('import-close').click();
  await card.waitFor({ state: 'detached' });
}

async function filterServices(page: Page): Promise<void> {
  await page.locator('[data-testid="kind-chip"][data-kind="service"]').click();
  await page.waitForURL((url) => url.searchParams.get('kind') === 'service');
  await waitForRange(page, `1–10 of ${String(serviceCount)}`);
  for (const kind of await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-kind')))) {
    expect(kind).toBe('service');
  }
  expect(await page.locator('[data-testid="kind-chip"][data-kind="service"]').getAttribute('aria-pressed')).toBe('true');

  // The service the last import left out is kept, marked stale.
  const legacy = page.locator('[data-testid="catalogue-row"][data-key="svc:legacy-reports"]');
  expect(await legacy.getAttribute('data-stale')).toBe('true');
  expect(await legacy.getByTestId('stale-badge').count()).toBe(1);
  const checkout = page.locator('[data-testid="catalogue-row"][data-key="svc:checkout"]');
  expect(await checkout.getByTestId('tier-badge').textContent()).toBe('critical');
  expect(await checkout.getByTestId('catalogue-uses').getAttribute('data-hop1')).toBe('5');
  await snap(page, 'catalogue-list.png', { fullPage: true });

  const filtered = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === '/api/catalog/inventory' && url.searchParams.get('q') === 'pay';
  });
  await page.getByLabel('Search', { exact: true }).fill('pay');
  await page.getByLabel('Search', { exact: true }).press('Enter');
  await page.waitForURL((url) => url.searchParams.get('q') === 'pay');
  const url = new URL(page.url());
  expect(url.pathname).toBe('/catalogue');
  expect(url.searchParams.get('kind')).toBe('service');
  expect((await filtered).status()).toBe(200);
  await waitForRange(page, '1–2 of 2');
  expect(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-key')))).toEqual(['svc:payments', 'svc:payouts']);
}

function neighbours(page: Page, side: 'uses' | 'used-by', hop: 1 | 2): Locator {
  return page.getByTestId(`entity-${side}-hop${String(hop)}`).getByTestId('neighbour');
}

async function neighbourKeys(list: Locator): Promise<string[]> {
  return list.evaluateAll((items) => items.map((li) => `${li.getAttribute('data-key') ?? ''} ${li.getAttribute('data-via') ?? ''}`.trim()));
}

async function servicePage(page: Page): Promise<void> {
  await page.locator('[data-testid="catalogue-row"][data-key="svc:payments"]').getByTestId('catalogue-link').click();
  await page.waitForURL((url) => url.pathname === `/catalogue/${encodeURIComponent('svc:payments')}`);
  const header = page.getByTestId('entity-header');
  await header.waitFor();
  expect(await header.getAttribute('data-kind')).toBe('service');
  expect(await page.getByTestId('entity-key').textContent()).toBe('svc:payments');
  expect(await page.getByTestId('entity-tier').textContent()).toBe('critical');
  expect(await page.getByTestId('entity-owner').textContent()).toBe('bob');
  expect(await page.getByTestId('entity-team').textContent()).toBe('payments');
  expect(await page.getByTestId('entity-environment').textContent()).toBe('production');
  expect(await page.getByTestId('entity-name').textContent()).toBe('payments · on vm:app-2');

  expect(await neighbourKeys(neighbours(page, 'uses', 1))).toEqual([
    'db:payments-pg/ledger calls',
    'ext:stripe.com calls',
    'vm:app-2 runs-on',
  ]);
  // Through the ledger and the VM; the external is reached but not walked through.
  expect(await neighbourKeys(neighbours(page, 'uses', 2))).toEqual(['instance:payments-pg', 'host:rack-1']);
  expect(await neighbourKeys(neighbours(page, 'used-by', 1))).toEqual([
    'bp:order-to-cash member',
    'svc:checkout calls',
    'svc:payouts calls',
  ]);
  expect(await neighbourKeys(neighbours(page, 'used-by', 2))).toEqual(['svc:web-frontend']);
  const badges = await page.getByTestId('entity-uses-hop1').getByTestId('via-badge').allTextContents();
  expect(badges).toEqual(['calls', 'calls', 'runs-on']);
  expect(await page.getByTestId('entity-used-by-hop1').getByTestId('via-badge').first().textContent()).toBe('member');
  expect(await page.getByTestId('entity-truncated').count()).toBe(0);
  await snap(page, 'catalogue-entity.png', { fullPage: true });
}

async function databasePage(page: Page): Promise<void> {
  const ledger = 'db:payments-pg/ledger';
  await page.locator(`[data-testid="neighbour"][data-key="${ledger}"]`).getByTestId('neighbour-link').click();
  await page.waitForURL((url) => url.pathname === `/catalogue/${encodeURIComponent(ledger)}`);
  await page.locator(`[data-testid="entity-header"][data-key="${ledger}"]`).waitFor();
  expect(await page.getByTestId('entity-name').textContent()).toBe('ledger · on instance:payments-pg');
  expect(await page.getByTestId('entity-engine').textContent()).toBe('postgres');
  expect(await neighbourKeys(neighbours(page, 'used-by', 1))).toEqual(['svc:payments calls', 'svc:reporting calls']);

  // svc:legacy-reports' call is stale: it shows only when asked, marked.
  await page.getByLabel('Include stale call edges').check();
  await page.waitForURL((url) => url.searchParams.get('includeStale') === '1');
  const stale = page.locator('[data-testid="entity-used-by-hop1"] [data-testid="neighbour"][data-key="svc:legacy-reports"]');
  await stale.waitFor();
  expect(await stale.getByTestId('stale-badge').count()).toBe(1);
  expect(await neighbourKeys(neighbours(page, 'used-by', 1))).toEqual([
    'svc:legacy-reports calls',
    'svc:payments calls',
    'svc:reporting calls',
  ]);

  // One hop only: the second hop is not walked, and the choice rides along on links.
  await page.getByRole('radio', { name: '1 hop', exact: true }).check();
  await page.waitForURL((url) => url.searchParams.get('hops') === '1');
  await page.getByTestId('entity-used-by-hop2-off').waitFor();
  await page.locator('[data-testid="neighbour"][data-key="instance:payments-pg"]').getByTestId('neighbour-link').click();
  await page.waitForURL((url) => url.pathname === `/catalogue/${encodeURIComponent('instance:payments-pg')}`);
  const url = new URL(page.url());
  expect(url.searchParams.get('hops')).toBe('1');
  expect(url.searchParams.get('includeStale')).toBe('1');
  await page.locator('[data-testid="entity-header"][data-key="instance:payments-pg"]').waitFor();
  expect(await neighbourKeys(neighbours(page, 'used-by', 1))).toEqual([`${ledger} runs-on`]);
}
