import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SettableClock } from '../../src/platform/clock.js';
import { hasChromium, launchChromium, openPage, signInAt } from '../support/browser.js';
import { webBundle } from '../support/deliveries-web.js';
import { describeEachEngine } from '../support/engines.js';
import { shoot } from '../support/ui-suite.js';
import { PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../support/test-app.js';

/**
 * The change page's Validation card in Chromium, with rows that passed and failed: the app runs in
 * this process, where the outbound client may reach a loopback probe (a server process never does,
 * so test/e2e/governance-two-ui.test.ts sees its HTTP checks refused).
 */

if (!hasChromium) console.warn('chromium not installed: validation UI test skipped');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('the Validation card shows each check and the result', (engine) => {
  const clock = new SettableClock(new Date());
  let t: TestApp | undefined;
  let base = '';
  let browser: Browser | undefined;
  let owner: SignedIn;
  let probe: Server;
  let probeUrl = '';

  beforeAll(async () => {
    if (!hasChromium) return;
    probe = createServer((req, res) => res.writeHead(req.url === '/health' ? 200 : 503).end('probe'));
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    probeUrl = `http://127.0.0.1:${String((probe.address() as { port: number }).port)}`;
    t = await testApp(engine.db(), { webDir: (await webBundle()).dir, clock, mail: null });
    await t.main.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${String((t.main.server.address() as { port: number }).port)}`;
    const made = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Acme', email: `vera.${engine.name}@acme.dev`, password: PASSWORD });
    owner = await signIn(t, made.org, made.owner, PASSWORD);
    const imported = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: 'entities:\n  - { key: "svc:checkout", kind: service, name: checkout, tier: standard }\n' });
    expect(imported.statusCode, imported.body).toBe(200);
    expect((await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { approvalRequired: 'none' } })).statusCode).toBe(200);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await t?.close();
    probe?.close();
  });

  it.skipIf(!hasChromium)('after the finish, each listed check has its row — pass, fail, not observed — and the result says which failed', async () => {
    const api = (method: 'POST' | 'GET', url: string, payload?: Json) => t!.main.inject({ method, url, headers: owner.headers, ...(payload === undefined ? {} : { payload }) });
    const made = await api('POST', '/api/changes', {
      title: 'Move checkout to the new load balancer', kind: 'infra', startNow: true, components: [{ key: 'svc:checkout' }],
      validationPlan: [
        { id: 'health', target: 'checkout', check: 'http', url: `${probeUrl}/health`, expected: { op: '==', value: 200 } },
        { id: 'legacy-path', target: 'checkout', check: 'http', url: `${probeUrl}/legacy`, expected: { op: '==', value: 200 } },
        { id: 'error-rate', target: 'checkout', check: 'promql', query: 'sum(rate(http_requests_total{service="checkout",code=~"5.."}[5m]))', expected: { op: '<', value: 0.01 } },
      ],
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().change.id as string;
    expect((await api('POST', `/api/changes/${id}/complete`, { outcome: 'success' })).statusCode).toBe(200);
    clock.advance(31_000);
    while ((await t!.services.worker.runOnce()) > 0);

    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, `/changes/${id}`, owner.user.email, PASSWORD);
      const card = page.getByTestId('validation-card');
      await card.getByTestId('validation-result').waitFor();
      expect(await card.getByTestId('validation-row').evaluateAll((els) => els.map((e) => [e.getAttribute('data-item-id'), e.getAttribute('data-state')])))
        .toEqual([['health', 'pass'], ['legacy-path', 'fail'], ['error-rate', 'not_observed']]);
      expect(await card.getByTestId('validation-result').textContent()).toBe('still present');
      expect(await card.getByTestId('validation-reason').textContent()).toMatch(/1 item failed \(legacy-path\)/);
      expect(await card.locator('[data-item-id="legacy-path"]').getByTestId('validation-row-detail').textContent()).toMatch(/503/);
      expect(await card.locator('[data-item-id="error-rate"]').getByTestId('validation-row-detail').textContent()).toBe('not observed: no Prometheus evidence source is configured');
      await card.scrollIntoViewIfNeeded();
      await shoot(page, `validation-card-${engine.name}.png`);
      // The one 401 is the page asking for the session before the sign-in.
      expect(consoleErrors.filter((e) => !e.includes('401'))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
