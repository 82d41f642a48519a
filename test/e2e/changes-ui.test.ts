import { readFile } from 'node:fs/promises';
import { type Locator, type Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../support/browser.js';
import { startSmtpCapture, type SmtpCapture } from '../support/smtp-capture.js';
import { runCli } from '../support/spawn-server.js';
import { shoot, snap, uiSuite } from '../support/ui-suite.js';

// Drives the change pages of the built UI (dist/web, produced by `npm run build`) against a
// real server process in Debian's Chromium. An owner requires approval by a quorum of two and
// designates two approvers, one critical, on Settings → Change approvals; a member registers
// a change of a critical service through the form (the scope line, the candidates of a name
// that is two databases); each approver opens the approve link of the e-mail signed out,
// signs in, lands on the change and approves; the member starts and completes it, and the
// timeline tells each step. A pipeline's change with unknown names is mapped on its page.
//
// The approve link is the one in each approver's "Approval needed" e-mail, caught by an SMTP
// server on loopback (smtp-server): /?view=changes&change=<id>&approve=1 on the server's URL.

if (!hasChromium) console.warn('chromium not installed: changes UI test skipped');

const password = 'correct-horse-battery-staple';
const owner = { email: 'owner@example.test', name: 'Olivia Owner' };
const requester = { email: 'mia@example.test', name: 'Mia Requester' };
// Approvers on a real-looking domain: reserved test domains are never handed to a mail server.
const approver = { email: 'alice@acme.io', name: 'Alice Approver' };
const critical = { email: 'carol@acme.io', name: 'Carol Critical' };
const estate = new URL('../fixtures/changes/estate.yaml', import.meta.url);

type Session = { cookie: string; csrf: string };

async function addMember(dataDir: string, who: { email: string; name: string }): Promise<void> {
  const added = await runCli(['users', 'add', '--email', who.email, '--name', who.name, '--role', 'member', '--password-stdin', '--data', dataDir], { input: `${password}\n` });
  if (added.code !== 0) throw new Error(`users add failed (${String(added.code)}): ${added.stderr}`);
}

async function apiSession(baseUrl: string, email: string): Promise<Session> {
  const r = await fetch(new URL('/api/session', baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  expect(r.status).toBe(200);
  const { csrfToken } = (await r.json()) as { csrfToken: string };
  return { cookie: r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), csrf: csrfToken };
}

async function call(baseUrl: string, s: Session, method: string, path: string, body: string, contentType = 'application/json'): Promise<unknown> {
  const r = await fetch(new URL(path, baseUrl), { method, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': contentType }, body });
  const text = await r.text();
  expect(r.ok, `${method} ${path}: ${text}`).toBe(true);
  return JSON.parse(text) as unknown;
}

// The approve link of the "Approval needed" e-mail to this person about this change (the
// outbox sends from the server's worker, so it may take a poll or two).
async function approveLinkFor(smtp: SmtpCapture, email: string, title: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = smtp.messages.find((m) => m.envelope.to.includes(email) && m.mail.subject === `Approval needed: ${title}`);
    if (mail !== undefined) {
      const link = /^Approve or reject: (\S+)$/m.exec(mail.mail.text ?? '')?.[1];
      if (link === undefined) throw new Error(`no approve link in the mail to ${email}:\n${mail.mail.text ?? ''}`);
      return link;
    }
    if (Date.now() > deadline) throw new Error(`no "Approval needed: ${title}" mail to ${email}; got ${smtp.messages.map((m) => `${m.envelope.to.join(',')}: ${m.mail.subject ?? ''}`).join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('change pages web UI', () => {
  let smtp: SmtpCapture | undefined;
  let requesterToken = '';
  const suite = uiSuite({
    name: 'changes-ui',
    owner: { email: owner.email, password, args: ['--name', owner.name] },
    prepare: async (dataDir) => {
      for (const who of [requester, approver, critical]) await addMember(dataDir, who);
      // A member does not create tokens; an operator makes the requester's pipeline token.
      const made = await runCli(['tokens', 'create', '--user', requester.email, '--name', 'deploy', '--scopes', 'changes:read,changes:write', '--json', '--data', dataDir]);
      if (made.code !== 0) throw new Error(`tokens create failed (${String(made.code)}): ${made.stderr}`);
      requesterToken = (JSON.parse(made.stdout) as { secret: string }).secret;
      smtp = await startSmtpCapture();
      return { CHANGELEDGER_SMTP_URL: smtp.url, CHANGELEDGER_MAIL_FROM: 'changeledger <changes@acme.io>' };
    },
    ready: async (server) => {
      const s = await apiSession(server.url, owner.email);
      await call(server.url, s, 'POST', '/api/catalog/imports?format=changeledger&source=cmdb', await readFile(estate, 'utf8'), 'application/yaml');
    },
    // Six processes open the embedded database before Chromium starts (the owner, three members, a
    // token, the server): 90 s ran out with two test runs sharing two cores. A guard against a hang only.
    timeoutMs: 240_000,
  });

  afterAll(async () => {
    await smtp?.close().catch(() => undefined);
  });

  it.skipIf(!hasChromium)(
    'takes a critical change from the settings through the form, two approvals from the e-mail link, start and completion',
    async () => {
      const { server, browser } = suite();
      const base = server.url;
      const consoleErrors: string[] = [];
      const open = async (): Promise<Page> => {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        page.on('console', (message) => {
          if (message.type() === 'error') consoleErrors.push(message.text());
        });
        return page;
      };

      const ownerPage = await open();
      await signIn(ownerPage, base, '/settings/changes', owner.email);
      await approvalSettings(ownerPage);
      await ownerPage.context().close();

      const memberPage = await open();
      await signIn(memberPage, base, '/changes/new', requester.email);
      const id = await registerChange(memberPage);
      await waitingForApproval(memberPage);

      // Each approver follows the link of their e-mail signed out, in a browser of their own.
      const title = 'Deploy payments-api 2.4';
      const links = [await approveLinkFor(smtp!, approver.email, title), await approveLinkFor(smtp!, critical.email, title)];
      for (const link of links) expect(link).toBe(new URL(`/?view=changes&change=${id}&approve=1`, base).toString());
      // One message each, alone in its To; the requester is never asked.
      const asked = smtp!.messages.filter((m) => m.mail.subject === `Approval needed: ${title}`).map((m) => m.envelope.to);
      expect(asked.sort()).toEqual([[approver.email], [critical.email]]);
      await approveFromLink(await open(), links[0]!, id, approver.email, 'Approve', 'Your approval is recorded (1 of 2).', 'change-approve-link.png');
      await approveFromLink(await open(), links[1]!, id, critical.email, 'Approve', 'Approved: the quorum is reached (2 of 2).');

      await startAndComplete(memberPage);
      await changeList(memberPage, id);
      await memberPage.context().close();

      // Expected noise: the 401 of the first GET /api/session (not signed in yet), the 400s the
      // forms show (a quorum above the approvers, a name that is two databases).
      expect(consoleErrors.filter((text) => !/\b(400|401)\b/.test(text))).toEqual([]);
    },
    180_000,
  );

  it.skipIf(!hasChromium)(
    'maps the names a pipeline gave that the catalogue does not know, and the change goes on to approval',
    async () => {
      const { server, browser } = suite();
      const base = server.url;
      const secret = requesterToken;
      const registered = await fetch(new URL('/api/changes', server.pipelineUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Migrate the wallet schema',
          kind: 'infra',
          components: [{ query: 'wallet' }, { query: 'Wallet Sync' }],
          maxDurationMinutes: 20,
          pipeline: { pipeline: 'wallet-migrations', run: '4711', commit: '9f1c2ab' },
        }),
      });
      expect(registered.status).toBe(201);
      const { change } = (await registered.json()) as { change: { id: string; status: string } };
      expect(change.status).toBe('pending_mapping');

      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      try {
        await signIn(page, base, `/changes/${change.id}`, approver.email);
        const panel = page.getByTestId('mapping-panel');
        await panel.waitFor();
        expect(await status(page)).toBe('pending_mapping');
        expect(await page.getByTestId('change-pipeline').count()).toBe(0);
        expect(await page.getByTestId('change-pipeline-card').textContent()).toContain('wallet-migrations');

        const wallet = panel.locator('[data-testid="mapping-row"][data-query="wallet"]');
        // Same-named entities first, then those whose key holds the name (the instances).
        expect((await wallet.getByTestId('mapping-candidate').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).slice(0, 2)).toEqual([
          'db:wallet-pg-1/wallet',
          'db:wallet-pg-2/wallet',
        ]);
        await wallet.locator('[data-testid="mapping-candidate"][data-key="db:wallet-pg-1/wallet"]').click();
        // The other name: nothing like it in the catalogue; a search finds nothing either, so it becomes a service.
        const sync = panel.locator('[data-testid="mapping-row"][data-query="Wallet Sync"]');
        await sync.getByTestId('mapping-search').fill('ledger');
        await sync.locator('[data-testid="mapping-found"][data-key="svc:ledger-writer"]').waitFor();
        expect(await sync.getByTestId('mapping-create').textContent()).toBe('Create service svc:wallet-sync');
        await sync.getByTestId('mapping-create').click();
        expect(await sync.getByTestId('mapping-choice').textContent()).toBe('→ new service svc:wallet-sync');
        expect(await sync.getByTestId('mapping-remember').isChecked()).toBe(true);
        await shoot(page, 'change-mapping.png');
        await panel.getByTestId('mapping-save').click();

        await page.getByTestId('change-notice').filter({ hasText: 'Every component is mapped: the change is pending approval.' }).waitFor();
        expect(await page.getByTestId('mapping-panel').count()).toBe(0);
        expect(await status(page)).toBe('pending_approval');
        expect(await page.getByTestId('change-component').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).toEqual([
          'db:wallet-pg-1/wallet',
          'svc:wallet-sync',
        ]);
        await page.getByTestId('dependency-map').waitFor();
        expect(await timeline(page)).toEqual(['change.registered', 'change.components_mapped', 'change.mapped']);
        expect(await entry(page, 'change.components_mapped').getByTestId('timeline-details').textContent()).toContain('wallet → db:wallet-pg-1/wallet');
        // A new manual service has no tier: the approver classifies it before approving.
        await page.getByTestId('classify-form').waitFor();
        expect(await page.getByTestId('approval-blocked').textContent()).toBe('Waiting for classification of: Wallet Sync');
        await page.locator('[data-testid="classify-row"][data-key="svc:wallet-sync"]').getByTestId('classify-tier').selectOption('standard');
        await page.getByTestId('classify-save').click();
        await page.getByTestId('change-notice').filter({ hasText: 'Classified: Wallet Sync is standard.' }).waitFor();
        await page.locator('[data-testid="change-criticality"][data-tier="standard"]').first().waitFor();
        expect(await page.getByTestId('approval-blocked').count()).toBe(0);
        expect(await page.getByTestId('approve').isEnabled()).toBe(true);

        // Two more pipeline runs, one cancelled: the list with its chips, runs and requesters.
        for (const [title, component, run, cancel] of [
          ['Rotate the storefront TLS certificate', 'storefront', '88', false],
          ['Resize the ledger-writer pool', 'ledger-writer', '12', true],
        ] as const) {
          const r = await fetch(new URL('/api/changes', server.pipelineUrl), {
            method: 'POST',
            headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
            body: JSON.stringify({ title, kind: 'config', components: [{ query: component }], maxDurationMinutes: 15, pipeline: { pipeline: `${component}-deploy`, run } }),
          });
          expect(r.status).toBe(201);
          const made = (await r.json()) as { change: { id: string } };
          if (cancel) {
            const c = await fetch(new URL(`/api/changes/${made.change.id}/cancel`, server.pipelineUrl), {
              method: 'POST',
              headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
              body: JSON.stringify({ reason: 'superseded by run 13' }),
            });
            expect(c.status).toBe(200);
          }
        }
        await page.getByTestId('nav-changes').click();
        await page.waitForURL((url) => url.pathname === '/changes');
        await page.getByTestId('changes-count').filter({ hasText: /^4 changes$/ }).waitFor();
        expect(await page.getByTestId('change-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toContain('cancelled');
        expect(await page.locator(`[data-testid="change-row"][data-change-id="${change.id}"]`).getByTestId('change-pipeline').textContent()).toBe('wallet-migrations #4711');
        await page.locator('[data-testid="criticality-chip"][data-tier="pending"]').click();
        await page.getByTestId('changes-empty').waitFor();
        await page.getByTestId('changes-clear').click();
        await page.getByTestId('changes-count').filter({ hasText: /^4 changes$/ }).waitFor();
        await shoot(page, 'changes-list.png');
      } finally {
        await context.close();
      }
    },
    120_000,
  );
});

async function signIn(page: Page, baseUrl: string, path: string, email: string): Promise<void> {
  await page.goto(new URL(path, baseUrl).toString());
  await page.waitForURL((url) => url.pathname === '/signin');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL((url) => url.pathname === path);
  expect(await page.getByTestId('header-user').getAttribute('title')).toBe(email);
}

function approverRow(page: Page, email: string): Locator {
  return page.locator(`[data-testid="approver-row"][data-email="${email}"]`);
}

async function approvalSettings(page: Page): Promise<void> {
  expect(await page.getByTestId('nav-change-settings').getAttribute('aria-current')).toBe('page');
  const form = page.getByTestId('change-settings-form');
  await form.waitFor();
  // A new organisation: every change needs two approvals and nobody is designated.
  expect(await page.getByTestId('settings-warning').textContent()).toContain('only 0 approvers are designated for a quorum of 2');
  expect(await page.getByTestId('settings-critical-warning').textContent()).toContain('No critical approver is designated');

  await approverRow(page, approver.email).getByTestId('approver-switch').check();
  await page.locator(`[data-testid="approver-row"][data-email="${approver.email}"][data-approver="true"]`).waitFor();
  // Critical stays off until someone is an approver.
  expect(await approverRow(page, critical.email).getByTestId('critical-switch').isDisabled()).toBe(true);
  await approverRow(page, critical.email).getByTestId('approver-switch').check();
  await page.locator(`[data-testid="approver-row"][data-email="${critical.email}"][data-approver="true"]`).waitFor();
  await approverRow(page, critical.email).getByTestId('critical-switch').check();
  await page.locator(`[data-testid="approver-row"][data-email="${critical.email}"][data-critical="true"]`).waitFor();
  expect(await page.getByTestId('settings-warning').count()).toBe(0);
  expect(await page.getByTestId('settings-critical-warning').count()).toBe(0);

  // A quorum above the approvers is refused, under the quorum.
  await page.getByTestId('approval-required-none').check();
  await page.getByTestId('approval-required-all').check();
  await page.getByLabel('Quorum', { exact: true }).fill('3');
  await page.getByTestId('settings-save').click();
  const quorumError = form.locator('[data-testid="field-error"][data-field="quorum"]');
  await quorumError.waitFor();
  expect(await quorumError.textContent()).toContain('cannot be above the number of approvers (2)');
  expect(await page.getByLabel('Quorum', { exact: true }).getAttribute('aria-invalid')).toBe('true');

  await page.getByLabel('Quorum', { exact: true }).fill('2');
  await page.getByTestId('settings-save').click();
  await page.getByTestId('settings-saved').waitFor();
  expect(await form.getByTestId('field-error').count()).toBe(0);
  expect(await page.getByTestId('approval-required-all').isChecked()).toBe(true);
  await shoot(page, 'change-settings.png');
}

async function registerChange(page: Page): Promise<string> {
  expect(await page.getByTestId('nav-changes').getAttribute('aria-current')).toBe('page');
  // Members are not offered the settings they may not read.
  expect(await page.getByTestId('nav-change-settings').count()).toBe(0);
  await page.getByLabel('Title', { exact: true }).fill('Deploy payments-api 2.4');
  await page.getByLabel('Kind', { exact: true }).selectOption('deploy');
  await page.getByLabel('Description (optional)').fill('New retry policy for card captures. Roll back: redeploy 2.3.');
  await page.getByLabel('Components', { exact: true }).fill('payments-api\nwallet');

  // The preview: the scope, the criticality, and the two databases called wallet.
  const line = page.getByTestId('scope-line');
  await line.filter({ hasText: /^Silence scope: / }).waitFor();
  expect(await line.textContent()).toBe('Silence scope: 3 services · 1 database · +2 infrastructure (2 held)');
  expect(await page.getByTestId('criticality-line').textContent()).toBe('Criticality: critical (payments-api)');
  const wallet = page.locator('[data-testid="unresolved"][data-query="wallet"]');
  await wallet.waitFor();
  expect((await wallet.getByTestId('candidate').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')))).slice(0, 2)).toEqual([
    'db:wallet-pg-1/wallet',
    'db:wallet-pg-2/wallet',
  ]);
  await page.getByTestId('window-mode-pipeline').check();
  await page.getByLabel('Duration (minutes)').fill('45');
  await page.getByLabel('Report recipients').fill('payments-oncall@example.test');

  // Sent as it is, the name is refused with its candidates, next to the button.
  await page.getByTestId('change-submit').click();
  const refused = page.getByTestId('register-unresolved');
  await refused.waitFor();
  expect(await refused.textContent()).toContain('not recognised: wallet');
  expect(await page.getByLabel('Components', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  await shoot(page, 'change-register-candidates.png');
  await refused.locator('[data-testid="register-candidate"][data-key="db:wallet-pg-1/wallet"]').click();
  expect(await page.getByLabel('Components', { exact: true }).inputValue()).toBe('payments-api\ndb:wallet-pg-1/wallet');
  await page.locator('[data-testid="resolved"][data-key="db:wallet-pg-1/wallet"]').waitFor();

  await page.getByTestId('change-submit').click();
  await page.waitForURL((url) => /^\/changes\/chg_[0-9a-f]+$/.test(url.pathname));
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
  await page.getByTestId('change-notice').waitFor();
  return id;
}

async function status(page: Page): Promise<string | null> {
  return page.getByTestId('change-header').getByTestId('change-status').getAttribute('data-status');
}

async function timeline(page: Page): Promise<(string | null)[]> {
  return page.getByTestId('timeline-entry').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
}

function entry(page: Page, action: string): Locator {
  return page.locator(`[data-testid="timeline-entry"][data-action="${action}"]`);
}

async function waitingForApproval(page: Page): Promise<void> {
  const header = page.getByTestId('change-header');
  expect(await status(page)).toBe('pending_approval');
  expect(await header.getByTestId('change-criticality').getAttribute('data-tier')).toBe('critical');
  expect(await page.getByTestId('change-scope-line').textContent()).toBe('Silence scope: 3 services · 1 database · +2 infrastructure (2 held)');
  expect(await page.getByTestId('approval-count').textContent()).toBe('0 of 2 approvals');
  expect(await page.getByTestId('approval-blocked').textContent()).toBe(`Needs a critical approver: ${critical.name}`);
  const approvers = page.getByTestId('approver');
  expect(await approvers.evaluateAll((els) => els.map((e) => e.textContent))).toEqual([`${approver.name}`, `${critical.name}critical approver`]);
  expect(await page.getByTestId('approval-why-not').textContent()).toBe('You registered this change: other approvers decide on it.');
  expect(await page.getByTestId('approve').count()).toBe(0);
  expect(await page.getByTestId('action-start').count()).toBe(0);
  expect(await timeline(page)).toEqual(['change.registered']);
  expect(await entry(page, 'change.registered').getByTestId('timeline-what').textContent()).toBe('registered the change — pending approval');
  await page.getByTestId('dependency-map').waitFor();
}

async function approveFromLink(page: Page, link: string, id: string, email: string, button: string, notice: string, shot?: string): Promise<void> {
  // Signed out: the link goes through the sign-in and lands on the change, approval panel focused.
  await page.goto(link);
  await page.waitForURL((url) => url.pathname === '/signin');
  expect(new URL(page.url()).searchParams.get('next')).toBe(`/changes/${id}?approve=1`);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL((url) => url.pathname === `/changes/${id}` && url.searchParams.get('approve') === '1');
  const panel = page.locator('[data-testid="approval-panel"][data-focused="true"]');
  await panel.waitFor();
  await page.waitForFunction("document.activeElement?.id === 'approval-title'");
  expect(await page.getByTestId('header-user').getAttribute('title')).toBe(email);
  // Where the link lands, as the approver sees it: the panel scrolled to and focused.
  if (shot !== undefined) await snap(page, shot);

  await panel.getByLabel('Comment (optional)').fill(`Checked by ${email}`);
  await panel.getByRole('button', { name: button, exact: true }).click();
  await page.getByTestId('change-notice').filter({ hasText: notice }).waitFor();
  expect(await panel.getByTestId('approve').count()).toBe(0);
  expect(await page.locator(`[data-testid="approver"][data-decision="approved"]`).count()).toBeGreaterThan(0);
  await page.context().close();
}

async function startAndComplete(page: Page): Promise<void> {
  await page.reload();
  await page.getByTestId('change-header').waitFor();
  expect(await status(page)).toBe('approved');
  expect(await page.getByTestId('approval-count').textContent()).toBe('2 of 2 approvals');
  expect(await page.getByTestId('approval-blocked').count()).toBe(0);
  expect(await page.locator('[data-testid="approver"][data-decision="approved"]').count()).toBe(2);

  await page.getByTestId('action-start').click();
  await page.getByTestId('change-notice').filter({ hasText: 'Started — now active.' }).waitFor();
  expect(await status(page)).toBe('active');

  await page.getByTestId('action-complete').click();
  await page.getByLabel('Outcome', { exact: true }).selectOption('success');
  await page.getByLabel('Notes (optional)').fill('Rolled out to all pods; error rate flat.');
  await page.getByTestId('action-confirm').click();
  await page.getByTestId('change-notice').filter({ hasText: 'Completed (success) — now evaluating.' }).waitFor();
  expect(await status(page)).toBe('evaluating');
  expect(await page.getByTestId('change-outcome').textContent()).toContain('success');

  expect(await timeline(page)).toEqual([
    'change.registered',
    'change.approval_given',
    'change.approval_given',
    'change.approved',
    'change.started',
    'change.completed',
  ]);
  const what = await page.getByTestId('timeline-what').allTextContents();
  expect(what).toEqual([
    'registered the change — pending approval',
    'approved (1 of 2)',
    'approved (2 of 2) as a critical approver',
    'completed the quorum: the change is approved with 2 approvals',
    'started the change',
    'completed the change — outcome success',
  ]);
  const actors = await page.getByTestId('timeline-actor').allTextContents();
  expect(actors).toEqual([requester.name, approver.name, critical.name, critical.name, requester.name, requester.name]);
  expect(await entry(page, 'change.approval_given').first().getByTestId('timeline-details').textContent()).toBe(`“Checked by ${approver.email}”`);
  await page.getByTestId('change-report').waitFor();
  await shoot(page, 'change-page.png');
}

async function changeList(page: Page, id: string): Promise<void> {
  await page.getByTestId('nav-changes').click();
  await page.waitForURL((url) => url.pathname === '/changes');
  const row = page.locator(`[data-testid="change-row"][data-change-id="${id}"]`);
  await row.waitFor();
  expect(await row.getByTestId('change-status').getAttribute('data-status')).toBe('evaluating');
  expect(await row.getByTestId('change-criticality').getAttribute('data-tier')).toBe('critical');
  expect(await row.getByTestId('change-title').textContent()).toBe('Deploy payments-api 2.4');
  // A window within one UTC day reads "2026-03-02 09:00 – 10:00"; one across midnight names both days in full.
  expect(await row.getByTestId('change-window').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(Z – \d{4}-\d{2}-\d{2} \d{2}:\d{2}Z| – \d{2}:\d{2}Z)$/);

  // Filters: critical keeps it, rejected does not; a CHG- id finds exactly it.
  await page.locator('[data-testid="criticality-chip"][data-tier="critical"]').click();
  await page.waitForURL((url) => url.searchParams.get('criticality') === 'critical');
  await row.waitFor();
  await page.locator('[data-testid="status-chip"][data-status="rejected"]').click();
  await page.getByTestId('changes-empty').waitFor();
  await page.getByTestId('changes-clear').click();
  await row.waitFor();
  const displayId = (await row.getByTestId('change-link').textContent()) ?? '';
  expect(displayId).toMatch(/^CHG-[0-9A-F]{8}$/);
  await page.getByLabel('Search', { exact: true }).fill(displayId);
  await page.getByTestId('changes-search').click();
  await page.waitForURL((url) => url.searchParams.get('q') === displayId);
  await page.locator('[data-testid="changes-count"]').filter({ hasText: /^1 change$/ }).waitFor();
  await page.getByTestId('changes-mine').check();
  await row.waitFor();
  await page.getByTestId('changes-clear').click();
  await row.waitFor();
}

