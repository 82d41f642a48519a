import { type BrowserContext, type Locator, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from '../support/browser.js';
import { snap, uiSuite } from '../support/ui-suite.js';
import { runCli } from '../support/spawn-server.js';

// Drives the flag pages of the built UI (dist/web, produced by `npm run build`) against a
// real server process in Debian's Chromium: a high-risk flag, the reason rule, a rollout,
// an approval by a second person, and the retro view. Without a browser the test is
// skipped loudly rather than silently passing.

if (!hasChromium) console.warn('chromium not installed: flags UI test skipped');

const ownerEmail = 'owner@example.test';
const ownerPassword = 'correct-horse-battery-staple';
const approverEmail = 'approver@example.test';
const approverPassword = 'approver-password-1234';
const flagKey = 'ops.payments.new-processor';
const flagPath = `/flags/${encodeURIComponent(flagKey)}`;


describe('flags web UI', () => {
  const suite = uiSuite({
    name: 'flags-ui',
    owner: { email: ownerEmail, password: ownerPassword },
    prepare: async (dataDir) => {
      const added = await runCli(
        ['users', 'add', '--email', approverEmail, '--role', 'admin', '--password-stdin', '--data', dataDir],
        { input: `${approverPassword}\n` },
      );
      if (added.code !== 0) throw new Error(`users add failed (${String(added.code)}): ${added.stderr}`);
    },
  });

  it.skipIf(!hasChromium)(
    'creates a high-risk flag, enforces reasons, rolls out, and applies a production change only once someone else approves it',
    async () => {
      const { server, browser } = suite();
      const { context, page, consoleErrors } = await openPage(browser);

      try {
        await signIn(page, server.url, flagsUrl(server.url), ownerEmail, ownerPassword);
        await createFlag(page);
        await page.getByTestId('flag-created').getByRole('link', { name: flagKey }).click();
        await page.getByTestId('flag-header').waitFor();

        await toggleStagingWithReasons(page, context, server.url);
        await rollOutInStaging(page);
        await requireApprovalInProduction(page);
        await proposeProductionChange(page);

        await signOut(page);
        await signIn(page, server.url, new URL(flagPath, server.url).toString(), approverEmail, approverPassword);
        await approveProductionChange(page);
        await flagAudit(page, server.url);
        await flagList(page, server.url);
      } finally {
        await context.close();
      }
      // Expected noise: the 401 of the first GET /api/session (not signed in yet) and the
      // 403 of the proposer trying to approve their own change.
      expect(consoleErrors.filter((text) => !/\b(401|403)\b/.test(text))).toEqual([]);
    },
    120_000,
  );
});

function flagsUrl(baseUrl: string): string {
  return new URL('/flags', baseUrl).toString();
}

async function signIn(page: Page, baseUrl: string, target: string, email: string, password: string): Promise<void> {
  // A protected page first: the app must bounce to /signin and come back afterwards.
  const wanted = new URL(target);
  await page.goto(target);
  await page.waitForURL((url) => url.pathname === '/signin');
  expect(new URL(page.url()).searchParams.get('next')).toBe(wanted.pathname);
  expect(new URL(page.url()).origin).toBe(new URL(baseUrl).origin);

  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByTestId('signin-submit').click();

  await page.waitForURL((url) => url.pathname === wanted.pathname);
  expect(await page.getByTestId('header-user').getAttribute('title')).toBe(email);
}

async function signOut(page: Page): Promise<void> {
  await page.getByTestId('sign-out').click();
  await page.waitForURL((url) => url.pathname === '/signin');
}

async function createFlag(page: Page): Promise<void> {
  expect(await page.getByTestId('nav-flags').getAttribute('aria-current')).toBe('page');
  await page.getByTestId('flag-new').click();
  const form = page.getByTestId('flag-create-form');
  await form.waitFor();
  await form.getByLabel('Key').fill(flagKey);
  await form.getByLabel('Type').selectOption('boolean');
  await form.getByLabel('Risk').selectOption('high');
  await form.getByLabel('Owner service').fill('payments-api');
  await form.getByLabel('Description').fill('Routes card payments through the new processor.');
  await form.getByLabel('Tags').fill('payments, migration');
  await form.getByLabel('Reason').fill('OPS-101 new card processor behind a flag');
  await page.getByTestId('flag-create-submit').click();

  await page.getByTestId('flag-created').waitFor();
  const row = page.locator(`[data-testid="flag-row"][data-flag-key="${flagKey}"]`);
  await row.waitFor();
  expect(await row.getByTestId('risk-badge').textContent()).toBe('high risk');
  const states = row.getByTestId('env-state');
  expect(await states.count()).toBe(2);
  for (const state of await states.all()) expect(await state.getAttribute('data-enabled')).toBe('false');
}

function envCard(page: Page, env: string): Locator {
  return page.locator(`[data-testid="env-card"][data-env="${env}"]`);
}

function historyEntries(page: Page): Locator {
  return page.getByTestId('history-entry');
}

// Saves whatever the open reason dialog proposes, with this reason.
async function saveWithReason(page: Page, reason: string): Promise<void> {
  const dialog = page.getByTestId('reason-dialog');
  await dialog.waitFor();
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByTestId('reason-save').click();
  await dialog.waitFor({ state: 'detached' });
}

async function toggleStagingWithReasons(page: Page, context: BrowserContext, baseUrl: string): Promise<void> {
  const staging = envCard(page, 'staging');
  await staging.waitFor();
  await historyEntries(page).first().waitFor();
  expect(await historyEntries(page).count()).toBe(1);

  await staging.getByTestId('env-toggle').click();
  const dialog = page.getByTestId('reason-dialog');
  await dialog.waitFor();
  expect(await dialog.getByTestId('reason-rule').textContent()).toMatch(/high-risk/);
  expect(await dialog.getByTestId('reason-change').textContent()).toBe('off → on');

  // "." is refused: the dialog says why and will not save.
  await dialog.getByLabel('Reason').fill('.');
  await dialog.getByTestId('reason-problem').waitFor();
  expect(await dialog.getByTestId('reason-problem').textContent()).toMatch(/too thin/);
  expect(await dialog.getByTestId('reason-save').isDisabled()).toBe(true);

  // The server is the authority and refuses it too; nothing changed.
  const refused = await apiCall(context, baseUrl, 'PUT', `/api/flags/${flagKey}/environments/staging`, { enabled: true, reason: '.' });
  expect(refused.status).toBe(400);
  expect((refused.body as { field?: string }).field).toBe('reason');
  expect(await staging.getAttribute('data-enabled')).toBe('false');
  expect(await historyEntries(page).count()).toBe(1);

  await dialog.getByLabel('Reason').fill('Enable for INC-4411 testing');
  expect(await dialog.getByTestId('reason-problem').count()).toBe(0);
  await dialog.getByTestId('reason-save').click();
  await dialog.waitFor({ state: 'detached' });

  await page.locator('[data-testid="env-card"][data-env="staging"][data-enabled="true"]').waitFor();
  expect(await staging.getByTestId('env-status').textContent()).toBe('on');
  const newest = historyEntries(page).first();
  await page.locator('[data-testid="history-entry"][data-change="updated"]').first().waitFor();
  expect(await newest.getAttribute('data-env')).toBe('staging');
  expect(await newest.getByTestId('flag-change').textContent()).toBe('off → on');
  expect(await newest.getByTestId('history-reason').textContent()).toBe('Enable for INC-4411 testing');
  expect(await newest.getByTestId('source-badge').textContent()).toBe('ui');
  expect(await newest.getByTestId('history-time').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);
  expect(await newest.getByTestId('history-actor').textContent()).toBe(ownerEmail);
}

async function rollOutInStaging(page: Page): Promise<void> {
  const staging = envCard(page, 'staging');
  for (const [percentage, reason] of [
    ['5', 'INC-4411 canary at five percent'],
    ['50', 'INC-4411 canary healthy, half of traffic'],
  ] as const) {
    const before = await historyEntries(page).count();
    await staging.getByLabel('Percentage', { exact: true }).fill(percentage);
    await staging.getByTestId('rollout-save').click();
    await saveWithReason(page, reason);
    await page.locator(`[data-testid="history-entry"]:nth-child(${String(before + 1)})`).waitFor();
  }
  await staging.getByTestId('env-serving').filter({ hasText: '50%' }).waitFor();
  const newest = historyEntries(page).first();
  expect(await newest.getByTestId('flag-change').textContent()).toBe('rollout 5% → 50%');
  expect(await newest.getByTestId('flag-change').textContent()).toContain('5% → 50%');
  expect(await historyEntries(page).nth(1).getByTestId('flag-change').textContent()).toBe('rollout none → 5% by targetingKey');
}

async function requireApprovalInProduction(page: Page): Promise<void> {
  await page.getByTestId('nav-flags').click();
  const row = page.locator('[data-testid="environment-row"][data-env="production"]');
  await row.waitFor();
  await row.getByLabel('Approval policy for Production').selectOption('all');
  await row.getByLabel('Approvals needed in Production').fill('1');
  await row.getByTestId('env-save').click();
  await row.getByTestId('env-saved').waitFor();

  await page.locator(`[data-testid="flag-row"][data-flag-key="${flagKey}"]`).getByTestId('flag-link').click();
  await envCard(page, 'production').getByTestId('env-approval-policy').waitFor();
}

async function proposeProductionChange(page: Page): Promise<void> {
  const production = envCard(page, 'production');
  await production.getByTestId('env-toggle').click();
  const dialog = page.getByTestId('reason-dialog');
  await dialog.waitFor();
  expect(await dialog.getByTestId('reason-approval-hint').textContent()).toMatch(/1 approval/);
  await saveWithReason(page, 'Go live for INC-4411 after staging canary');

  const proposed = production.getByTestId('env-proposed');
  await proposed.waitFor();
  expect(await proposed.textContent()).toContain('Change request proposed — needs 1 approval');
  expect(await production.getAttribute('data-enabled')).toBe('false');

  const request = page.locator('[data-testid="change-request"][data-env="production"]');
  await request.waitFor();
  expect(await request.getByTestId('request-patch').textContent()).toBe('turn on');

  // Proposers cannot approve their own change: the server's 403 message is shown.
  await request.getByTestId('request-approve').click();
  const refusal = request.getByTestId('request-error');
  await refusal.waitFor();
  expect(await refusal.textContent()).toMatch(/someone else must approve/);
  expect(await production.getAttribute('data-enabled')).toBe('false');
}

async function approveProductionChange(page: Page): Promise<void> {
  const request = page.locator('[data-testid="change-request"][data-env="production"]');
  await request.waitFor();
  await request.getByTestId('request-approve').click();

  await page.locator('[data-testid="env-card"][data-env="production"][data-enabled="true"]').waitFor();
  await page.getByTestId('request-decision').waitFor();
  await page.getByTestId('requests-empty').waitFor();

  const applied = page.locator('[data-testid="history-entry"][data-env="production"]').first();
  await applied.getByTestId('history-approvers').waitFor();
  expect(await applied.getByTestId('history-approvers').textContent()).toContain(approverEmail);
  expect(await applied.getByTestId('flag-change').textContent()).toBe('off → on');
  // The change stays the proposer's, with the approver recorded beside it.
  expect(await applied.getByTestId('history-actor').textContent()).toBe(ownerEmail);
  await snap(page, 'flag-page.png', { fullPage: true });
}

async function flagAudit(page: Page, baseUrl: string): Promise<void> {
  await page.goto(new URL('/flags/audit?namespace=ops.payments.*', baseUrl).toString());
  expect(await page.getByTestId('nav-flag-audit').getAttribute('aria-current')).toBe('page');
  expect(await page.getByTestId('nav-flags').getAttribute('aria-current')).toBeNull();
  expect(await page.getByLabel('Namespace or flag').inputValue()).toBe('ops.payments.*');
  await page.locator('[data-testid="fa-sentinel"]', { hasText: 'shown' }).waitFor();

  const rows = page.getByTestId('flag-audit-row');
  // created, staging on, rollout 5%, rollout 50%, production on (approved).
  expect(await rows.count()).toBe(5);
  const changes = await rows.getByTestId('flag-change').allTextContents();
  expect(changes).toEqual([
    'off → on',
    'rollout 5% → 50%',
    'rollout none → 5% by targetingKey',
    'off → on',
    'created (boolean, high risk)',
  ]);
  const envs = await Promise.all((await rows.all()).map((row) => row.getAttribute('data-env')));
  expect(envs).toEqual(['production', 'staging', 'staging', 'staging', '']);
  expect(await rows.first().getByTestId('fa-approvers').textContent()).toBe(approverEmail);
  for (const flag of await rows.getByTestId('fa-flag').allTextContents()) expect(flag).toBe(flagKey);
  await snap(page, 'flags-audit.png', { fullPage: true });

  // Narrowing to one environment lands in the URL and in the rows.
  const filtered = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === '/api/flags/audit' && url.searchParams.get('env') === 'production';
  });
  await page.getByLabel('Environment', { exact: true }).selectOption('production');
  await page.waitForURL((url) => url.searchParams.get('env') === 'production');
  expect(new URL(page.url()).searchParams.get('namespace')).toBe('ops.payments.*');
  expect((await filtered).status()).toBe(200);
  await page.locator('[data-testid="fa-sentinel"]', { hasText: 'shown' }).waitFor();
  expect(await rows.count()).toBe(1);
  expect(await rows.first().getAttribute('data-env')).toBe('production');
}

async function flagList(page: Page, baseUrl: string): Promise<void> {
  await page.goto(new URL('/flags?namespace=ops.payments.*', baseUrl).toString());
  const row = page.locator(`[data-testid="flag-row"][data-flag-key="${flagKey}"]`);
  await row.waitFor();
  expect(await row.locator('[data-testid="env-state"][data-env="production"]').getAttribute('data-enabled')).toBe('true');
  const staging = row.locator('[data-testid="env-state"][data-env="staging"]');
  expect(await staging.getAttribute('data-enabled')).toBe('true');
  expect(await staging.textContent()).toContain('50%');
  await snap(page, 'flags-list.png', { fullPage: true });
}

// A direct API call with the browser's session: the cookie from the context, the CSRF
// token from GET /api/session, as the UI's own client sends them.
async function apiCall(
  context: BrowserContext,
  baseUrl: string,
  method: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: unknown }> {
  const cookie = (await context.cookies(baseUrl)).map((c) => `${c.name}=${c.value}`).join('; ');
  const session = await fetch(new URL('/api/session', baseUrl), { headers: { cookie } });
  expect(session.status).toBe(200);
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  const res = await fetch(new URL(path, baseUrl), {
    method,
    headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
