import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasChromium, launchChromium, openPage, signInAt } from '../support/browser.js';
import { WallClock } from '../support/alert-stack.js';
import { shoot, snap } from '../support/ui-suite.js';
import { webBundle } from '../support/deliveries-web.js';
import { describeEachEngine } from '../support/engines.js';
import { PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../support/test-app.js';

// The observed-changes pages in Debian's Chromium against the real app (in this process, its
// pipeline listener on a real port): a person creates a generic webhook connection in
// Settings → Change sources and sees its secret once; a deploy is sent to the endpoint the page
// shows, with that secret; it is listed under the Deployments chip of the one change list (the
// chip and the service filter kept in the URL, "What we cannot see" under it), its page shows who,
// what, where, the scrubbed diff, the source link and the linked service; a Kubernetes write that
// carries a planned change's id shows on that change's page as a receipt, never as a row.

if (!hasChromium) console.warn('chromium not installed: observed changes UI test skipped');

const artifactsDir = join(process.cwd(), 'test-artifacts');
const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: standard }
  - { key: "svc:search-api", kind: service, name: search-api, tier: standard }
`;
type Json = Record<string, unknown>;
const NARROW = { width: 390, height: 860 };

let bundle: ReturnType<typeof webBundle> | undefined;
const web = () => (bundle ??= webBundle());

/** One write as the Kubernetes API server's audit webhook backend sends it (audit.k8s.io/v1 EventList). */
function auditList(o: { auditID: string; user: string; changeId: string; at: string }): Json {
  const metadata = { name: 'checkout', namespace: 'shop', labels: { 'app.kubernetes.io/name': 'checkout-api' }, annotations: { 'changeledger.io/change-id': o.changeId } };
  return {
    kind: 'EventList',
    apiVersion: 'audit.k8s.io/v1',
    metadata: {},
    items: [{
      kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'RequestResponse', auditID: o.auditID, stage: 'ResponseComplete',
      requestURI: '/apis/apps/v1/namespaces/shop/deployments/checkout', verb: 'patch',
      user: { username: o.user, uid: 'u-1', groups: ['system:authenticated'] },
      sourceIPs: ['10.0.0.7'], userAgent: 'kubectl/v1.30.0',
      objectRef: { resource: 'deployments', namespace: 'shop', name: 'checkout', apiGroup: 'apps', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 200 },
      requestObject: { metadata: { annotations: { 'changeledger.io/change-id': o.changeId } }, spec: { template: { spec: { containers: [{ name: 'app', image: 'shop/checkout:2.5' }] } } } },
      responseObject: { kind: 'Deployment', apiVersion: 'apps/v1', metadata },
      requestReceivedTimestamp: o.at, stageTimestamp: o.at,
      annotations: { 'authorization.k8s.io/decision': 'allow' },
    }],
  };
}

describeEachEngine('the observed changes pages in the web UI', (engine) => {
  let t: TestApp | undefined;
  let base = '';
  let browser: Browser | undefined;
  let owner: SignedIn;
  let mia: SignedIn;
  const suffix = engine.name;
  let sourceId = '';
  let secret = '';
  let endpoint = '';

  const inject = async (s: SignedIn, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json) => {
    const r = await t!.main.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload }) });
    expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
    return r.json() as Json;
  };
  // A sender on the network: the real pipeline listener, at the URL the page told us to paste.
  const send = (url: string, token: string, body: Json) =>
    fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    if (!hasChromium) return;
    await mkdir(artifactsDir, { recursive: true });
    t = await testApp(engine.db(), { webDir: (await web()).dir, clock: new WallClock() });
    await t.main.listen({ port: 0, host: '127.0.0.1' });
    await t.pipeline.listen({ port: 0, host: '127.0.0.1' });
    const address = t.main.server.address() as { port: number };
    base = `http://127.0.0.1:${String(address.port)}`;
    const made = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Acme', email: `olivia.${suffix}@acme.dev`, password: PASSWORD });
    owner = await signIn(t, made.org, made.owner, PASSWORD);
    const { user } = await t.services.auth.addMember(testCtx, { org: made.org.slug, email: `mia.${suffix}@acme.dev`, role: 'member', displayName: 'Mia Member', password: PASSWORD });
    mia = await signIn(t, made.org, user, PASSWORD);
    const imported = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imported.statusCode, imported.body).toBe(200);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await t?.close();
  }, 60_000);

  it.skipIf(!hasChromium)('Settings → Change sources: a webhook connection made in the UI shows its secret once and the endpoint to paste; a deploy sent there with it is counted; Test answers in words', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/settings/change-sources', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      expect(await page.locator('h1').textContent()).toBe('Change sources');
      expect(await page.getByTestId('nav-change-sources').getAttribute('aria-current')).toBe('page');
      await page.getByTestId('change-sources-empty').waitFor();

      await page.getByTestId('source-add').click();
      await page.getByTestId('source-kind').selectOption('webhook');
      // A name is required: the server's words beside the field, nothing made.
      await page.getByTestId('source-create').click();
      await page.getByTestId('source-form').getByTestId('field-error').waitFor();
      expect((await inject(owner, 'GET', '/api/change-sources'))['sources']).toEqual([]);
      // The browser logs the refused request; nothing else may.
      consoleErrors.length = 0;
      await page.getByTestId('source-name').fill('deploy-bot');
      await page.getByTestId('source-create').click();

      const box = page.getByTestId('source-secret');
      await box.waitFor();
      expect(await page.getByTestId('source-secret-warning').textContent()).toContain('you will not see it again');
      secret = ((await page.getByTestId('source-secret-value').textContent()) ?? '').trim();
      expect(secret.length).toBeGreaterThanOrEqual(20);
      const row = page.getByTestId('source-row').filter({ hasText: 'deploy-bot' });
      await row.waitFor();
      sourceId = (await row.getAttribute('data-id')) ?? '';
      endpoint = ((await row.getByTestId('source-endpoint').textContent()) ?? '').trim();
      expect(endpoint).toMatch(new RegExp(`/v1/changes/webhook/${sourceId}$`));
      expect(await row.getByTestId('source-last-event').textContent()).toBe('No event has arrived yet');
      await shoot(page, `observed-sources-secret-${suffix}.png`);

      // Dismissed, then reloaded: the secret is nowhere on the page (nor in the API's answer).
      await page.getByTestId('source-secret-dismiss').click();
      await page.reload();
      await row.waitFor();
      expect(await page.locator('body').textContent()).not.toContain(secret);
      expect(JSON.stringify(await inject(owner, 'GET', '/api/change-sources'))).not.toContain(secret);

      // Test before anything arrived: an answer in words.
      await row.getByTestId('source-test').click();
      const result = row.getByTestId('source-test-result');
      await result.waitFor();
      expect(((await result.textContent()) ?? '').length).toBeGreaterThan(10);

      // The sender: a wrong secret is refused and counts nothing; the right one records the deploy.
      const refused = await send(endpoint, 'not-the-secret', { id: 'deploy-1', title: 'x' });
      expect(refused.status).toBe(401);
      const sent = await send(endpoint, secret, {
        id: 'deploy-981', title: 'Deploy checkout-api 2.5 to production', kind: 'deploy', service: 'checkout-api',
        actor: { name: 'Deploy Bot', kind: 'service' }, environment: 'production', repo: 'shop/checkout',
        diff: 'image: shop/checkout:2.4 -> shop/checkout:2.5\nDB_PASSWORD=hunter2-very-secret',
        link: 'https://ci.acme.dev/runs/981',
      });
      expect(sent.status, await sent.text()).toBeLessThan(300);
      await page.reload();
      await row.waitFor();
      await expect.poll(async () => row.locator('[data-testid="source-count"][data-count="recorded"]').textContent()).toBe('1 recorded');
      expect(await row.getByTestId('source-last-event').textContent()).toMatch(/^Last event \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);
      await row.getByTestId('source-test').click();
      await result.waitFor();
      await shoot(page, `observed-sources-${suffix}.png`);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!hasChromium)('the one change list: the deploy under the Deployments chip (kept across a reload), not under Kubernetes; the service filter; what we cannot see; its page shows who, what, where, the scrubbed diff and the linked service', async () => {
    expect(sourceId, 'the connection of the first test').not.toBe('');
    await inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'none' });
    await inject(owner, 'POST', '/api/changes', { title: 'Reindex search', components: [{ key: 'svc:search-api' }], startNow: true });
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/changes', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      const rows = page.getByTestId('change-row');
      const deploy = rows.filter({ hasText: 'Deploy checkout-api 2.5 to production' });
      await deploy.waitFor();
      await rows.filter({ hasText: 'Reindex search' }).waitFor();
      expect(await deploy.getAttribute('data-origin')).toBe('observed');
      expect(await deploy.getByTestId('record-source').textContent()).toContain('generic webhook');
      expect(await deploy.getByTestId('record-who').textContent()).toBe('Deploy Bot');
      expect(await deploy.getByTestId('record-service').textContent()).toBe('checkout-api');
      expect(await deploy.getByTestId('record-status').textContent()).toBe('recorded');
      expect(await deploy.getByTestId('change-link').textContent()).toMatch(/^CHG-[0-9A-F]{8}$/);
      // Under the list: what the connected sources cannot see, in the server's words.
      const never = page.getByTestId('never-captured-line');
      await never.first().waitFor();
      expect(await never.count()).toBeGreaterThan(0);
      await shoot(page, `observed-list-${suffix}.png`);

      // Deployments: the deploy, not the planned reindex; the URL keeps the chip through a reload.
      await page.locator('[data-testid="source-chip"][data-chip="deployments"]').click();
      await page.waitForURL((url) => url.searchParams.get('chip') === 'deployments');
      await expect.poll(() => rows.filter({ hasText: 'Reindex search' }).count()).toBe(0);
      await deploy.waitFor();
      await page.reload();
      await deploy.waitFor();
      expect(await page.locator('[data-testid="source-chip"][data-chip="deployments"]').getAttribute('aria-pressed')).toBe('true');
      await shoot(page, `observed-list-deployments-${suffix}.png`);
      // Kubernetes: nothing yet, and the empty list still says what we cannot see.
      await page.locator('[data-testid="source-chip"][data-chip="kubernetes"]').click();
      await page.waitForURL((url) => url.searchParams.get('chip') === 'kubernetes');
      await page.getByTestId('changes-empty').waitFor();
      expect(await page.getByTestId('changes-empty').textContent()).toContain('in what we can see');
      await page.getByTestId('never-captured').waitFor();
      await shoot(page, `observed-list-empty-${suffix}.png`);
      // The service filter: search-api keeps the reindex and not the deploy.
      await page.getByTestId('source-chip-all').click();
      await page.getByTestId('changes-service').fill('search-api');
      await page.getByTestId('changes-search').click();
      await page.waitForURL((url) => url.searchParams.get('service') === 'search-api' && !url.searchParams.has('chip'));
      await rows.filter({ hasText: 'Reindex search' }).waitFor();
      await expect.poll(() => deploy.count()).toBe(0);
      await page.reload();
      expect(await page.getByTestId('changes-service').inputValue()).toBe('search-api');
      await page.getByTestId('changes-clear').click();

      // Its page.
      await deploy.getByTestId('change-title').click();
      await page.waitForURL((url) => url.pathname.startsWith('/changes/obs_'));
      await page.getByTestId('observed-head').waitFor();
      expect(await page.locator('h1').textContent()).toBe('Deploy checkout-api 2.5 to production');
      expect(await page.getByTestId('observed-principal').textContent()).toBe('Deploy Bot');
      expect(await page.getByTestId('observed-what-facts').textContent()).toContain('deploy');
      expect(await page.getByTestId('observed-location').textContent()).toContain('production');
      const diff = (await page.getByTestId('observed-diff-text').textContent()) ?? '';
      expect(diff).toContain('shop/checkout:2.5');
      expect(diff).not.toContain('hunter2-very-secret');
      expect(await page.getByTestId('observed-link').getAttribute('href')).toBe('https://ci.acme.dev/runs/981');
      expect(await page.getByTestId('observed-link').getAttribute('rel')).toContain('noopener');
      const service = page.getByTestId('observed-service-link');
      expect(await service.textContent()).toBe('checkout-api');
      expect(await service.getAttribute('href')).toBe('/catalogue/svc%3Acheckout-api');
      expect(await page.getByTestId('observed-receipt-note').textContent()).toContain('carried no change id');
      expect(await page.getByTestId('observed-denied').count()).toBe(0);
      await shoot(page, `observed-change-${suffix}.png`);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }

    // A narrow window: the list and the page stay inside the screen.
    const narrow = await openPage(browser!, NARROW);
    try {
      await signInAt(narrow.page, base, '/changes', owner.user.email, PASSWORD);
      await narrow.page.getByTestId('change-row').first().waitFor();
      expect(await narrow.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW.width);
      await shoot(narrow.page, `observed-list-narrow-${suffix}.png`);
      await narrow.page.getByTestId('change-row').filter({ hasText: 'Deploy checkout-api 2.5' }).getByTestId('change-title').click();
      await narrow.page.getByTestId('observed-head').waitFor();
      expect(await narrow.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW.width);
      await shoot(narrow.page, `observed-change-narrow-${suffix}.png`);
    } finally {
      await narrow.context.close();
    }
  });

  it.skipIf(!hasChromium)('a planned change: no receipt, then a Kubernetes write carrying its id is listed on its page as a receipt and is no row of the list', async () => {
    const registered = await inject(owner, 'POST', '/api/changes', { title: 'Roll checkout 2.5', components: [{ key: 'svc:checkout-api' }], startNow: true });
    const change = registered['change'] as { id: string; displayId: string };
    const k8s = await inject(owner, 'POST', '/api/change-sources', { kind: 'kubernetes', name: 'prod-eu', config: { cluster: 'prod-eu' } });
    const k8sSecret = k8s['secret'] as string;
    const k8sEndpoint = (k8s['source'] as { endpoint: string }).endpoint;
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, `/changes/${change.id}`, owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      const card = page.getByTestId('change-receipts');
      await card.getByTestId('change-receipts-empty').waitFor();
      expect(await card.textContent()).toContain('No write has carried this change’s id yet');
      expect(await card.textContent()).toContain(`changeledger.io/change-id: ${change.displayId}`);

      const sent = await send(k8sEndpoint, k8sSecret, auditList({ auditID: 'a7d1e0f2-5b7c-4c51-9d3e-000000000001', user: 'alice@acme.dev', changeId: change.displayId, at: new Date().toISOString() }));
      expect(sent.status, await sent.text()).toBeLessThan(300);
      await page.reload();
      const receipt = card.getByTestId('change-receipt');
      await receipt.waitFor();
      expect(await receipt.getAttribute('data-source')).toBe('kubernetes');
      expect(await receipt.getByTestId('receipt-who').textContent()).toBe('alice@acme.dev');
      expect(await receipt.getByTestId('receipt-what').textContent()).toContain('deployments/checkout');
      expect(await receipt.textContent()).toContain('prod-eu');
      await card.scrollIntoViewIfNeeded();
      await snap(card, `observed-receipt-${suffix}.png`);

      // Counted as a receipt on its connection, not as a recorded change.
      await page.goto(new URL('/settings/change-sources', base).toString());
      const k8sRow = page.getByTestId('source-row').filter({ hasText: 'prod-eu' });
      await expect.poll(() => k8sRow.locator('[data-testid="source-count"][data-count="receipts"]').textContent()).toBe('1 receipt');
      expect(await k8sRow.locator('[data-testid="source-count"][data-count="recorded"]').textContent()).toBe('0 recorded');
      // Folded, never a second row: the Kubernetes chip stays empty.
      await page.goto(new URL('/changes?chip=kubernetes', base).toString());
      await page.getByTestId('changes-empty').waitFor();
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!hasChromium)('observed settings: a refused CI namespace is said beside its field and nothing is saved; a member reads the page without its buttons', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/settings/change-sources', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      const card = page.getByTestId('observed-settings');
      await card.waitFor();
      expect(await page.getByTestId('obs-interval').inputValue()).toBe('900');
      expect(await page.getByTestId('obs-ci').inputValue()).toBe('flux-system\njenkins\ngitlab-runner\ntekton');
      await page.getByTestId('obs-ci').fill('flux-system\nargocd');
      await page.getByTestId('observed-settings-save').click();
      const refusal = card.locator('[data-testid="field-error"][data-field^="ciNamespaces"]');
      await refusal.waitFor();
      expect(await refusal.textContent()).toMatch(/^CI namespace 2 /i);
      expect(await page.getByTestId('obs-ci').getAttribute('aria-invalid')).toBe('true');
      expect((await inject(owner, 'GET', '/api/observed-settings'))['ciNamespaces']).toEqual(['flux-system', 'jenkins', 'gitlab-runner', 'tekton']);
      await shoot(page, `observed-settings-refused-${suffix}.png`);
      consoleErrors.length = 0;
      // Saved: a repository map line.
      await page.getByTestId('obs-ci').fill('flux-system\njenkins\ngitlab-runner\ntekton');
      await page.getByTestId('obs-service-map').fill('shop/search-* = svc:search-api');
      await page.getByTestId('observed-settings-save').click();
      await page.getByTestId('observed-settings-saved').waitFor();
      expect((await inject(owner, 'GET', '/api/observed-settings'))['serviceMap']).toEqual({ 'shop/search-*': 'svc:search-api' });

      // A new secret: shown once, the old one refused from then on.
      const bot = page.getByTestId('source-row').filter({ hasText: 'deploy-bot' });
      await bot.getByTestId('source-rotate').click();
      await page.getByTestId('source-secret').waitFor();
      const rotated = ((await page.getByTestId('source-secret-value').textContent()) ?? '').trim();
      expect(rotated).not.toBe(secret);
      expect((await send(endpoint, secret, { id: 'deploy-982', title: 'old secret' })).status).toBe(401);
      expect((await send(endpoint, rotated, { id: 'deploy-982', title: 'Deploy search-api 7.1', kind: 'deploy' })).status).toBeLessThan(300);
      await page.getByTestId('source-secret-dismiss').click();

      // A GitHub connection: its own fields; a pull kind offers "the last N minutes" (off without a credential).
      await page.getByTestId('source-add').click();
      await page.getByTestId('source-kind').selectOption('github');
      await page.getByTestId('source-config-repos').waitFor();
      await page.getByTestId('source-name').fill('shop-repos');
      await page.getByTestId('source-config-repos').fill('shop/checkout\nshop/search');
      await page.getByTestId('source-create').click();
      await page.getByTestId('source-secret').waitFor();
      await page.getByTestId('source-secret-dismiss').click();
      const gh = page.getByTestId('source-row').filter({ hasText: 'shop-repos' });
      await gh.waitFor();
      expect(await gh.getByTestId('source-endpoint').textContent()).toMatch(/\/v1\/changes\/github\/[^/]+$/);
      expect(await gh.getByTestId('source-pull-state').textContent()).toContain('no credential');
      expect(await gh.getByTestId('source-pull').isDisabled()).toBe(true);
      const stored = ((await inject(owner, 'GET', '/api/change-sources'))['sources'] as Array<{ name: string; config: Json }>).find((s) => s.name === 'shop-repos');
      expect(stored?.config['repos']).toEqual(['shop/checkout', 'shop/search']);
      await shoot(page, `observed-sources-github-${suffix}.png`);
      // Deleted after a confirm.
      await gh.getByTestId('source-delete').click();
      await gh.getByTestId('source-delete-confirm').waitFor();
      await gh.getByTestId('source-delete-confirm').click();
      await expect.poll(() => gh.count()).toBe(0);
      expect(((await inject(owner, 'GET', '/api/change-sources'))['sources'] as Array<{ name: string }>).map((s) => s.name)).not.toContain('shop-repos');
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }

    const member = await openPage(browser!);
    try {
      await signInAt(member.page, base, '/settings/change-sources', mia.user.email, PASSWORD);
      await member.page.getByTestId('change-sources-readonly').waitFor();
      await member.page.getByTestId('source-row').first().waitFor();
      expect(await member.page.getByTestId('source-add').count()).toBe(0);
      expect(await member.page.getByTestId('source-delete').count()).toBe(0);
      expect(await member.page.getByTestId('source-rotate').count()).toBe(0);
      expect(await member.page.getByTestId('observed-settings-save').count()).toBe(0);
      expect(await member.page.getByTestId('obs-interval').isDisabled()).toBe(true);
      await shoot(member.page, `observed-sources-member-${suffix}.png`);
    } finally {
      await member.context.close();
    }
  });
});
