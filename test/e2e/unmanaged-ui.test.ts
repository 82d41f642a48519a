import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hasChromium, launchChromium, openPage, signInAt } from '../support/browser.js';
import { WallClock } from '../support/alert-stack.js';
import { shoot } from '../support/ui-suite.js';
import { webBundle } from '../support/deliveries-web.js';
import { describeEachEngine } from '../support/engines.js';
import { PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../support/test-app.js';

// Settings → Unmanaged changes in Debian's Chromium against the real app (in this process, its
// pipeline listener on a real port): the owner lists the authorized principals and turns the
// reference rule on through the page (a bad pattern is refused beside its line, nothing saved);
// the ITSM webhook token is minted and shown once, a new one asks first and ends the old one;
// tickets posted to the URLs the page shows are listed, counting or not with the reason; then a
// Kubernetes write nobody vouched for arrives at the audit webhook: "Try these settings" counts it,
// it is listed under the Unauthorized chip with its badge, and its page says why, who made it and
// the kubectl command a person may run to undo it (changeledger never runs it), on a phone too.

if (!hasChromium) console.warn('chromium not installed: unmanaged changes UI test skipped');

const artifactsDir = join(process.cwd(), 'test-artifacts');
const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: standard }
`;
type Json = Record<string, unknown>;
const NARROW = { width: 390, height: 860 };
const PRINCIPALS = ['system:serviceaccount:jenkins:*', 'arn:aws:iam::*:role/deploy-*'];

let bundle: ReturnType<typeof webBundle> | undefined;
const web = () => (bundle ??= webBundle());

/** One patch of deployments/checkout as the Kubernetes API server's audit webhook backend sends it (audit.k8s.io/v1 EventList). */
function auditList(o: { auditID: string; user: string; at: string; image: string }): Json {
  const metadata = { name: 'checkout', namespace: 'shop', labels: { 'app.kubernetes.io/name': 'checkout-api' } };
  return {
    kind: 'EventList',
    apiVersion: 'audit.k8s.io/v1',
    metadata: {},
    items: [{
      kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'RequestResponse', auditID: o.auditID, stage: 'ResponseComplete',
      requestURI: '/apis/apps/v1/namespaces/shop/deployments/checkout', verb: 'patch',
      user: { username: o.user, uid: `uid-${o.auditID.slice(-4)}`, groups: ['system:authenticated'] },
      sourceIPs: ['10.0.0.7'], userAgent: 'kubectl/v1.30.0',
      objectRef: { resource: 'deployments', namespace: 'shop', name: 'checkout', apiGroup: 'apps', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 200 },
      requestObject: { spec: { template: { spec: { containers: [{ name: 'app', image: o.image }] } } } },
      responseObject: { kind: 'Deployment', apiVersion: 'apps/v1', metadata },
      requestReceivedTimestamp: o.at, stageTimestamp: o.at,
      annotations: { 'authorization.k8s.io/decision': 'allow' },
    }],
  };
}

describeEachEngine('Settings → Unmanaged changes and unauthorized writes in the web UI', (engine) => {
  let t: TestApp | undefined;
  let base = '';
  let pipelineBase = '';
  let browser: Browser | undefined;
  let owner: SignedIn;
  let adam: SignedIn;
  const suffix = engine.name;
  let k8sEndpoint = '';
  let k8sSecret = '';

  const inject = async (s: SignedIn, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json) => {
    const r = await t!.main.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload }) });
    expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
    return r.json() as Json;
  };
  // A sender on the network: the real pipeline listener.
  const post = (url: string, token: string | null, body: Json) =>
    fetch(url, { method: 'POST', headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    if (!hasChromium) return;
    await mkdir(artifactsDir, { recursive: true });
    t = await testApp(engine.db(), { webDir: (await web()).dir, clock: new WallClock() });
    await t.main.listen({ port: 0, host: '127.0.0.1' });
    await t.pipeline.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${String((t.main.server.address() as { port: number }).port)}`;
    pipelineBase = `http://127.0.0.1:${String((t.pipeline.server.address() as { port: number }).port)}`;
    const made = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Acme', email: `olivia.${suffix}@acme.dev`, password: PASSWORD });
    owner = await signIn(t, made.org, made.owner, PASSWORD);
    const { user } = await t.services.auth.addMember(testCtx, { org: made.org.slug, email: `adam.${suffix}@acme.dev`, role: 'admin', displayName: 'Adam Admin', password: PASSWORD });
    adam = await signIn(t, made.org, user, PASSWORD);
    const imported = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imported.statusCode, imported.body).toBe(200);
    // The cluster's audit webhook, connected through the API as Settings → Change sources does.
    const k8s = await inject(owner, 'POST', '/api/change-sources', { kind: 'kubernetes', name: 'prod-eu', config: { cluster: 'prod-eu' } });
    k8sSecret = k8s['secret'] as string;
    k8sEndpoint = (k8s['source'] as { endpoint: string }).endpoint;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await t?.close();
    (await bundle)?.dispose();
  }, 60_000);

  it.skipIf(!hasChromium)('the owner lists the authorized principals and turns the rule on through the page; a bad pattern is refused beside its line and nothing is saved', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/settings/unmanaged-changes', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      expect(await page.locator('h1').textContent()).toBe('Unmanaged changes');
      expect(await page.getByTestId('nav-unmanaged-changes').getAttribute('aria-current')).toBe('page');
      const rule = page.getByTestId('unmanaged-rule');
      await rule.waitFor();
      expect(await rule.isChecked()).toBe(false);
      expect(await rule.isDisabled()).toBe(false);
      expect(await page.getByTestId('unmanaged-rule-card').textContent()).toContain('Denied attempts are never judged');
      expect(await page.getByTestId('itsm-tickets-empty').count()).toBe(1);
      await shoot(page, `unmanaged-settings-initial-${suffix}.png`);

      // The rule on, and a pattern the server cannot read on line 3 (a blank line between).
      await rule.check();
      await page.getByTestId('unmanaged-no-principals').waitFor();
      await page.getByTestId('unmanaged-principals').fill(`${PRINCIPALS[0]!}\n\narn:aws:iam::*:role/deploy-[`);
      expect(await page.getByTestId('unmanaged-no-principals').count()).toBe(0);
      await page.getByTestId('unmanaged-save').click();
      const refusal = page.getByTestId('unmanaged-rule-card').locator('[data-testid="field-error"][data-field="authorizedPrincipals.1"]');
      await refusal.waitFor();
      expect(await refusal.getAttribute('data-line')).toBe('3');
      const said = (await refusal.textContent()) ?? '';
      expect(said).toMatch(/^Line 3: /);
      expect(said).toContain('Missing closing');
      expect(await page.getByTestId('unmanaged-principals').getAttribute('aria-invalid')).toBe('true');
      const unsaved = await inject(owner, 'GET', '/api/unmanaged-settings');
      expect(unsaved['referenceRule']).toBe(false);
      expect(unsaved['authorizedPrincipals']).toEqual([]);
      await shoot(page, `unmanaged-settings-refused-${suffix}.png`);
      // The browser logs the refused request; nothing else may.
      consoleErrors.length = 0;

      await page.getByTestId('unmanaged-principals').fill(PRINCIPALS.join('\n'));
      await page.getByTestId('unmanaged-save').click();
      await expect.poll(() => page.getByTestId('unmanaged-saved').textContent()).toContain('The reference rule is on');
      expect(await refusal.count()).toBe(0);
      const stored = await inject(owner, 'GET', '/api/unmanaged-settings');
      expect(stored['referenceRule']).toBe(true);
      expect(stored['authorizedPrincipals']).toEqual(PRINCIPALS);
      // Saved for good: a reload reads it back.
      await page.reload();
      await rule.waitFor();
      expect(await rule.isChecked()).toBe(true);
      expect(await page.getByTestId('unmanaged-principals').inputValue()).toBe(PRINCIPALS.join('\n'));
      await shoot(page, `unmanaged-settings-saved-${suffix}.png`);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }

    // An admin changes the rest but not the owner's switch.
    const admin = await openPage(browser!);
    try {
      await signInAt(admin.page, base, '/settings/unmanaged-changes', adam.user.email, PASSWORD);
      await admin.page.getByTestId('unmanaged-rule-owner-only').waitFor();
      expect(await admin.page.getByTestId('unmanaged-rule').isDisabled()).toBe(true);
      expect(await admin.page.getByTestId('unmanaged-principals').isDisabled()).toBe(false);
      expect(await admin.page.getByTestId('itsm-token-mint').count()).toBe(1);
    } finally {
      await admin.context.close();
    }
  });

  it.skipIf(!hasChromium)('the ITSM webhook token is shown once; the URLs are the pipeline listener\'s; tickets sent there are listed, counting only with the token; a new token asks first and ends the old one', async () => {
    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/settings/unmanaged-changes', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      const card = page.getByTestId('itsm-token-card');
      await card.waitFor();
      expect(await page.getByTestId('itsm-token-state').textContent()).toContain('No ITSM webhook token yet');
      const urls = await page.getByTestId('itsm-url').allTextContents();
      expect(urls).toEqual([`${pipelineBase}/api/itsm/servicenow`, `${pipelineBase}/api/itsm/jira`]);
      await page.locator('[data-testid="itsm-system"][data-system="servicenow"] summary').click();
      expect(await page.getByTestId('itsm-curl-servicenow').textContent()).toContain(`curl -X POST '${pipelineBase}/api/itsm/servicenow'`);

      await page.getByTestId('itsm-token-mint').click();
      await page.getByTestId('itsm-token-secret').waitFor();
      expect(await page.getByTestId('itsm-token-secret-warning').textContent()).toContain('you will not see it again');
      const token = ((await page.getByTestId('itsm-token-secret-value').textContent()) ?? '').trim();
      expect(token).toMatch(/^clitsm_/);
      expect(await page.getByTestId('itsm-token-state').textContent()).toContain('A token is set');
      await shoot(page, `unmanaged-itsm-token-${suffix}.png`);

      // Tickets at the URLs the page shows: with the token it counts; without it (?org=) it is kept and does not.
      const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const sn = await post(urls[0]!, token, {
        number: 'CHG0030001', short_description: 'Resize the payments database', state: 'Implement', start_date: `${day} 09:00:00`, end_date: `${day} 10:00:00`,
        cmdb_ci: 'payments-db', assignment_group: 'DBA', sys_id: '0123456789abcdef0123456789abcdef',
      });
      expect(sn.status, await sn.text()).toBe(201);
      const jira = await post(`${urls[1]!}?org=${owner.org.slug}`, null, {
        webhookEvent: 'jira:issue_created',
        issue: { key: 'OPS-7', self: 'https://acme.atlassian.net/rest/api/2/issue/10007', fields: { summary: 'Rotate the search cluster', status: { name: 'In Progress' }, components: [{ name: 'search-api' }] } },
      });
      expect(jira.status, await jira.text()).toBe(201);

      // Dismissed and reloaded: the token is nowhere on the page; the tickets are listed.
      await page.getByTestId('itsm-token-secret-dismiss').click();
      await page.reload();
      const rows = page.getByTestId('itsm-ticket');
      await rows.first().waitFor();
      expect(await page.locator('body').textContent()).not.toContain(token);
      const snRow = rows.filter({ hasText: 'CHG0030001' });
      expect(await snRow.getAttribute('data-verified')).toBe('true');
      expect(await snRow.getByTestId('itsm-ticket-counts').textContent()).toBe('yes');
      const jiraRow = rows.filter({ hasText: 'OPS-7' });
      expect(await jiraRow.getByTestId('itsm-ticket-counts').textContent()).toMatch(/^no.*without the organisation's ITSM webhook token/);
      expect(await jiraRow.getByTestId('itsm-ticket-key').getAttribute('href')).toBe('https://acme.atlassian.net/browse/OPS-7');
      await page.getByTestId('itsm-tickets').scrollIntoViewIfNeeded();
      await shoot(page, `unmanaged-itsm-tickets-${suffix}.png`);

      // A new token: asked first; the old one is refused from then on.
      await page.getByTestId('itsm-token-remint').click();
      expect(await page.getByTestId('itsm-token-confirm-text').textContent()).toContain('stops working');
      await page.getByTestId('itsm-token-confirm').click();
      await page.getByTestId('itsm-token-secret').waitFor();
      const second = ((await page.getByTestId('itsm-token-secret-value').textContent()) ?? '').trim();
      expect(second).toMatch(/^clitsm_/);
      expect(second).not.toBe(token);
      expect((await post(urls[0]!, token, { number: 'CHG0030002', short_description: 'x' })).status).toBe(401);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.skipIf(!hasChromium)('a Kubernetes write nobody vouched for: the dry run counts it, the Unauthorized chip lists it with its badge, and its page says why and drafts the kubectl command to undo it', async () => {
    const now = Date.now();
    // A person's patch (nothing vouches for it) and a Jenkins service account's (an authorized principal).
    const byAlice = await post(k8sEndpoint, k8sSecret, auditList({ auditID: 'b1c2d3e4-0000-4000-8000-000000000001', user: 'alice@acme.dev', at: new Date(now - 60_000).toISOString(), image: 'shop/checkout:2.6' }));
    expect(byAlice.status, await byAlice.text()).toBeLessThan(300);
    const byJenkins = await post(k8sEndpoint, k8sSecret, auditList({ auditID: 'b1c2d3e4-0000-4000-8000-000000000002', user: 'system:serviceaccount:jenkins:deployer', at: new Date(now - 30_000).toISOString(), image: 'shop/checkout:2.7' }));
    expect(byJenkins.status, await byJenkins.text()).toBeLessThan(300);

    const { page, context, consoleErrors } = await openPage(browser!);
    try {
      await signInAt(page, base, '/settings/unmanaged-changes', owner.user.email, PASSWORD);
      consoleErrors.length = 0;
      // The saved settings: one of the two flagged, the other vouched for by its principal.
      await page.getByTestId('unmanaged-try').click();
      const dry = page.getByTestId('dry-run');
      await dry.waitFor();
      expect(await dry.getAttribute('data-flagged')).toBe('1');
      expect(await dry.getAttribute('data-judged')).toBe('2');
      expect(await page.getByTestId('dry-run-summary').textContent()).toBe('With these settings, 1 of the last 7 days’ 2 writes would have been flagged.');
      expect(await page.locator('[data-testid="dry-run-reference"][data-reference="authorized_principal"]').textContent()).toMatch(/^1 /);
      const example = page.getByTestId('dry-run-example');
      expect(await example.count()).toBe(1);
      expect(await example.textContent()).toContain('alice@acme.dev');
      expect(await example.getByTestId('dry-run-example-link').getAttribute('href')).toMatch(/^\/changes\/obs_/);
      await dry.scrollIntoViewIfNeeded();
      await shoot(page, `unmanaged-dry-run-${suffix}.png`);

      // Unsaved: without the principals both would be flagged; nothing is saved by a try.
      await page.getByTestId('unmanaged-principals').fill('');
      await page.getByTestId('dry-run-stale').waitFor();
      await page.getByTestId('unmanaged-try').click();
      await expect.poll(() => dry.getAttribute('data-flagged')).toBe('2');
      expect(await page.getByTestId('dry-run-stale').count()).toBe(0);
      expect((await inject(owner, 'GET', '/api/unmanaged-settings'))['authorizedPrincipals']).toEqual(PRINCIPALS);

      // The one list: the Unauthorized chip keeps alice's write only, kept in the URL.
      await page.goto(new URL('/changes', base).toString());
      const rows = page.getByTestId('change-row');
      const alice = rows.filter({ hasText: 'alice@acme.dev' });
      await alice.waitFor();
      expect(await alice.getAttribute('data-authorized')).toBe('false');
      expect(await alice.getByTestId('record-unauthorized').textContent()).toBe('Unauthorized');
      const jenkins = rows.filter({ hasText: 'system:serviceaccount:jenkins:deployer' });
      expect(await jenkins.getByTestId('record-unauthorized').count()).toBe(0);
      await page.locator('[data-testid="source-chip"][data-chip="unauthorized"]').click();
      await page.waitForURL((url) => url.searchParams.get('chip') === 'unauthorized');
      await expect.poll(() => jenkins.count()).toBe(0);
      await alice.waitFor();
      await page.reload();
      await alice.waitFor();
      expect(await page.locator('[data-testid="source-chip"][data-chip="unauthorized"]').getAttribute('aria-pressed')).toBe('true');
      expect(await rows.count()).toBe(1);
      await shoot(page, `unmanaged-list-unauthorized-${suffix}.png`);

      // Its page: why it was flagged, who made it, and the command to undo it.
      await alice.getByTestId('change-title').click();
      await page.waitForURL((url) => url.pathname.startsWith('/changes/obs_'));
      const verdict = page.getByTestId('observed-authorization');
      await verdict.waitFor();
      expect(await verdict.getAttribute('data-authorized')).toBe('false');
      expect(await verdict.textContent()).toMatch(/^Unauthorized: no reference found/);
      expect(await page.getByTestId('observed-unauthorized').textContent()).toBe('Unauthorized');
      expect(await page.getByTestId('observed-principal-class').getAttribute('data-class')).toBe('human');
      expect(await page.getByTestId('observed-principal-class-reason').textContent()).toContain('alice@acme.dev');
      const revert = page.getByTestId('observed-revert');
      expect(await revert.getAttribute('data-tool')).toBe('kubectl');
      expect(await page.getByTestId('observed-revert-command').textContent()).toMatch(/^kubectl rollout undo deployments\/checkout -n shop/);
      expect(await page.getByTestId('observed-revert-note').textContent()).toContain('changeledger never runs this command');
      expect(await page.getByTestId('observed-revert-copy').textContent()).toBe('Copy the command');
      await shoot(page, `unmanaged-observed-unauthorized-${suffix}.png`);

      // The Jenkins write says what vouched for it.
      await page.goto(new URL('/changes', base).toString());
      await jenkins.getByTestId('change-title').click();
      await page.waitForURL((url) => url.pathname.startsWith('/changes/obs_'));
      await verdict.waitFor();
      expect(await verdict.getAttribute('data-authorized')).toBe('true');
      expect(await verdict.textContent()).toContain('authorized principal (system:serviceaccount:jenkins:*)');
      expect(await page.getByTestId('observed-principal-class').getAttribute('data-class')).toBe('pipeline');
      await shoot(page, `unmanaged-observed-authorized-${suffix}.png`);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }

    // A phone: the unauthorized write's page stays inside the screen, its command readable.
    const narrow = await openPage(browser!, NARROW);
    try {
      await signInAt(narrow.page, base, '/changes?chip=unauthorized', owner.user.email, PASSWORD);
      await narrow.page.getByTestId('change-row').first().getByTestId('change-title').click();
      await narrow.page.getByTestId('observed-revert').waitFor();
      expect(await narrow.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW.width);
      await shoot(narrow.page, `unmanaged-observed-narrow-${suffix}.png`);
      await narrow.page.goto(new URL('/settings/unmanaged-changes', base).toString());
      await narrow.page.getByTestId('unmanaged-rule').waitFor();
      expect(await narrow.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW.width);
      await shoot(narrow.page, `unmanaged-settings-narrow-${suffix}.png`);
    } finally {
      await narrow.context.close();
    }
  });
});
