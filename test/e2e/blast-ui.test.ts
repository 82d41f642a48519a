import { type Locator, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fixtureJson, fixtureText } from '../fixtures/catalogue/fixtures.js';
import { hasChromium, openPage, pressLandsOn } from '../support/browser.js';
import { snap, uiSuite } from '../support/ui-suite.js';

// Drives the blast radius preview of the built UI (dist/web, produced by `npm run build`)
// against a real server process in Debian's Chromium: the payments estate of
// test/fixtures/catalogue/blast-estate.yaml plus a few traces, payments-api as the
// component, two hops. The scope line, criticality, the dependency map's layers (bridged
// runs-on links, remembered across a reload), hops and direction, candidates for a name
// that is not one thing, and the contracts card.

if (!hasChromium) console.warn('chromium not installed: blast radius UI test skipped');

const ownerEmail = 'owner@example.test';
const ownerPassword = 'correct-horse-battery-staple';

const scopeLine = 'Silence scope: 10 services · 2 databases · 1 schema · +18 infrastructure (13 held, 5 shared)';
const scopeBreakdown = '4 workloads · 9 pods · 2 Kubernetes nodes · 5 VMs · 2 hosts · 1 monitoring source';
// 13 services, databases and schemas; 27 cards of infrastructure (pods included).
const allCards = 40;
const defaultCards = 13;
// k8s-worker-1 to 3, fraud-1, batch-1, refunds-1 (hr-1 is outside the change).
const vmCards = 6;

type Span = { startTimeUnixNano: string; endTimeUnixNano: string };
type Traces = { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };

// The traces were recorded in May 2025; routes count for a contract when seen in the last
// 7 days, so the spans move to an hour ago, keeping their spacing.
function recentTraces(): string {
  const doc = fixtureJson('blast-traces.json') as Traces;
  const spans = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  const first = spans.reduce((min, s) => (BigInt(s.startTimeUnixNano) < min ? BigInt(s.startTimeUnixNano) : min), BigInt(spans[0]!.startTimeUnixNano));
  const shift = (BigInt(Date.now()) - 3_600_000n) * 1_000_000n - first;
  for (const s of spans) {
    s.startTimeUnixNano = String(BigInt(s.startTimeUnixNano) + shift);
    s.endTimeUnixNano = String(BigInt(s.endTimeUnixNano) + shift);
  }
  return JSON.stringify(doc);
}


// A hub apart from the payments estate: 310 callers, and a VM under it.
const hubCallers = 310;
function hubEstate(): string {
  const callers = Array.from({ length: hubCallers }, (_, i) => `  - { key: "svc:edge-caller-${String(i)}", kind: service, name: edge-caller-${String(i)}, tier: standard }`);
  const calls = Array.from({ length: hubCallers }, (_, i) => `  - { from: "svc:edge-caller-${String(i)}", to: "svc:ingest-hub", via: calls }`);
  return [
    'source: hubs', 'entities:', '  - { key: "svc:ingest-hub", kind: service, name: ingest-hub, tier: important }', '  - { key: "vm:ingest-1", kind: vm, name: ingest-1 }', ...callers,
    'links:', '  - { from: "svc:ingest-hub", to: "vm:ingest-1", via: runs-on }', ...calls, '',
  ].join('\n');
}

