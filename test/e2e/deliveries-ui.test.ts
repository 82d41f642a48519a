import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasChromium, launchChromium, openPage, signInAt } from '../support/browser.js';
import { WallClock } from '../support/alert-stack.js';
import { shoot, snap } from '../support/ui-suite.js';
import { startDeliveriesReceiver, type Hit, type Reply } from '../support/deliveries-receiver.js';
import { webBundle } from '../support/deliveries-web.js';
import { describeEachEngine } from '../support/engines.js';
import { createToken, PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../support/test-app.js';

// The ticket destination card of Settings → Change approvals and the Pipeline card of the change
// page, in Debian's Chromium against the real app. The app runs in this process: its outbound
// client may reach the loopback receivers only through the test-only switch testApp sets, which
// a spawned server never has. Its worker runs, so callbacks and ticket steps go out as they
// would in production; one receiver on loopback plays the pipeline (/ci) and the ticket bridge
// (/tickets), answering change.ticket.created with a ticket OPS-7.

if (!hasChromium) console.warn('chromium not installed: deliveries UI test skipped');

const artifactsDir = join(process.cwd(), 'test-artifacts');
const ESTATE = `
format: changeledger/catalogue/1
source: cmdb
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: important }
`;
const TICKET = { id: 'OPS-7', key: 'OPS-7', url: 'https://tickets.example.com/OPS-7' };
const SECRET = 'whsec-bridge-0123456789abcdef';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => { resolve(port); });
    });
  });
}

const healthy = (hit: Hit): Reply => (hit.event === 'change.ticket.created' ? { status: 201, body: TICKET } : { status: 204 });

