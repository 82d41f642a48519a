import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasChromium, launchChromium, openPage } from '../support/browser.js';
import { shoot } from '../support/ui-suite.js';
import { webBundle } from '../support/deliveries-web.js';
import { describeEachEngine } from '../support/engines.js';
import { startReceiver } from '../support/receiver.js';
import { createToken, PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../support/test-app.js';

// The home page in Debian's Chromium against the real app (in this process, so its worker can be
// driven): first what a fresh organisation meets, then the same page with changes, approvals, a
// failed callback and flag changes in it, seen by an approver (mine first).

if (!hasChromium) console.warn('chromium not installed: home UI test skipped');

const artifactsDir = join(process.cwd(), 'test-artifacts');
const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: standard }
  - { key: "svc:payments-api", kind: service, name: payments-api, tier: standard }
links:
  - { from: "svc:checkout-api", to: "svc:payments-api", via: calls }
`;
type Json = Record<string, unknown>;

// One build of the UI for both engines of this file.
let bundle: ReturnType<typeof webBundle> | undefined;
const web = () => (bundle ??= webBundle());

describeEachEngine('the home page in the web UI', (engine) => {
  let t: TestApp | undefined;
  let base = '';
  let browser: Browser | undefined;
  let hook: Awaited<ReturnType<typeof startReceiver>> | undefined;
  let owner: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  const suffix = engine.name;
  const ids: Record<string, string> = {};

  const inject = async (s: SignedIn, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json) => {
    const r = await t!.main.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload }) });
    expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
    return r.json() as Json;
  };
  const register = async (s: SignedIn, title: string, body: Json) => {
    const answer = await inject(s, 'POST', '/api/changes', { title, components: [{ key: 'svc:checkout-api' }], ...body });
    ids[title] = (answer['change'] as { id: string }).id;
  };

  beforeAll(async () => {
    if (!hasChromium) return;
    await mkdir(artifactsDir, { recursive: true });
    t = await testApp(engine.db(), { webDir: (await web()).dir });
    await t.main.listen({ port: 0, host: '127.0.0.1' });
    const address = t.main.server.address() as { port: number };
    base = `http://127.0.0.1:${String(address.port)}`;
    hook = await startReceiver({ status: 401, body: 'bad signature', headers: { 'content-type': 'text/plain' } });

    const made = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Acme', email: `olivia.${suffix}@acme.dev`, password: PASSWORD });
    owner = await signIn(t, made.org, made.owner, PASSWORD);
    const add = async (name: string): Promise<SignedIn> => {
      const { user } = await t!.services.auth.addMember(testCtx, { org: made.org.slug, email: `${name.toLowerCase()}.${suffix}@acme.dev`, role: 'member', displayName: name, password: PASSWORD });
      return signIn(t!, made.org, user, PASSWORD);
    };
    alice = await add('Alice');
    bob = await add('Bob');
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await t?.close();
    await hook?.close();
  }, 60_000);

  async function signInAtHome(page: Page, email: string): Promise<void> {
    await page.goto(new URL('/', base).toString());
    await page.waitForURL((url) => url.pathname === '/signin');
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('home-day').getByText(/No change had its window|Last 24 hours \d+/).first().waitFor();
  }

  it.skipIf(!hasChromium)('a fresh organisation lands on the home page: what to do first, every section empty, the audit log one click away', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAtHome(page, owner.user.email);
      // Signed out, the session check answered 401: expected, and before the page under test.
      consoleErrors.length = 0;
      expect(await page.locator('h1').textContent()).toBe('Home');
      expect(await page.getByTestId('nav-home').getAttribute('aria-current')).toBe('page');
      const welcome = page.getByTestId('home-welcome');
      expect(await welcome.locator('h2').textContent()).toBe('No changes yet — register one or connect a pipeline');
      expect(await page.getByTestId('home-welcome-register').getAttribute('href')).toBe('/changes/new');
      expect(await page.getByTestId('home-welcome-pipeline').getAttribute('href')).toBe('/tokens');
      expect(await page.getByTestId('home-welcome-catalogue').getAttribute('href')).toBe('/catalogue');
      for (const section of ['home-active', 'home-pending', 'home-attention', 'home-day', 'home-flags']) {
        expect(await page.getByTestId(`${section}-count`).textContent(), section).toBe('0');
        await page.getByTestId(`${section}-empty`).waitFor();
      }
      expect(await page.getByTestId('home-flags-empty').textContent()).toContain('No flag changes yet');
      expect(await page.getByTestId('home-holds-empty').textContent()).toBe('No alerts are held now: holds start with a change and end five minutes after it.');
      expect(await page.getByTestId('home-flags-create').getAttribute('href')).toBe('/flags');
      await shoot(page, `home-fresh-${suffix}.png`);

      await page.getByTestId('nav-audit').click();
      await page.waitForURL((url) => url.pathname === '/audit');
      expect(await page.locator('h1').textContent()).toBe('Audit log');
      await page.getByTestId('nav-home').click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByTestId('home-welcome').waitFor();
      expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!hasChromium)('with changes, approvals, a failed callback and flag changes: each in its section, mine first, each linking to its page', async () => {
    const imported = await t!.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imported.statusCode, imported.body).toBe(200);
    // Not gated yet: a change that starts now, whose pipeline receiver refuses the callback.
    await inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'none' });
    await register(owner, 'Deploy checkout 2.4', { startNow: true, callbackUrl: `${hook!.url}/ci` });
    while ((await t!.services.worker.runOnce()) > 0);
    // Then every change needs two of the two approvers.
    await inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'all', quorum: 2 });
    await inject(owner, 'PUT', `/api/organizations/${owner.org.id}/change-approvers`, { userIds: [alice.user.id, bob.user.id] });
    await register(alice, 'Alice rotates the payments key', {});
    await register(owner, 'Owner resizes the pool', {});
    await register(bob, 'Bob bumps the checkout timeout', {});
    await inject(alice, 'POST', `/api/changes/${ids['Owner resizes the pool']!}/approve`, {});
    // A pipeline names a component nobody knows: it waits for a mapping.
    const { secret } = await createToken(t!, owner, ['changes:read', 'changes:write'], 'ci');
    const mapped = await t!.pipeline.inject({ method: 'POST', url: '/api/changes', headers: { authorization: `Bearer ${secret}` }, payload: { title: 'Pipeline deploys ledger-svc', components: [{ query: 'ledger-svc' }] } });
    expect(mapped.statusCode, mapped.body).toBe(201);
    ids['Pipeline deploys ledger-svc'] = (mapped.json() as { change: { id: string } }).change.id;
    await inject(owner, 'POST', '/api/flags', { key: 'checkout.new-cart', type: 'boolean', risk: 'low', ownerService: 'checkout-api', reason: 'introduce the flag' });
    await inject(owner, 'PUT', '/api/flags/checkout.new-cart/environments/production', { enabled: true, reason: 'roll out the new cart' });

    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAtHome(page, alice.user.email);
      consoleErrors.length = 0;
      expect(await page.getByTestId('home-welcome').count()).toBe(0);

      const active = page.getByTestId('home-active-change');
      await active.first().waitFor();
      expect(await active.count()).toBe(1);
      expect(await active.getAttribute('data-change-id')).toBe(ids['Deploy checkout 2.4']);
      await page.getByTestId('home-scope').filter({ hasText: 'Silence scope:' }).waitFor();
      expect(await page.getByTestId('home-scope').textContent()).toMatch(/^Silence scope: 2 services/);
      // The running change's hold is in place: its title, links to it, nothing held yet.
      const hold = page.getByTestId('home-hold');
      await hold.first().waitFor();
      expect(await hold.count()).toBe(1);
      expect(await hold.getAttribute('data-change-id')).toBe(ids['Deploy checkout 2.4']);
      expect(await hold.getByTestId('home-hold-title').textContent()).toBe('Deploy checkout 2.4');
      expect(await hold.getByTestId('home-hold-held').textContent()).toBe('0 held');
      expect(await page.getByTestId('home-holds-count').textContent()).toBe('1');

      // Mine first: Bob's change waits for Alice; her own and the one she approved follow.
      const pending = page.getByTestId('home-pending-change');
      await page.getByTestId('home-pending-mine-title').waitFor();
      const rows = await pending.evaluateAll((els) => els.map((r) => [r.getAttribute('data-change-id'), r.getAttribute('data-mine')]));
      expect(rows[0]).toEqual([ids['Bob bumps the checkout timeout'], '1']);
      expect(rows.slice(1).sort()).toEqual([[ids['Alice rotates the payments key'], '0'], [ids['Owner resizes the pool'], '0']].sort());
      expect(await page.getByTestId('home-pending-count').textContent()).toBe('3');

      const attention = page.getByTestId('home-attention-item');
      expect((await attention.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind')))).sort()).toEqual(['delivery', 'mapping']);
      expect(await page.getByTestId('home-attention').textContent()).toContain('Waiting for a component mapping: ledger-svc');
      expect(await page.getByTestId('home-attention').textContent()).toContain('The callback change.started failed after 1 attempt: answered 401: bad signature');

      expect(await page.getByTestId('home-day-count').textContent()).toBe('5');
      const flag = page.getByTestId('home-flag-change');
      expect(await flag.count()).toBe(2);
      expect(await flag.first().getAttribute('data-flag')).toBe('checkout.new-cart');
      expect(await flag.first().textContent()).toContain('roll out the new cart');
      await shoot(page, `home-busy-${suffix}.png`);

      // Each item opens its page: mine opens the approval panel.
      await pending.first().getByTestId('home-change-title').click();
      await page.waitForURL((url) => url.pathname === `/changes/${ids['Bob bumps the checkout timeout']!}` && url.searchParams.get('approve') === '1');
      await page.goBack();
      await page.getByTestId('home-attention-item').filter({ hasText: 'mapping' }).getByTestId('home-attention-link').click();
      await page.waitForURL((url) => url.pathname === `/changes/${ids['Pipeline deploys ledger-svc']!}`);
      await page.goBack();
      await flag.first().getByTestId('home-flag-link').click();
      await page.waitForURL((url) => url.pathname === '/flags/checkout.new-cart');
      expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!hasChromium)('someone who is not an approver sees every pending change and none marked as theirs', async () => {
    const { page, context } = await openPage(browser!);
    try {
      await signInAtHome(page, owner.user.email);
      await page.getByTestId('home-pending-change').first().waitFor();
      expect(await page.getByTestId('home-pending-mine-title').count()).toBe(0);
      expect(await page.getByTestId('home-pending-change').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-mine')))).toEqual(['0', '0', '0']);
    } finally {
      await context.close();
    }
  });
});