// The estate goes in through the API (the catalogue test covers importing through the UI).
async function importEstate(baseUrl: string): Promise<void> {
  const signIn = await fetch(new URL('/api/session', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ownerEmail, password: ownerPassword }),
  });
  expect(signIn.status).toBe(200);
  const { csrfToken } = (await signIn.json()) as { csrfToken: string };
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  for (const [format, source, body] of [
    ['changeledger', 'cmdb', fixtureText('blast-estate.yaml')],
    ['otlp', 'traces', recentTraces()],
    ['changeledger', 'hubs', hubEstate()],
  ] as const) {
    const answer = await fetch(new URL(`/api/catalog/imports?format=${format}&source=${source}`, baseUrl), {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/yaml' },
      body,
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    if (format === 'otlp') expect(((await answer.json()) as { routes: number }).routes).toBeGreaterThan(0);
  }
}

describe('blast radius preview web UI', () => {
  const suite = uiSuite({ name: 'blast-ui', owner: { email: ownerEmail, password: ownerPassword }, ready: (server) => importEstate(server.url) });

  it.skipIf(!hasChromium)(
    'previews what a change of payments-api would silence, draws its dependency map by layers and lists its contracts',
    async () => {
      const { server, browser } = suite();
      const { context, page, consoleErrors } = await openPage(browser);

      try {
        await signIn(page, server.url);
        await previewPaymentsApi(page);
        await defaultLayers(page);
        await allLayers(page);
        await bridgeHiddenVms(page);
        await layersSurviveReload(page);
        await hopsAndDirection(page);
        await contracts(page);
        await silenceModes(page);
        await candidates(page);
        await refusedHub(page);
      } finally {
        await context.close();
      }
      // Expected noise: the 401 of the first GET /api/session (not signed in yet).
      expect(consoleErrors.filter((text) => !/\b401\b/.test(text))).toEqual([]);
    },
    120_000,
  );
});

async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(new URL('/changes/preview', baseUrl).toString());
  await page.waitForURL((url) => url.pathname === '/signin');
  await page.getByLabel('E-mail', { exact: true }).fill(ownerEmail);
  await page.getByLabel('Password', { exact: true }).fill(ownerPassword);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL((url) => url.pathname === '/changes/preview');
  await page.getByRole('heading', { name: 'Blast radius preview' }).waitFor();
  expect(await page.getByTestId('nav-blast-preview').getAttribute('aria-current')).toBe('page');
}

function map(page: Page): Locator {
  return page.getByTestId('dependency-map');
}

function card(page: Page, key: string): Locator {
  return page.locator(`[data-testid="map-card"][data-key="${key}"]`);
}

function edges(page: Page, from: string, to: string): Locator {
  return page.locator(`[data-testid="map-edge"][data-from="${from}"][data-to="${to}"]`);
}

// The map has laid out what its controls ask for.
async function settled(page: Page): Promise<void> {
  await page.locator('[data-testid="dependency-map"][aria-busy="false"]').waitFor();
}

async function cardCount(page: Page): Promise<number> {
  await settled(page);
  return page.getByTestId('map-card').count();
}

function layerChip(page: Page, layer: string): Locator {
  return page.locator(`[data-testid="map-layer"][data-layer="${layer}"]`);
}

async function typeComponents(page: Page, text: string): Promise<void> {
  await page.getByLabel('Components', { exact: true }).fill(text);
}