async function until<T>(what: string, read: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== null && v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describeEachEngine('deliveries in the web UI', (engine) => {
  let t: TestApp | undefined;
  let base = '';
  let browser: Browser | undefined;
  let web: Awaited<ReturnType<typeof webBundle>> | undefined;
  let receiver: Awaited<ReturnType<typeof startDeliveriesReceiver>> | undefined;
  let owner: SignedIn;
  let alice: SignedIn;
  let mia: SignedIn;
  const suffix = engine.name;

  beforeAll(async () => {
    if (!hasChromium) return;
    await mkdir(artifactsDir, { recursive: true });
    web = await webBundle();
    const port = await freePort();
    base = `http://127.0.0.1:${String(port)}`;
    t = await testApp(engine.db(), { webDir: web.dir, publicUrl: base, clock: new WallClock() });
    await t.main.listen({ port, host: '127.0.0.1' });
    t.services.worker.start();
    receiver = await startDeliveriesReceiver(healthy);

    const made = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Acme', email: `olivia.${suffix}@acme.dev`, password: PASSWORD });
    owner = await signIn(t, made.org, made.owner, PASSWORD);
    const add = async (name: string): Promise<SignedIn> => {
      const email = `${name.split(' ')[0]!.toLowerCase()}.${suffix}@acme.dev`;
      const { user } = await t!.services.auth.addMember(testCtx, { org: made.org.slug, email, role: 'member', displayName: name, password: PASSWORD });
      return signIn(t!, made.org, user, PASSWORD);
    };
    alice = await add('Alice Approver');
    mia = await add('Mia Pipeline');
    const imported = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imported.statusCode, imported.body).toBe(200);
    const approvers = await t.main.inject({ method: 'PUT', url: `/api/organizations/${made.org.id}/change-approvers`, headers: owner.headers, payload: { userIds: [alice.user.id] } });
    expect(approvers.statusCode, approvers.body).toBe(200);
    const quorum = await t.main.inject({ method: 'PUT', url: `/api/organizations/${made.org.id}/change-settings`, headers: owner.headers, payload: { quorum: 1 } });
    expect(quorum.statusCode, quorum.body).toBe(200);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await t?.services.worker.stop();
    await t?.close();
    await receiver?.close();
    web?.dispose();
  }, 60_000);

  const settings = async (): Promise<Record<string, unknown>> => {
    const r = await t!.main.inject({ method: 'GET', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers });
    expect(r.statusCode, r.body).toBe(200);
    return (r.json() as { settings: Record<string, unknown> }).settings;
  };

  it.skipIf(!hasChromium)('sets a webhook ticket destination: a field error under the short secret, a passing test, saved and shown masked', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/settings/changes', owner.user.email, PASSWORD);
      const card = page.getByTestId('ticketing-card');
      await card.waitFor();
      expect(await page.getByTestId('ticketing-stored').textContent()).toBe('none stored');
      expect(await page.getByTestId('ticketing-kind-none').isChecked()).toBe(true);
      expect(await page.getByTestId('ticketing-test').isDisabled()).toBe(true);
      expect(await card.getByTestId('settings-private-callbacks').isChecked()).toBe(false);
      expect(await card.textContent()).toContain('Loopback, link-local and cloud metadata addresses stay refused');

      // Jira shows its e-mail for cloud only.
      await page.getByTestId('ticketing-kind-jira').check();
      await page.getByTestId('ticketing-email').waitFor();
      expect(await page.getByTestId('ticketing-issueType').inputValue()).toBe('Task');
      await shoot(page, `deliveries-ticketing-jira-${suffix}.png`);
      await page.getByTestId('ticketing-deployment').selectOption('datacenter');
      expect(await page.getByTestId('ticketing-email').count()).toBe(0);
      expect(await page.getByLabel('Personal access token', { exact: true }).count()).toBe(1);

      await page.getByTestId('ticketing-kind-webhook').check();
      await page.getByLabel('URL', { exact: true }).fill(`${receiver!.url}/tickets`);
      await page.getByLabel('Signing secret', { exact: true }).fill('too-short');
      await page.getByTestId('ticketing-save').click();
      const secretError = card.locator('[data-testid="field-error"][data-field="ticketing.secret"]');
      await secretError.waitFor();
      expect(await secretError.textContent()).toBe('Signing secret must be at least 16 characters');
      expect(await page.getByLabel('Signing secret', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      // The error sits in the secret's own field, right under its input.
      expect(await secretError.evaluate((el) => el.parentElement?.querySelector('input')?.id)).toBe('ticketing-webhook-secret');
      expect(await page.getByTestId('ticketing-error').count()).toBe(0);
      expect((await settings())['ticketingKind']).toBe('none');
      await shoot(page, `deliveries-ticketing-error-${suffix}.png`);

      await page.getByLabel('Signing secret', { exact: true }).fill(SECRET);
      const before = receiver!.hits.length;
      await page.getByTestId('ticketing-test').click();
      const result = page.getByTestId('ticketing-test-result');
      await result.waitFor();
      expect(await result.getAttribute('data-ok')).toBe('true');
      expect(await page.getByTestId('ticketing-test-message').textContent()).toBe('The webhook answered 204 to a signed change.ticket.test');
      const steps = page.getByTestId('ticketing-test-step');
      expect(await steps.count()).toBe(1);
      expect(await steps.first().getAttribute('data-ok')).toBe('true');
      expect(await steps.first().locator('td').allTextContents()).toEqual(['✓', 'signed test delivery', 'HTTP 204', 'answered 204']);
      const probe = receiver!.hits.slice(before);
      expect(probe.map((h) => [h.path, h.event])).toEqual([['/tickets', 'change.ticket.test']]);
      // A test saves nothing.
      expect((await settings())['ticketingKind']).toBe('none');
      expect(await secretError.count()).toBe(0);
      await shoot(page, `deliveries-ticketing-test-${suffix}.png`);

      await page.getByTestId('ticketing-save').click();
      await page.getByTestId('ticketing-saved').waitFor();
      const stored = await settings();
      expect(stored['ticketingKind']).toBe('webhook');
      expect(stored['ticketing']).toEqual({ kind: 'webhook', url: `${receiver!.url}/tickets`, secret: '••••', hasSecret: true });

      await page.reload();
      await card.waitFor();
      expect(await page.getByTestId('ticketing-stored').textContent()).toBe('Webhook stored');
      expect(await page.getByTestId('ticketing-kind-webhook').isChecked()).toBe(true);
      expect(await page.getByLabel('URL', { exact: true }).inputValue()).toBe(`${receiver!.url}/tickets`);
      expect(await page.getByLabel('Signing secret', { exact: true }).inputValue()).toBe('••••');
      expect(await page.getByTestId('ticketing-secret-hint').textContent()).toBe('At least 16 characters; signs every delivery. Leave as •••• to keep the stored secret while the host stays the same.');
      // Left as ••••, the stored secret is the one a test signs with.
      await page.getByTestId('ticketing-test').click();
      await page.locator('[data-testid="ticketing-test-result"][data-ok="true"]').waitFor();
      const signed = receiver!.hits.at(-1)!;
      expect(signed.event).toBe('change.ticket.test');
      expect(String(signed.headers['x-changeledger-signature'])).toMatch(/^sha256=[0-9a-f]{64}$/);
      await shoot(page, `deliveries-ticketing-saved-${suffix}.png`);

      // Expected noise: the 401 of the first GET /api/session, the 400 of the short secret.
      expect(consoleErrors.filter((text) => !/\b(400|401)\b/.test(text))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it.skipIf(!hasChromium)('shows the callbacks and the ticket of a pipeline change, and a test callback the pipeline answers 503 to as retrying', async () => {
    const app = t!;
    expect((await settings())['ticketingKind']).toBe('webhook');
    const token = (await createToken(app, mia, ['changes:read', 'changes:write'], 'deploy')).secret;
    const pipe = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
      const r = await app.pipeline.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload }) });
      expect(r.statusCode, r.body).toBeLessThan(300);
      return r.json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const registered = await pipe('POST', '/api/changes', {
      title: `Deploy checkout-api 3.2 (${suffix})`,
      kind: 'deploy',
      components: [{ query: 'checkout-api' }],
      maxDurationMinutes: 30,
      callbackUrl: `${receiver!.url}/ci`,
      pipeline: { repo: 'acme/checkout', pipeline: 'deploy-checkout', run: '981', runUrl: 'https://ci.acme.dev/acme/checkout/runs/981', commit: '9f1c2ab7e4d0', version: '3.2.0', environment: 'production' },
      // A production deploy carries its before-state, or it may not start.
      previousVersion: '3.1.9',
    });
    const id = String(registered['change'].id);
    const approved = await app.main.inject({ method: 'POST', url: `/api/changes/${id}/approve`, headers: alice.headers, payload: {} });
    expect(approved.statusCode, approved.body).toBe(200);
    await pipe('POST', `/api/changes/${id}/start`);
    type Deliveries = { ticket: { key: string } | null; deliveries: { channel: string; event: string; state: string; httpStatus: number | null; nextAttemptAt: string | null }[] };
    const deliveries = async (): Promise<Deliveries> => (await pipe('GET', `/api/changes/${id}/deliveries`)) as Deliveries;
    // The worker sends them: approved and started to the pipeline, the ticket opened then updated.
    const settled = await until('the callbacks and ticket steps to be delivered', async () => {
      const d = await deliveries();
      return d.deliveries.length === 4 && d.deliveries.every((x) => x.state === 'delivered') ? d : null;
    });
    expect(settled.deliveries.map((d) => [d.channel, d.event, d.httpStatus])).toEqual([
      ['callback', 'change.approved', 204],
      ['ticket', 'change.approved', 201],
      ['callback', 'change.started', 204],
      ['ticket', 'change.started', 204],
    ]);
    expect(settled.ticket?.key).toBe('OPS-7');

    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, `/changes/${id}`, owner.user.email, PASSWORD);
      const card = page.getByTestId('change-pipeline-card');
      await card.waitFor();
      expect(await card.getByTestId('pipeline-repo').textContent()).toBe('acme/checkout');
      expect(await card.getByTestId('pipeline-run').textContent()).toBe('981');
      expect(await card.getByTestId('pipeline-runUrl').locator('a').getAttribute('href')).toBe('https://ci.acme.dev/acme/checkout/runs/981');
      expect(await card.getByTestId('pipeline-commit').textContent()).toBe('9f1c2ab7e4d0');
      expect(await card.getByTestId('pipeline-version').textContent()).toBe('3.2.0');
      expect(await card.getByTestId('pipeline-environment').textContent()).toBe('production');
      expect(await card.getByTestId('callback-url').textContent()).toBe(`${receiver!.url}/ci`);

      const last = card.getByTestId('callback-last').getByTestId('delivery');
      await last.waitFor();
      expect(await last.getAttribute('data-event')).toBe('change.started');
      expect(await last.getAttribute('data-state')).toBe('delivered');
      expect(await last.getByTestId('delivery-http').textContent()).toBe('HTTP 204');
      expect(await last.getByTestId('delivery-attempts').textContent()).toBe('1 attempt');
      const earlier = card.getByTestId('callbacks-earlier');
      expect(await earlier.getByTestId('callbacks-earlier-summary').textContent()).toBe('1 earlier callback');
      expect(await earlier.getByTestId('delivery').isVisible()).toBe(false);
      await earlier.getByTestId('callbacks-earlier-summary').click();
      expect(await earlier.getByTestId('delivery').getAttribute('data-event')).toBe('change.approved');
      expect(await earlier.getByTestId('delivery').isVisible()).toBe(true);

      const ticket = card.getByTestId('pipeline-ticket');
      expect(await ticket.getByTestId('ticket-ref').textContent()).toBe('Webhook OPS-7');
      expect(await ticket.getByTestId('ticket-link').getAttribute('href')).toBe(TICKET.url);
      const steps = ticket.getByTestId('delivery');
      expect(await steps.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-event') ?? ''} ${e.getAttribute('data-state') ?? ''}`))).toEqual([
        'change.approved delivered',
        'change.started delivered',
      ]);
      expect(await steps.getByTestId('delivery-http').allTextContents()).toEqual(['HTTP 201', 'HTTP 204']);
      // Each attempt behind its disclosure: the callback's with the address it reached.
      await last.getByTestId('delivery-attempts').click();
      const cells = await last.getByTestId('delivery-attempt').locator('td').allTextContents();
      expect([cells[0], cells[2], cells[4]]).toEqual(['1', '204', '127.0.0.1']);
      expect(cells[3]).toMatch(/^\d+ ms$/);
      await steps.first().getByTestId('delivery-attempts').click();
      expect((await steps.first().getByTestId('delivery-attempt').locator('td').allTextContents())[2]).toBe('201');
      // The timeline tells of each delivery in a line.
      const opened = page.locator('[data-testid="timeline-entry"][data-action="change.ticket_step_delivered"]').first();
      expect(await opened.getByTestId('timeline-what').textContent()).toBe('Ticket step change.approved delivered (HTTP 201)');
      expect(await opened.getByTestId('timeline-details').textContent()).toBe('ticket OPS-7');
      await shoot(page, `deliveries-pipeline-card-${suffix}.png`);

      // The pipeline's endpoint goes down: the test callback is answered 503 and waits to retry.
      receiver!.answerWith((hit) => (hit.path === '/ci' ? { status: 503, body: { error: 'deploys paused' } } : healthy(hit)));
      await card.getByTestId('callback-test').click();
      const outcome = card.getByTestId('callback-test-result');
      await outcome.waitFor();
      expect(await outcome.getAttribute('data-state')).toBe('retrying');
      expect(await outcome.textContent()).toBe('Test callback retrying HTTP 503 — answered 503: {"error":"deploys paused"}Dismiss');
      const retrying = card.locator('[data-testid="callback-last"] [data-testid="delivery"][data-event="change.test"][data-state="retrying"]');
      await retrying.waitFor();
      expect(await retrying.getByTestId('delivery-http').textContent()).toBe('HTTP 503');
      expect(await retrying.getByTestId('delivery-error').textContent()).toBe('answered 503: {"error":"deploys paused"}');
      const next = (await deliveries()).deliveries.find((d) => d.event === 'change.test')!;
      expect(next.state).toBe('retrying');
      const shown = await page.evaluate((iso) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }), next.nextAttemptAt!);
      expect(await retrying.getByTestId('delivery-next').textContent()).toBe(`next attempt at ${shown}`);
      expect(await card.getByTestId('callbacks-earlier-summary').textContent()).toBe('2 earlier callbacks');
      // The page read the change again: its timeline tells of the test.
      await page.locator('[data-testid="timeline-entry"][data-action="change.callback_test"]').waitFor();
      expect(receiver!.hits.filter((h) => h.path === '/ci').map((h) => h.event)).toEqual(['change.approved', 'change.started', 'change.test']);
      await shoot(page, `deliveries-callback-retrying-${suffix}.png`);
      // The card alone, cut from the full page (an element shot scrolls, and the sticky bar covers it).
      await page.evaluate('window.scrollTo(0, 0)');
      const box = (await card.boundingBox())!;
      await snap(page, `deliveries-pipeline-card-detail-${suffix}.png`, { fullPage: true, clip: { x: box.x - 4, y: box.y - 4, width: box.width + 8, height: box.height + 8 } });
      expect(consoleErrors.filter((text) => !/\b401\b/.test(text))).toEqual([]);
    } finally {
      await context.close();
      receiver!.answerWith(healthy);
    }

    // An approver who neither owns the change nor the organisation reads the card, without the button.
    const other = await openPage(browser!);
    try {
      await signInAt(other.page, base, `/changes/${id}`, alice.user.email, PASSWORD);
      const card = other.page.getByTestId('change-pipeline-card');
      await card.getByTestId('callback-last').waitFor();
      expect(await card.getByTestId('callback-test').count()).toBe(0);
      expect(await card.getByTestId('ticket-link').textContent()).toBe('OPS-7');
      expect(other.consoleErrors.filter((text) => !/\b401\b/.test(text))).toEqual([]);
    } finally {
      await other.context.close();
    }
  }, 120_000);
});
