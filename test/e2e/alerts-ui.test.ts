import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasAlertmanager, startAlertmanager, type Alertmanager } from '../support/alertmanager.js';
import { hasChromium, launchChromium, openPage, signInAt } from '../support/browser.js';
import { WallClock } from '../support/alert-stack.js';
import { shoot, snap } from '../support/ui-suite.js';
import { webBundle } from '../support/deliveries-web.js';
import { describeEachEngine } from '../support/engines.js';
import { startReceiver } from '../support/receiver.js';
import { closedPort } from '../support/smtp-capture.js';
import { PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../support/test-app.js';

// The alerts pages in Debian's Chromium against the real app (in this process, so its worker can
// be driven and its outbound client may reach loopback): alerts arrive through the real intake
// route (Alertmanager's webhook, posted with a session), a change of checkout-api runs and holds
// the checkout alert; then a person filters the list, opens an alert's history, follows the Held
// badge to the change and reads its Alerts card, and sets up Settings → Alert sources.

if (!hasChromium) console.warn('chromium not installed: alerts UI test skipped');
if (hasChromium && !hasAlertmanager) console.warn('prometheus-alertmanager not installed: the Alertmanager Test button test is skipped');

const artifactsDir = join(process.cwd(), 'test-artifacts');
const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: standard }
  - { key: "svc:search-api", kind: service, name: search-api, tier: standard }
`;
type Json = Record<string, unknown>;
const NARROW = { width: 390, height: 860 };

// One build of the UI for both engines of this file.
let bundle: ReturnType<typeof webBundle> | undefined;
const web = () => (bundle ??= webBundle());

/** Alertmanager's webhook, payload version 4, as prometheus-alertmanager 0.25 sends it. */
function webhook(alerts: Array<{ status: 'firing' | 'resolved'; labels: Record<string, string>; startsAt: string; endsAt?: string; summary?: string }>): Json {
  return {
    version: '4',
    groupKey: '{}:{alertname="x"}',
    status: alerts.some((a) => a.status === 'firing') ? 'firing' : 'resolved',
    receiver: 'changeledger',
    externalURL: 'http://alertmanager.shop.internal:9093',
    groupLabels: {},
    commonLabels: {},
    commonAnnotations: {},
    truncatedAlerts: 0,
    alerts: alerts.map((a) => ({
      status: a.status,
      labels: a.labels,
      annotations: a.summary === undefined ? {} : { summary: a.summary },
      startsAt: a.startsAt,
      endsAt: a.endsAt ?? '0001-01-01T00:00:00Z',
      generatorURL: `http://prometheus.shop.internal:9090/graph?g0.expr=${encodeURIComponent(a.labels['alertname'] ?? '')}`,
    })),
  };
}