async function previewPaymentsApi(page: Page): Promise<void> {
  await page.getByText('Name the components to see what the change would silence.').waitFor();
  await typeComponents(page, 'payments-api');
  await page.getByRole('radio', { name: '2 hops', exact: true }).check();
  const line = page.getByTestId('scope-line');
  await line.filter({ hasText: scopeLine }).waitFor();
  expect(await line.textContent()).toBe(scopeLine);
  expect(await line.getAttribute('title')).toBe(scopeBreakdown);
  expect(await page.getByTestId('criticality-line').textContent()).toBe('Criticality: critical (payments-api)');
  expect(await page.getByTestId('resolved').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual(['svc:payments-api']);
  expect(await page.getByTestId('blast-refused').count()).toBe(0);
  expect(await page.getByTestId('blast-large').count()).toBe(0);
  // What stays loud: shared hardware, the external, a source of several services, a monitor.
  expect(await page.getByTestId('not-silenced-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual([
    'shared-infra',
    'external',
    'multi-service-source',
    'monitors',
  ]);
  expect(await page.getByTestId('not-silenced-item').first().textContent()).toContain(
    'Shared infrastructure — 1 Kubernetes node, 1 VM, 1 host, 1 datastore, 1 device',
  );
}

async function defaultLayers(page: Page): Promise<void> {
  await map(page).waitFor();
  const pressed = await page.getByTestId('map-layer').evaluateAll((els) =>
    els.filter((e) => e.getAttribute('aria-pressed') === 'true').map((e) => e.getAttribute('data-layer')),
  );
  expect(pressed).toEqual(['services', 'databases', 'schemas']);
  expect(await cardCount(page)).toBe(defaultCards);
  expect(await page.locator('[data-testid="map-card"][data-role="infra"]').count()).toBe(0);

  const component = card(page, 'svc:payments-api');
  expect(await component.getAttribute('data-component')).toBe('true');
  expect(await component.getAttribute('aria-label')).toBe('service payments-api, component, silenced');
  // Callers drawn left of the component, callees right of it.
  const x = async (key: string): Promise<number> => (await card(page, key).boundingBox())!.x;
  expect(await x('svc:checkout')).toBeLessThan(await x('svc:payments-api'));
  expect(await x('svc:web-frontend')).toBeLessThan(await x('svc:checkout'));
  expect(await x('svc:ledger-writer')).toBeGreaterThan(await x('svc:payments-api'));
  expect(await x('svc:risk-model')).toBeGreaterThan(await x('svc:fraud-check'));

  // Same-named databases on a primary and a replica: each card names its instance.
  expect(await card(page, 'db:prod-pg-1/ledger').getByTestId('map-card-name').textContent()).toBe('ledger · on Prod (10.4.16.71)');
  expect(await card(page, 'db:prod-pg-2/ledger').getByTestId('map-card-name').textContent()).toBe('ledger · on Replica (10.4.16.72)');
  expect(await edges(page, 'svc:checkout', 'svc:payments-api').getAttribute('data-via')).toBe('calls');
  expect(await edges(page, 'schema:prod-pg-1/ledger/audit', 'db:prod-pg-1/ledger').getAttribute('data-via')).toBe('runs-on');
  await page.getByTestId('map-fit').click();
  await snap(map(page), 'blast-map-default-layers.png');
}

async function allLayers(page: Page): Promise<void> {
  for (const layer of ['workloads', 'nodes', 'vms', 'hosts', 'datastores', 'devices']) {
    await layerChip(page, layer).click();
    expect(await layerChip(page, layer).getAttribute('aria-pressed')).toBe('true');
  }
  expect(await cardCount(page)).toBe(allCards);
  expect(allCards).toBeGreaterThanOrEqual(30);
  expect(await page.getByTestId('map-count').textContent()).toContain(`${String(allCards)} of ${String(allCards)} cards drawn`);

  // Silenced: tinted. Shared: plain, with a badge.
  const tint = async (key: string): Promise<string> =>
    card(page, key).evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor ?? '');
  const dedicatedHost = card(page, 'host:esx-02');
  expect(await dedicatedHost.getAttribute('data-silenced')).toBe('true');
  expect(await dedicatedHost.getByTestId('shared-badge').count()).toBe(0);
  expect(await tint('host:esx-02')).toBe('rgb(234, 241, 254)');
  const sharedHost = card(page, 'host:esx-01');
  expect(await sharedHost.getAttribute('data-silenced')).toBe('false');
  expect(await sharedHost.getAttribute('data-shared')).toBe('true');
  expect(await sharedHost.getByTestId('shared-badge').textContent()).toBe('shared');
  expect(await tint('host:esx-01')).toBe('rgb(255, 255, 255)');
  expect(await card(page, 'node:k8s-node-2').getByTestId('shared-badge').count()).toBe(1);

  // The runs-on chain: pods under their service, a VM on its host.
  expect(await edges(page, 'svc:payments-api', 'pod:pay/payments-api-7d9f6-abcde').getAttribute('data-bridged')).toBe('false');
  expect(await edges(page, 'vm:batch-1', 'host:esx-01').getAttribute('data-via')).toBe('runs-on');
  // The database's instance is named on its card, not drawn: its host hangs from the database.
  const dbHost = edges(page, 'db:prod-pg-1/ledger', 'host:db-01');
  expect(await dbHost.getAttribute('data-through')).toBe('instance:prod-pg-1');
  // Infrastructure below the services.
  const y = async (key: string): Promise<number> => (await card(page, key).boundingBox())!.y;
  expect(await y('host:esx-01')).toBeGreaterThan(await y('svc:web-frontend'));

  // The whole map on a large screen, then the page as a laptop shows it.
  await page.setViewportSize({ width: 2400, height: 1400 });
  await page.getByTestId('map-fit').click();
  await snap(map(page), 'blast-map-all-layers.png');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('map-zoom').click();
  expect(await page.getByTestId('map-zoom').textContent()).toBe('100%');
  await page.evaluate('window.scrollTo(0, 0)');
  await snap(page, 'blast-preview.png', { fullPage: true });
}

