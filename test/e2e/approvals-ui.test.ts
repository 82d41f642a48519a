import { readFile } from 'node:fs/promises';
import { type Locator, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../support/browser.js';
import { runCli } from '../support/spawn-server.js';
import { shoot, uiSuite } from '../support/ui-suite.js';

// Settings → Change approvals and the change page, in the built UI (dist/web) against a real
// server in Debian's Chromium: a quorum set while nobody is designated is a warning, not an
// error; a refusal leaves the screen once it is resolved; the Critical switch is not red; the
// critical marking shows on critical changes only; the requester who is the only critical
// approver is named; autoStart is told as the automation's; counts read in the singular; the
// dependency map opens fitted; a name with no candidate says what to do, and the red border
// of the components goes once they change.

if (!hasChromium) console.warn('chromium not installed: approvals UI test skipped');

const password = 'correct-horse-battery-staple';
const owner = { email: 'owner@example.test', name: 'Olivia Owner' };
const alice = { email: 'alice@acme.io', name: 'Alice Approver' };
const carol = { email: 'carol@acme.io', name: 'Carol Critical' };
const mia = { email: 'mia@example.test', name: 'Mia Requester' };
const estate = new URL('../fixtures/changes/estate.yaml', import.meta.url);

type Session = { cookie: string; csrf: string };

async function apiSession(baseUrl: string, email: string): Promise<Session> {
  const r = await fetch(new URL('/api/session', baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  expect(r.status).toBe(200);
  const { csrfToken } = (await r.json()) as { csrfToken: string };
  return { cookie: r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), csrf: csrfToken };
}

async function call(baseUrl: string, s: Session | { token: string }, method: string, path: string, body: unknown, contentType = 'application/json'): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const headers: Record<string, string> = 'token' in s ? { authorization: `Bearer ${s.token}` } : { cookie: s.cookie, 'x-csrf-token': s.csrf };
  const r = await fetch(new URL(path, baseUrl), { method, headers: { ...headers, 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await r.text();
  expect(r.ok, `${method} ${path}: ${text}`).toBe(true);
  return JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('approvals web UI', () => {
  let token = '';
  const suite = uiSuite({
    name: 'approvals-ui',
    owner: { email: owner.email, password, args: ['--name', owner.name] },
    prepare: async (dataDir) => {
      for (const who of [alice, carol, mia]) {
        const added = await runCli(['users', 'add', '--email', who.email, '--name', who.name, '--role', 'member', '--password-stdin', '--data', dataDir], { input: `${password}\n` });
        if (added.code !== 0) throw new Error(`users add failed (${String(added.code)}): ${added.stderr}`);
      }
      const made = await runCli(['tokens', 'create', '--user', mia.email, '--name', 'deploy', '--scopes', 'changes:read,changes:write', '--json', '--data', dataDir]);
      if (made.code !== 0) throw new Error(`tokens create failed (${String(made.code)}): ${made.stderr}`);
      token = (JSON.parse(made.stdout) as { secret: string }).secret;
    },
    ready: async (server) => {
      const s = await apiSession(server.url, owner.email);
      await call(server.url, s, 'POST', '/api/catalog/imports?format=changeledger&source=cmdb', await readFile(estate, 'utf8'), 'application/yaml');
    },
    timeoutMs: 240_000,
  });

  const open = async (email: string, path: string, width = 1440): Promise<Page> => {
    const { server, browser } = suite();
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(new URL(path, server.url).toString());
    await page.waitForURL((url) => url.pathname === '/signin');
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL((url) => url.pathname === path);
    return page;
  };
  // Alice and Carol approve, Carol is critical, one approval is the quorum — whatever an earlier test left.
  const designate = async (baseUrl: string): Promise<void> => {
    const o = await apiSession(baseUrl, owner.email);
    const org = (await call(baseUrl, o, 'GET', '/api/session', undefined)).organization.id as string;
    const members = (await call(baseUrl, o, 'GET', `/api/organizations/${org}/members`, undefined)).members as Array<{ userId: string; email: string }>;
    const id = (email: string): string => members.find((m) => m.email === email)!.userId;
    await call(baseUrl, o, 'PUT', `/api/organizations/${org}/change-approvers`, { userIds: [id(alice.email), id(carol.email)], criticalUserIds: [id(carol.email)] });
    await call(baseUrl, o, 'PUT', `/api/organizations/${org}/change-settings`, { quorum: 1 });
  };
  const row = (page: Page, email: string): Locator => page.locator(`[data-testid="approver-row"][data-email="${email}"]`);

  it.skipIf(!hasChromium)(
    'settings: a quorum while approvers are being designated is a warning; a resolved refusal leaves; Critical on is not red',
    async () => {
      const page = await open(owner.email, '/settings/changes');
      const form = page.getByTestId('change-settings-form');
      await form.waitFor();
      const quorum = page.getByLabel('Quorum', { exact: true });
      const quorumError = form.locator('[data-testid="field-error"][data-field="quorum"]');

      // Nobody designated, quorum 2 → 1: as short as before, so taken, with the warning.
      await quorum.fill('1');
      await page.getByTestId('settings-save').click();
      await page.getByTestId('settings-saved').or(quorumError).first().waitFor();
      await shoot(page, 'approvals-settings-quorum-1.png');
      expect(await quorumError.count()).toBe(0);
      expect(await quorum.getAttribute('aria-invalid')).toBeNull();
      const warning = page.getByTestId('settings-warning');
      expect(await warning.textContent()).toContain('only 0 approvers are designated for a quorum of 1');
      expect(await warning.getAttribute('class')).toContain('banner-warn');

      for (const who of [alice, carol]) {
        await row(page, who.email).getByTestId('approver-switch').check();
        await page.locator(`[data-testid="approver-row"][data-email="${who.email}"][data-approver="true"]`).waitFor();
      }
      expect(await page.getByTestId('settings-warning').count()).toBe(0);

      // Two approvers reach a quorum of 2; 3 is refused under the field — and the error goes as the quorum is edited.
      await quorum.fill('3');
      await page.getByTestId('settings-save').click();
      await quorumError.waitFor();
      expect(await quorumError.textContent()).toContain('cannot be above the number of approvers (2)');
      await quorum.fill('2');
      expect(await quorumError.count()).toBe(0);
      expect(await quorum.getAttribute('aria-invalid')).toBeNull();
      await page.getByTestId('settings-save').click();
      await page.getByTestId('settings-saved').waitFor();

      // Removing one would leave the quorum out of reach: refused; lowering the quorum resolves it, and the error leaves.
      // A press, not uncheck(): the refused switch flips back as soon as the answer arrives, which
      // on a fast answer is before uncheck() looks, so uncheck() would call the press a failure.
      await row(page, alice.email).getByTestId('approver-switch').click();
      const approversError = page.getByTestId('approvers-error');
      await approversError.waitFor();
      expect(await approversError.textContent()).toContain('lower the quorum first');
      expect(await row(page, alice.email).getByTestId('approver-switch').isChecked()).toBe(true);
      await quorum.fill('1');
      await page.getByTestId('settings-save').click();
      await page.getByTestId('settings-saved').waitFor();
      expect(await approversError.count()).toBe(0);

      // Critical on: the accent, not the red of an error, and not Approver's green either.
      await row(page, carol.email).getByTestId('critical-switch').check();
      await page.locator(`[data-testid="approver-row"][data-email="${carol.email}"][data-critical="true"]`).waitFor();
      await shoot(page, 'approvals-settings.png');
      const colour = async (l: Locator): Promise<string> => l.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor ?? '');
      const critical = await colour(row(page, carol.email).getByTestId('critical-switch'));
      const approver = await colour(row(page, carol.email).getByTestId('approver-switch'));
      // The error red, as the stylesheet's token resolves (the colour of an error message).
      const danger = await colourOf(page, 'var(--danger)');
      expect(critical).not.toBe(danger);
      expect(critical).not.toBe(approver);
      expect(contrastWithWhite(critical), critical).toBeGreaterThanOrEqual(3);
      await page.context().close();
    },
    120_000,
  );

  it.skipIf(!hasChromium)(
    'change page: names the requester who is the only critical approver; marks critical approvers on critical changes only; the map opens fitted',
    async () => {
      const { server } = suite();
      await designate(server.url);
      const carolSession = await apiSession(server.url, carol.email);
      const registered = await call(server.url, carolSession, 'POST', '/api/changes', { title: 'Rotate the payments-api keys', kind: 'config', components: [{ query: 'payments-api' }], hops: 2 });
      const id = registered.change.id as string;
      expect(registered.change).toMatchObject({ status: 'pending_approval', criticality: 'critical' });

      const page = await open(alice.email, `/changes/${id}`, 1280);
      const blocked = page.getByTestId('approval-blocked');
      await blocked.waitFor();
      await page.getByTestId('dependency-map').waitFor();
      await page.locator('[data-testid="dependency-map"][aria-busy="false"]').waitFor();
      await page.waitForTimeout(300);
      await shoot(page, 'approvals-change-critical.png');
      expect(await blocked.textContent()).toBe(`Needs a critical approver: the only critical approver, ${carol.name}, requested this change and cannot approve it — an owner or admin can mark another approver Critical`);
      const carolRow = page.locator('[data-testid="approver"]').filter({ hasText: carol.name });
      expect(await carolRow.getByTestId('approver-critical').textContent()).toBe('critical approver');

      // Every card of the map is inside the viewport, none cut at its left edge.
      const viewport = await page.getByTestId('map-viewport').boundingBox();
      const cards = await page.getByTestId('map-card').evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, key: e.getAttribute('data-key') }; }));
      expect(cards.length).toBeGreaterThan(4);
      for (const c of cards) {
        expect(c.left, `${c.key ?? ''} starts inside the map`).toBeGreaterThanOrEqual(viewport!.x - 1);
        expect(c.right, `${c.key ?? ''} ends inside the map`).toBeLessThanOrEqual(viewport!.x + viewport!.width + 1);
      }
      await page.context().close();
    },
    120_000,
  );

  it.skipIf(!hasChromium)(
    'change page: autoStart starts it as the automation, on the approval; counts in the singular; "starts when approved" only while it waits',
    async () => {
      const { server } = suite();
      await designate(server.url);
      const made = await call(server.pipelineUrl, { token }, 'POST', '/api/changes', { title: 'Deploy storefront 5.1', kind: 'deploy', components: [{ query: 'storefront' }], autoStart: true, maxDurationMinutes: 30 });
      const id = made.change.id as string;
      const page = await open(alice.email, `/changes/${id}`);
      await page.getByTestId('approval-panel').waitFor();
      expect(await page.getByTestId('change-window').textContent()).toContain('starts when approved');
      // A standard change: nobody is marked critical.
      expect(await page.getByTestId('approver').count()).toBe(2);
      expect(await page.getByTestId('approver-critical').count()).toBe(0);
      expect(await page.getByTestId('approval-count').textContent()).toBe('0 of 1 approval');
      await shoot(page, 'approvals-autostart-waiting.png');

      await page.getByTestId('approve').click();
      await page.getByTestId('change-notice').filter({ hasText: 'Approved: the quorum is reached (1 of 1)' }).waitFor();
      expect(await page.getByTestId('change-header').getByTestId('change-status').getAttribute('data-status')).toBe('active');
      expect(await page.getByTestId('change-window').textContent()).not.toContain('starts when approved');
      const entry = (action: string): Locator => page.locator(`[data-testid="timeline-entry"][data-action="${action}"]`);
      expect(await entry('change.approved').getByTestId('timeline-what').textContent()).toBe('completed the quorum: the change is approved with 1 approval');
      const started = entry('change.started');
      expect(await started.getByTestId('timeline-what').textContent()).toBe(`Started automatically (autoStart) on approval by ${alice.name}`);
      expect(await started.getByTestId('timeline-automation').count()).toBe(1);
      expect(await started.getByTestId('timeline-actor').count()).toBe(0);

      // Finished, it still does not promise to start.
      await call(server.pipelineUrl, { token }, 'POST', `/api/changes/${id}/complete`, {});
      await page.reload();
      await page.getByTestId('change-header').waitFor();
      expect(await page.getByTestId('change-header').getByTestId('change-status').getAttribute('data-status')).toBe('evaluating');
      expect(await page.getByTestId('change-window').textContent()).not.toContain('starts when approved');
      await shoot(page, 'approvals-autostart.png');
      await page.context().close();
    },
    120_000,
  );

  it.skipIf(!hasChromium)(
    'names with no candidate say what to do, on the change page and the register form; the red border goes once the names change',
    async () => {
      const { server } = suite();
      const made = await call(server.pipelineUrl, { token }, 'POST', '/api/changes', { title: 'Migrate the fraud scorer', components: [{ query: 'fraud-scorer' }] });
      expect(made.change.status).toBe('pending_mapping');
      const page = await open(mia.email, `/changes/${made.change.id as string}`);
      const mappingRow = page.locator('[data-testid="mapping-row"][data-query="fraud-scorer"]');
      await mappingRow.waitFor();
      await shoot(page, 'approvals-mapping-no-candidate.png');
      expect(await mappingRow.getByTestId('mapping-no-candidate').textContent()).toContain('Nothing in the catalogue is called that');
      expect(await mappingRow.getByTestId('mapping-create').count()).toBe(1);

      await page.goto(new URL('/changes/new', server.url).toString());
      const components = page.getByLabel('Components', { exact: true });
      await page.getByLabel('Title', { exact: true }).fill('Deploy payments-api 2.5');
      await components.fill('payments-api');
      await page.locator('[data-testid="resolved"][data-key="svc:payments-api"]').waitFor();
      expect(await components.getAttribute('aria-invalid')).toBeNull();

      await components.fill('payments-api\nfraud-scorer');
      await page.getByTestId('change-submit').click();
      const refused = page.getByTestId('register-unresolved');
      await refused.waitFor();
      await shoot(page, 'approvals-register-no-candidate.png');
      const text = (await refused.textContent()) ?? '';
      expect(text).toContain('fraud-scorer (nothing in the catalogue matches it)');
      expect(text).toContain('register the entity in the catalogue first');
      expect(text).not.toContain('pick one of the candidates');
      expect(await components.getAttribute('aria-invalid')).toBe('true');

      await components.fill('payments-api');
      await page.locator('[data-testid="resolved"][data-key="svc:payments-api"]').waitFor();
      expect(await components.getAttribute('aria-invalid')).toBeNull();
      expect(await refused.count()).toBe(0);
      await shoot(page, 'approvals-register-fixed.png');
      await page.context().close();
    },
    120_000,
  );
});

async function colourOf(page: Page, css: string): Promise<string> {
  return page.evaluate<string>(`(() => { const p = document.createElement('span'); p.style.backgroundColor = ${JSON.stringify(css)}; document.body.append(p); const c = getComputedStyle(p).backgroundColor; p.remove(); return c; })()`);
}

// WCAG's contrast ratio of an rgb() colour against white.
function contrastWithWhite(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => Number(v) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const l = 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  return 1.05 / (l + 0.05);
}