describeEachEngine('the alerts pages in the web UI', (engine) => {
  let t: TestApp | undefined;
  let base = '';
  let browser: Browser | undefined;
  let am: Alertmanager | undefined;
  let hook: Awaited<ReturnType<typeof startReceiver>> | undefined;
  let owner: SignedIn;
  let mia: SignedIn;
  const suffix = engine.name;
  let changeId = '';
  let displayId = '';

  const inject = async (s: SignedIn, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json) => {
    const r = await t!.main.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload }) });
    expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
    return r.json() as Json;
  };

  beforeAll(async () => {
    if (!hasChromium) return;
    await mkdir(artifactsDir, { recursive: true });
    // The release comes right after the finish here (the product waits five minutes).
    t = await testApp(engine.db(), { webDir: (await web()).dir, clock: new WallClock(), holdReleaseDelayMs: 0 });
    await t.main.listen({ port: 0, host: '127.0.0.1' });
    const address = t.main.server.address() as { port: number };
    base = `http://127.0.0.1:${String(address.port)}`;
    const made = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Acme', email: `olivia.${suffix}@acme.dev`, password: PASSWORD });
    owner = await signIn(t, made.org, made.owner, PASSWORD);
    const { user } = await t.services.auth.addMember(testCtx, { org: made.org.slug, email: `mia.${suffix}@acme.dev`, role: 'member', displayName: 'Mia Member', password: PASSWORD });
    mia = await signIn(t, made.org, user, PASSWORD);
    if (hasAlertmanager) am = await startAlertmanager();
    hook = await startReceiver({ status: 204 });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await am?.stop().catch(() => undefined);
    await hook?.close();
    await t?.close();
  }, 60_000);

  it.skipIf(!hasChromium)('before any alert: the Alerts page says how to send alerts and links to Settings → Alert sources', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/alerts', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      expect(await page.locator('h1').textContent()).toBe('Alerts');
      expect(await page.getByTestId('nav-alerts').getAttribute('aria-current')).toBe('page');
      const empty = page.getByTestId('alerts-empty');
      await empty.waitFor();
      expect(await empty.textContent()).toContain('No alert has reached changeledger yet.');
      expect(await empty.textContent()).toContain('receivers:');
      await shoot(page, `alerts-empty-${suffix}.png`);
      await page.getByTestId('alerts-empty-sources').click();
      await page.waitForURL((url) => url.pathname === '/settings/alerts');
      expect(await page.locator('h1').textContent()).toBe('Alert sources');

      // The snippets' token: created on the tokens page with alerts:write, then Alertmanager's
      // webhook on the pipeline listener with it is taken (and read back on the Alerts page).
      await page.getByTestId('snippets-token').click();
      await page.waitForURL((url) => url.pathname === '/tokens');
      await page.getByTestId('token-create-form').waitFor();
      await page.getByLabel('Name', { exact: true }).fill('alertmanager');
      await page.getByLabel('alerts:write').check();
      await page.getByTestId('token-create-submit').click();
      const secret = ((await page.getByTestId('token-secret-value').textContent()) ?? '').trim();
      const sent = await t!.pipeline.inject({
        method: 'POST', url: '/api/alerts/alertmanager', headers: { authorization: `Bearer ${secret}` },
        payload: webhook([{ status: 'firing', labels: { alertname: 'Watchdog', severity: 'none' }, startsAt: new Date(Date.now() - 3_600_000).toISOString() }]),
      });
      expect(sent.statusCode, sent.body).toBe(200);
      await page.getByTestId('nav-alerts').click();
      await page.getByTestId('alert-row').filter({ hasText: 'Watchdog' }).waitFor();
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!hasChromium)('held, outside the scope and unmapped alerts: filtered, each printed by name, the history of one, the Held badge to the change and its Alerts card', async () => {
    const imported = await t!.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imported.statusCode, imported.body).toBe(200);
    await inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'none' });
    const registered = await inject(owner, 'POST', '/api/changes', { title: 'Deploy checkout 2.4', components: [{ key: 'svc:checkout-api' }], startNow: true });
    const change = registered['change'] as { id: string; displayId: string };
    changeId = change.id;
    displayId = change.displayId;
    while ((await t!.services.worker.runOnce()) > 0);
    const status = await inject(owner, 'GET', `/api/changes/${changeId}`);
    expect((status['change'] as { status: string }).status).toBe('active');

    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    // search-api fired and recovered before; a node exporter alert that names nothing of the
    // catalogue (unmapped) fires before the change; checkout-api fires during it (held).
    await inject(owner, 'POST', '/api/alerts/alertmanager', webhook([
      { status: 'firing', labels: { alertname: 'SearchSlow', service: 'search-api', severity: 'warning' }, startsAt: at(30), summary: 'p99 over 2 s' },
    ]));
    await inject(owner, 'POST', '/api/alerts/alertmanager', webhook([
      { status: 'resolved', labels: { alertname: 'SearchSlow', service: 'search-api', severity: 'warning' }, startsAt: at(30), endsAt: at(20), summary: 'p99 over 2 s' },
    ]));
    await inject(owner, 'POST', '/api/alerts/alertmanager', webhook([
      { status: 'firing', labels: { alertname: 'NodeDiskFull', device: '/dev/sda1', mountpoint: '/' }, startsAt: at(10) },
    ]));
    await inject(owner, 'POST', '/api/alerts/alertmanager', webhook([
      { status: 'firing', labels: { alertname: 'CheckoutErrors', service: 'checkout-api', severity: 'critical' }, startsAt: at(0), summary: '5xx above 2 %' },
    ]));

    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/alerts', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      const rows = page.getByTestId('alert-row');
      await rows.first().waitFor();
      // Wait for the fourth row rather than count what the first paint holds.
      await page.getByTestId('alert-subject').nth(3).waitFor();
      expect(await rows.count()).toBe(4);
      // Newest first, each by name: "<service> · <alertname> · <source>", never a key.
      const subjects = await page.getByTestId('alert-subject').allTextContents();
      expect(subjects[0]).toMatch(/^checkout-api · CheckoutErrors · /);
      expect(subjects.join('\n')).not.toContain('svc:');
      expect(subjects.some((s) => s.includes('SearchSlow'))).toBe(true);
      const checkout = rows.filter({ hasText: 'CheckoutErrors' });
      expect(await checkout.getByTestId('alert-state').textContent()).toBe('Firing');
      expect(await checkout.getByTestId('alert-held-badge').textContent()).toBe('Held · change Deploy checkout 2.4');
      const source = checkout.getByTestId('alert-source-link');
      expect(await source.getAttribute('href')).toBe('http://prometheus.shop.internal:9090/graph?g0.expr=CheckoutErrors');
      expect(await source.getAttribute('target')).toBe('_blank');
      expect(await source.getAttribute('rel')).toContain('noopener');
      const search = rows.filter({ hasText: 'SearchSlow' });
      expect(await search.getByTestId('alert-state').textContent()).toBe('Resolved');
      expect(await search.getByTestId('alert-held-badge').count()).toBe(0);
      await rows.filter({ hasText: 'NodeDiskFull' }).getByTestId('alert-unmapped').waitFor();
      await shoot(page, `alerts-list-${suffix}.png`);

      // Filters: resolved only, then held only, then by subject; the URL keeps them.
      await page.getByTestId('alert-filter-state').selectOption('resolved');
      await page.waitForURL((url) => url.searchParams.get('state') === 'resolved');
      await page.getByTestId('alert-row').filter({ hasText: 'SearchSlow' }).waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      await page.getByTestId('alert-filter-state').selectOption('');
      await page.getByTestId('alert-filter-held').check();
      await page.waitForURL((url) => url.searchParams.get('held') === 'true' && !url.searchParams.has('state'));
      await expect.poll(async () => (await page.getByTestId('alert-subject').allTextContents()).join('|')).toMatch(/^checkout-api · CheckoutErrors · [^|]+$/);
      await page.getByTestId('alert-filter-held').uncheck();
      await page.getByTestId('alert-filter-subject').fill('search-api');
      await page.getByTestId('alert-filter-apply').click();
      await page.waitForURL((url) => url.searchParams.get('subject') === 'search-api');
      await expect.poll(async () => (await page.getByTestId('alert-subject').allTextContents()).join('|')).toMatch(/^search-api · SearchSlow · [^|]+$/);

      // Its history: fired, then resolved, newest first; nothing of it held.
      await page.getByTestId('alert-subject').first().click();
      const history = page.getByTestId('alert-history');
      await history.getByTestId('alert-transitions').waitFor();
      expect(await history.getByTestId('alert-transition').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).toEqual(['resolved', 'firing']);
      expect(await history.getByTestId('alert-history-count').textContent()).toBe('2 transitions');
      await shoot(page, `alerts-history-${suffix}.png`);

      // The held one: its history marks the firing as held by the change; the badge opens the change.
      await page.getByTestId('alert-filter-clear').click();
      await page.waitForURL((url) => url.search === '');
      await rows.filter({ hasText: 'CheckoutErrors' }).getByTestId('alert-subject').click();
      await history.getByTestId('alert-transition-held').waitFor();
      expect(await history.getByTestId('alert-transition-held').textContent()).toBe('held by Deploy checkout 2.4');
      const heldFingerprint = (await rows.filter({ hasText: 'CheckoutErrors' }).getAttribute('data-fingerprint'))!;

      // A link to an alert the filtered list does not hold still opens its history.
      await page.goto(new URL(`/alerts?state=resolved&alert=${heldFingerprint}`, base).toString());
      await page.getByTestId('alert-history-title').filter({ hasText: 'CheckoutErrors' }).waitFor();
      // The history may paint before the list: wait for the list rather than read its first paint.
      await expect.poll(() => page.getByTestId('alert-subject').allTextContents()).toEqual([expect.stringMatching(/^search-api · SearchSlow/)]);
      await page.goto(new URL(`/alerts?alert=${heldFingerprint}`, base).toString());
      await history.getByTestId('alert-held-badge').click();
      await page.waitForURL((url) => url.pathname === `/changes/${changeId}`);

      const card = page.getByTestId('change-alerts-card');
      await card.getByTestId('change-alert').first().waitFor();
      expect(await card.getAttribute('data-hold-state')).toBe('active');
      expect(await card.getByTestId('change-hold-state').textContent()).toBe('Holding');
      expect(await card.getByTestId('change-hold-line').textContent()).toMatch(/^Active since \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z/);
      expect(await card.getByTestId('change-hold-mode').textContent()).toBe('Relay');
      expect(await card.getByTestId('change-hold-counts').textContent()).toBe('1 held · 0 re-sent · 0 recovered');
      expect(await card.getByTestId('change-alerts-held').getByTestId('change-alert').allTextContents()).toEqual([expect.stringMatching(/^checkout-api · CheckoutErrors · .*Firing/)]);
      expect(await card.getByTestId('change-hold-problem').count()).toBe(0);
      // The window's other alerts (the unmapped node alert, the Watchdog) are counted, not listed as the change's.
      expect(await card.getByTestId('change-alerts-elsewhere').textContent()).toBe('2 other alerts fired or recovered in its window outside its scope.');
      await shoot(page, `alerts-change-card-${suffix}.png`);

      // Home: the hold in place now, by the change's title, with its count.
      await page.getByTestId('nav-home').click();
      const hold = page.getByTestId('home-hold');
      await hold.first().waitFor();
      await expect.poll(() => hold.evaluateAll((els) => els.map((e) => e.getAttribute('data-change-id')))).toEqual([changeId]);
      expect(await hold.getByTestId('home-hold-title').textContent()).toBe('Deploy checkout 2.4');
      expect(await hold.getByTestId('home-hold-held').textContent()).toBe('1 held');
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }

    // A narrow window: the list, the history and the card stay inside the screen.
    const narrow = await openPage(browser!, NARROW);
    try {
      await signInAt(narrow.page, base, '/alerts', owner.user.email, PASSWORD);
      await narrow.page.getByTestId('alert-row').first().waitFor();
      expect(await narrow.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW.width);
      await shoot(narrow.page, `alerts-list-narrow-${suffix}.png`);
      await narrow.page.goto(new URL(`/changes/${changeId}`, base).toString());
      await narrow.page.getByTestId('change-alerts-card').getByTestId('change-alert').first().waitFor();
      expect(await narrow.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW.width);
      await narrow.page.getByTestId('change-alerts-card').scrollIntoViewIfNeeded();
      await snap(narrow.page.getByTestId('change-alerts-card'), `alerts-change-card-narrow-${suffix}.png`);
    } finally {
      await narrow.context.close();
    }
    expect(displayId).toMatch(/^CHG-/);
  });

  it.skipIf(!hasChromium)('Settings → Alert sources: the hold mode saved, a bad label mapping refused beside its row, the snippet to paste; a member reads it only', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/settings/alerts', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      const mode = page.getByTestId('alert-hold-mode');
      await mode.waitFor();
      expect(await page.getByTestId('hold-mode-relay').isChecked()).toBe(true);
      expect(await mode.textContent()).toContain('forwards them to your destinations');
      expect(await mode.textContent()).toContain('puts a silence on each Alertmanager');
      await page.getByTestId('hold-mode-silence').check();
      await page.getByTestId('hold-mode-save').click();
      await page.getByTestId('hold-mode-saved').waitFor();
      const settings = await inject(owner, 'GET', '/api/alert-settings');
      expect(settings['holdMode']).toBe('silence');

      // The label mapping: the defaults as rows; a label name Prometheus would refuse, on row 2.
      const rules = page.getByTestId('label-rule');
      expect(await rules.count()).toBeGreaterThanOrEqual(4);
      expect(await rules.first().getByTestId('label-rule-labels').inputValue()).toBe('service, app, app_kubernetes_io_name');
      await rules.nth(1).getByTestId('label-rule-labels').fill('job, 9lives');
      await page.getByTestId('label-mapping-save').click();
      const refusal = rules.nth(1).getByTestId('field-error');
      await refusal.waitFor();
      expect(await refusal.textContent()).toMatch(/^Label mapping 2 › Label 2 is not a Prometheus label name/);
      expect(await rules.nth(0).getByTestId('field-error').count()).toBe(0);
      expect(await rules.nth(1).getByTestId('label-rule-labels').getAttribute('aria-invalid')).toBe('true');
      const unchanged = await inject(owner, 'GET', '/api/alert-settings');
      expect(unchanged['labelMapping']).toEqual(settings['labelMapping']);

      // Put row 2 right and drop the last row (job as a service name): saved, no longer the defaults.
      await rules.nth(1).getByTestId('label-rule-labels').fill('job, rule_group');
      const count = await rules.count();
      await rules.nth(count - 1).getByTestId('label-rule-remove').click();
      await page.getByTestId('label-mapping-save').click();
      await page.getByTestId('label-mapping-saved').waitFor();
      expect(await rules.nth(1).getByTestId('field-error').count()).toBe(0);
      expect(await page.getByTestId('label-mapping-default').count()).toBe(0);
      const saved = await inject(owner, 'GET', '/api/alert-settings');
      expect(saved['labelMappingIsDefault']).toBe(false);
      expect((saved['labelMapping'] as unknown[]).length).toBe(count - 1);
      await page.getByTestId('label-mapping-reset').click();
      await page.getByTestId('label-mapping-default').waitFor();
      expect(await rules.count()).toBe(count);
      expect((await inject(owner, 'GET', '/api/alert-settings'))['labelMappingIsDefault']).toBe(true);

      // The snippet to paste.
      const snippet = page.getByTestId('snippet-alertmanager');
      await snippet.waitFor();
      expect(await snippet.textContent()).toContain('receivers:');
      expect(await snippet.textContent()).toContain('/api/alerts/alertmanager');
      await page.getByTestId('snippet-prometheus').waitFor();
      await shoot(page, `alert-sources-${suffix}.png`);
      expect(consoleErrors.filter((e) => !e.includes('400')), consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }

    const narrow = await openPage(browser!, NARROW);
    try {
      await signInAt(narrow.page, base, '/settings/alerts', owner.user.email, PASSWORD);
      await narrow.page.getByTestId('label-rule').first().waitFor();
      expect(await narrow.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW.width);
      await shoot(narrow.page, `alert-sources-narrow-${suffix}.png`);
    } finally {
      await narrow.context.close();
    }

    const member = await openPage(browser!);
    try {
      await signInAt(member.page, base, '/settings/alerts', mia.user.email, PASSWORD);
      await member.page.getByTestId('alert-sources-readonly').waitFor();
      expect(await member.page.getByTestId('hold-mode-silence').isChecked()).toBe(true);
      expect(await member.page.getByTestId('hold-mode-save').count()).toBe(0);
      expect(await member.page.getByTestId('alertmanager-add').count()).toBe(0);
      expect(await member.page.getByTestId('destination-add').count()).toBe(0);
      expect(await member.page.getByTestId('label-mapping-save').count()).toBe(0);
      expect(await member.page.getByTestId('label-rule-labels').first().isDisabled()).toBe(true);
    } finally {
      await member.context.close();
    }
  });

  it.skipIf(!hasChromium || !hasAlertmanager)('adds an Alertmanager (Debian\'s, on loopback) and its Test button says it answered', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/settings/alerts', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      await page.getByTestId('alertmanager-add').click();
      await page.getByTestId('alertmanager-name-input').fill('shop-am');
      await page.getByTestId('alertmanager-url-input').fill('not a url');
      await page.getByTestId('alertmanager-save').click();
      const urlError = page.getByTestId('alertmanager-form').getByTestId('field-error');
      await urlError.waitFor();
      expect(await urlError.getAttribute('data-field')).toMatch(/^url/);
      await page.getByTestId('alertmanager-url-input').fill(am!.url);
      await page.getByTestId('alertmanager-save').click();
      const row = page.getByTestId('alertmanager-row');
      await row.waitFor();
      expect(await row.getByTestId('alertmanager-name').textContent()).toBe('shop-am');
      await row.getByTestId('alertmanager-test').click();
      const result = row.getByTestId('alertmanager-test-result');
      await result.waitFor();
      expect(await result.getAttribute('data-ok')).toBe('true');
      await shoot(page, `alert-sources-alertmanager-${suffix}.png`);

      // Edit it: a new name and a bearer token; the token is never shown back, only its hint.
      await row.getByTestId('alertmanager-edit').click();
      await page.getByTestId('alertmanager-name-input').fill('shop-am-1');
      await page.getByTestId('alertmanager-auth-input').selectOption('bearer');
      await page.getByTestId('alertmanager-token-input').fill('am-token-0123456789');
      await page.getByTestId('alertmanager-save').click();
      await page.getByTestId('alertmanager-form').waitFor({ state: 'detached' });
      await row.getByTestId('alertmanager-name').filter({ hasText: 'shop-am-1' }).waitFor();
      expect(await row.textContent()).toContain('Auth: Bearer token');
      expect(await row.textContent()).not.toContain('am-token-0123456789');
      expect(consoleErrors.filter((e) => !e.includes('400')), consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!hasChromium)('adds a signed webhook destination: its signing secret shown once, a Test that reaches the receiver, then removed', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/settings/alerts', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      await page.getByTestId('destination-add').click();
      await page.getByTestId('destination-kind-input').selectOption('webhook');
      await page.getByTestId('destination-name-input').fill('ops relay');
      await page.getByTestId('destination-url-input').fill(`${hook!.url}/alerts`);
      await page.getByTestId('destination-save').click();
      const secret = page.getByTestId('destination-secret');
      await secret.waitFor();
      const value = (await page.getByTestId('destination-secret-value').textContent()) ?? '';
      expect(value.length).toBeGreaterThanOrEqual(16);
      const row = page.getByTestId('destination-row');
      await row.waitFor();
      expect(await row.textContent()).toContain('ops relay');
      expect(await row.textContent()).toContain('127.0.0.1');
      expect(await row.textContent()).not.toContain(value);
      await shoot(page, `alert-sources-destination-${suffix}.png`);
      await page.getByTestId('destination-secret-dismiss').click();
      expect(await secret.count()).toBe(0);

      const before = hook!.received.length;
      await row.getByTestId('destination-test').click();
      const result = row.getByTestId('destination-test-result');
      await result.waitFor();
      expect(await result.getAttribute('data-ok'), (await result.textContent()) ?? '').toBe('true');
      expect(hook!.received.length).toBeGreaterThan(before);
      expect(hook!.received.at(-1)!.path).toBe('/alerts');

      await row.getByTestId('destination-remove').click();
      await row.getByTestId('destination-remove-confirm').click();
      await page.getByTestId('destinations-empty').waitFor();
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!hasChromium)('silence mode with an Alertmanager nobody answers on: the change\'s Alerts card and the home page say "hold not in place" and why', async () => {
    await inject(owner, 'PUT', '/api/alert-settings', { holdMode: 'silence' });
    const down = await inject(owner, 'POST', '/api/alertmanagers', { name: 'down-am', url: `http://127.0.0.1:${String(await closedPort())}` });
    const registered = await inject(owner, 'POST', '/api/changes', { title: 'Reindex search', components: [{ key: 'svc:search-api' }], startNow: true });
    const id = (registered['change'] as { id: string }).id;
    let problem: string | null = null;
    for (let i = 0; i < 40 && problem === null; i++) {
      await t!.services.worker.runOnce();
      const detail = await inject(owner, 'GET', `/api/changes/${id}`);
      problem = (detail['suppression'] as { problem: string | null }).problem;
      if (problem === null) await new Promise((r) => setTimeout(r, 100));
    }
    expect(problem).toMatch(/^hold not in place: .*down-am/);

    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, `/changes/${id}`, owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      const card = page.getByTestId('change-alerts-card');
      const shown = card.getByTestId('change-hold-problem');
      await shown.waitFor();
      expect(await shown.textContent()).toBe(`H${problem!.slice(1)}`);
      expect(await card.getByTestId('change-hold-mode').textContent()).toBe('Alertmanager silences');
      const silences = card.getByTestId('change-hold-silence');
      // Per Alertmanager: the one nobody answers on has only failed silences.
      const failed = silences.filter({ hasText: 'down-am' });
      expect(await failed.count()).toBe(1);
      expect(await failed.getAttribute('data-state')).toBe('failed');
      expect(await failed.textContent()).toMatch(/^down-am \d+ failed$/);
      await shoot(page, `alerts-change-problem-${suffix}.png`);

      await page.getByTestId('nav-home').click();
      const hold = page.getByTestId('home-hold').filter({ hasText: 'Reindex search' });
      await hold.waitFor();
      expect(await hold.getByTestId('home-hold-problem').textContent()).toBe(`H${problem!.slice(1)}`);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
      await t!.main.inject({ method: 'DELETE', url: `/api/alertmanagers/${(down['alertmanager'] as { id: string }).id}`, headers: owner.headers });
    }
  });

  it.skipIf(!hasChromium)('after the change completes and its hold is released: the card says Released, what was re-sent (still failing) and what recovered', async () => {
    const now = Date.now();
    const latency = { alertname: 'CheckoutLatency', service: 'checkout-api', severity: 'warning' };
    await inject(owner, 'POST', '/api/alerts/alertmanager', webhook([{ status: 'firing', labels: latency, startsAt: new Date(now).toISOString() }]));
    await inject(owner, 'POST', '/api/alerts/alertmanager', webhook([{ status: 'resolved', labels: latency, startsAt: new Date(now).toISOString(), endsAt: new Date(now + 1000).toISOString() }]));
    await inject(owner, 'POST', `/api/changes/${changeId}/complete`, { outcome: 'success' });
    let state = '';
    for (let i = 0; i < 60 && state !== 'released'; i++) {
      await t!.services.worker.runOnce();
      const detail = await inject(owner, 'GET', `/api/changes/${changeId}`);
      state = (detail['suppression'] as { state: string }).state;
      if (state !== 'released') await new Promise((r) => setTimeout(r, 100));
    }
    expect(state).toBe('released');

    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, `/changes/${changeId}`, owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      const card = page.getByTestId('change-alerts-card');
      await card.getByTestId('change-alert').first().waitFor();
      expect(await card.getByTestId('change-hold-state').textContent()).toBe('Released');
      expect(await card.getByTestId('change-hold-line').textContent()).toMatch(/^Released at \d{4}-\d{2}-\d{2} /);
      expect(await card.getByTestId('change-hold-counts').textContent()).toBe('2 held · 1 re-sent · 1 recovered');
      expect(await card.getByTestId('change-alerts-resent').getByTestId('change-alert').allTextContents()).toEqual([expect.stringMatching(/^checkout-api · CheckoutErrors · .*Firing/)]);
      expect(await card.getByTestId('change-alerts-recovered').getByTestId('change-alert').allTextContents()).toEqual([expect.stringMatching(/^checkout-api · CheckoutLatency · .*Resolved/)]);
      expect(await card.getByTestId('change-alerts-held').count()).toBe(0);
      await shoot(page, `alerts-change-released-${suffix}.png`);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