async function bridgeHiddenVms(page: Page): Promise<void> {
  await layerChip(page, 'vms').click();
  expect(await cardCount(page)).toBe(allCards - vmCards);
  expect(await page.locator('[data-testid="map-card"][data-kind="vm"]').count()).toBe(0);
  // payouts runs on vm:batch-1, which runs on esx-01: with VMs hidden it links to the host.
  const bridged = edges(page, 'svc:payouts', 'host:esx-01');
  expect(await bridged.getAttribute('data-via')).toBe('runs-on');
  expect(await bridged.getAttribute('data-bridged')).toBe('true');
  expect(await bridged.getAttribute('data-through')).toBe('vm:batch-1');
  expect(await edges(page, 'node:k8s-node-3', 'host:esx-02').getAttribute('data-through')).toBe('vm:k8s-worker-3');
  expect(await edges(page, 'svc:payouts', 'vm:batch-1').count()).toBe(0);
}

async function layersSurviveReload(page: Page): Promise<void> {
  await page.reload();
  await typeComponents(page, 'payments-api');
  await page.getByRole('radio', { name: '2 hops', exact: true }).check();
  await page.getByTestId('scope-line').filter({ hasText: scopeLine }).waitFor();
  await map(page).waitFor();
  const pressed = await page.getByTestId('map-layer').evaluateAll((els) =>
    els.filter((e) => e.getAttribute('aria-pressed') === 'true').map((e) => e.getAttribute('data-layer')),
  );
  expect(pressed).toEqual(['services', 'databases', 'schemas', 'workloads', 'nodes', 'hosts', 'datastores', 'devices']);
  expect(await cardCount(page)).toBe(allCards - vmCards);
}

async function hopsAndDirection(page: Page): Promise<void> {
  // From the bottom of the page and from the top, a press on each segment of the map's
  // controls lands on that control: neither its label nor the sticky top bar takes it.
  for (const scrollTo of ['bottom', 'top'] as const) {
    await page.evaluate(scrollTo === 'top' ? 'window.scrollTo(0, 0)' : 'window.scrollTo(0, document.body.scrollHeight)');
    for (const name of ['+0', '+1', '+2', 'Callers', 'Callees', 'Both']) {
      expect(await pressLandsOn(page.getByRole('radio', { name, exact: true })), `${name}, scrolled from the ${scrollTo}`).toBe('control');
    }
  }
  // +0: the component and what it runs on.
  await page.getByRole('radio', { name: '+0', exact: true }).check();
  await settled(page);
  const roles = async (): Promise<string[]> =>
    [...new Set(await page.getByTestId('map-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-role') ?? '')))].sort();
  expect(await roles()).toEqual(['component', 'infra']);
  expect(await card(page, 'pod:pay/payments-api-7d9f6-abcde').count()).toBe(1);
  expect(await card(page, 'pod:shop/checkout-5c8b7-pqrst').count()).toBe(0);

  // +1 callers: checkout, payouts and refunds, not the callees nor web-frontend (two hops).
  await page.getByRole('radio', { name: '+1', exact: true }).check();
  await page.getByRole('radio', { name: 'Callers', exact: true }).check();
  await settled(page);
  expect(await roles()).toEqual(['caller', 'component', 'infra']);
  expect(await card(page, 'svc:checkout').count()).toBe(1);
  expect(await card(page, 'svc:web-frontend').count()).toBe(0);

  await page.getByRole('radio', { name: '+2', exact: true }).check();
  await page.getByRole('radio', { name: 'Both', exact: true }).check();
  expect(await cardCount(page)).toBe(allCards - vmCards);
}

async function contracts(page: Page): Promise<void> {
  const header = page.getByTestId('contracts-header');
  await header.waitFor();
  expect(await header.textContent()).toBe('1 of 9 call edges have a contract · 2 routes');
  const traced = page.locator('[data-testid="contract-edge"][data-caller="svc:checkout"][data-callee="svc:payments-api"]');
  expect(await traced.getByTestId('contract-route').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-method') ?? ''} ${r.getAttribute('data-route') ?? ''}`))).toEqual([
    'POST /v1/payments',
    'GET /v1/payments/{id}',
  ]);
  // A partner reaches POST /v1/payments from outside too.
  expect(await traced.getByTestId('external-ingress').count()).toBe(1);
  expect(await traced.locator('[data-route="/v1/payments"]').getByTestId('external-ingress').count()).toBe(1);
  const untraced = page.locator('[data-testid="contract-edge"][data-caller="svc:payouts"][data-callee="svc:payments-api"]');
  expect(await untraced.getByTestId('contract-note').textContent()).toContain('no traces seen for this edge');
}

async function silenceModes(page: Page): Promise<void> {
  const select = page.getByLabel('Silence infrastructure', { exact: true });
  expect(await select.locator('option').first().textContent()).toBe('Organisation default (dedicated)');
  await select.selectOption('none');
  const services = 'Silence scope: 10 services · 2 databases · 1 schema';
  await page.getByTestId('scope-line').filter({ hasText: new RegExp(`^${services}$`) }).waitFor();
  expect(await page.locator('[data-testid="not-silenced-item"][data-kind="infra-off"]').count()).toBe(1);
  // Nothing below the services is silenced now: no infrastructure card is tinted.
  await settled(page);
  expect(await page.locator('[data-testid="map-card"][data-role="infra"][data-silenced="true"]').count()).toBe(0);
  await select.selectOption('');
  await page.getByTestId('scope-line').filter({ hasText: scopeLine }).waitFor();
}

async function candidates(page: Page): Promise<void> {
  await typeComponents(page, 'payments-api\nledger\nno-such-thing');
  const ledger = page.locator('[data-testid="unresolved"][data-query="ledger"]');
  await ledger.waitFor();
  const keys = await ledger.getByTestId('candidate').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
  expect(keys.slice(0, 2)).toEqual(['db:prod-pg-1/ledger', 'db:prod-pg-2/ledger']);
  expect(await page.locator('[data-testid="unresolved"][data-query="no-such-thing"]').textContent()).toContain('matches nothing in the catalogue');
  await snap(page, 'blast-candidates.png', { fullPage: false });

  // Picking the replica puts its key on the line.
  await ledger.locator('[data-testid="candidate"][data-key="db:prod-pg-2/ledger"]').click();
  expect(await page.getByLabel('Components', { exact: true }).inputValue()).toBe('payments-api\ndb:prod-pg-2/ledger\nno-such-thing');
  await page.locator('[data-testid="resolved"][data-key="db:prod-pg-2/ledger"]').waitFor();
  expect(await page.locator('[data-testid="unresolved"][data-query="ledger"]').count()).toBe(0);
  expect(await card(page, 'db:prod-pg-2/ledger').getAttribute('data-component')).toBe('true');
}

// Over 300 services the save would be refused: the preview says so, stops counting at the
// service that decides it, draws the component alone and says why no infrastructure is counted.
async function refusedHub(page: Page): Promise<void> {
  await typeComponents(page, 'ingest-hub');
  const refused = page.getByTestId('blast-refused');
  await refused.waitFor();
  expect(await refused.textContent()).toBe(
    'A save would be refused (422): over 300 services (counting stopped at 301). Name fewer components, walk one hop, or silence less infrastructure.',
  );
  expect(await page.getByTestId('scope-line').textContent()).toBe('Silence scope: 301 services');
  expect(await page.getByTestId('blast-warning').allTextContents()).toEqual([
    'over 300 services refuse the change: the walk stopped there, the infrastructure beneath them was not looked at, and the map shows the components only',
  ]);
  expect(await page.getByTestId('blast-large').count()).toBe(0);
  expect(await cardCount(page)).toBe(1);
  expect(await card(page, 'svc:ingest-hub').getAttribute('data-component')).toBe('true');
  expect(await page.getByTestId('contracts-not-listed').textContent()).toBe('Not listed for a change a save would refuse.');
  expect(await page.getByTestId('contracts-header').count()).toBe(0);
  await page.evaluate('window.scrollTo(0, 0)');
  await snap(page, 'blast-refused.png', { fullPage: true });
}
