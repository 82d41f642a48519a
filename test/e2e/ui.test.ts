import { type Locator, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from '../support/browser.js';
import { runCli } from '../support/spawn-server.js';
import { snap, uiSuite } from '../support/ui-suite.js';

// Drives the built UI (dist/web, produced by `npm run build`) against a real server
// process in Debian's Chromium. Without a browser the test is skipped loudly rather
// than silently passing.

if (!hasChromium) console.warn('chromium not installed: UI test skipped');

const ownerEmail = 'owner@example.test';
const ownerPassword = 'correct-horse-battery-staple';
const memberEmail = 'member@example.test';
const memberPassword = 'member-horse-battery-staple';
const secretPattern = /^clt_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/;


describe('web UI', () => {
  const suite = uiSuite({
    name: 'ui',
    owner: { email: ownerEmail, password: ownerPassword },
    // A member, and the token an operator made for them: members do not create tokens.
    prepare: async (dataDir) => {
      const added = await runCli(['users', 'add', '--email', memberEmail, '--role', 'member', '--password-stdin', '--data', dataDir], { input: `${memberPassword}\n` });
      if (added.code !== 0) throw new Error(`users add failed (${String(added.code)}): ${added.stderr}`);
      const made = await runCli(['tokens', 'create', '--user', memberEmail, '--name', 'member-bot', '--scopes', 'changes:read', '--data', dataDir]);
      if (made.code !== 0) throw new Error(`tokens create failed (${String(made.code)}): ${made.stderr}`);
    },
  });

  it.skipIf(!hasChromium)(
    'signs in, creates a token, finds it in the audit log and revokes it',
    async () => {
      const { server, browser } = suite();
      const { context, page, consoleErrors } = await openPage(browser);

      try {
        await signIn(page, server.url);
        const secret = await createToken(page);
        expect(secret).toMatch(secretPattern);
        await auditLog(page);
        await revokeToken(page);
      } finally {
        await context.close();
      }
      // The 401 of the very first GET /api/session (not signed in yet) is expected noise.
      expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    'shows a member no new-token form, only the tokens they own, which they may revoke',
    async () => {
      const { server, browser } = suite();
      const { context, page, consoleErrors } = await openPage(browser);
      try {
        await signIn(page, server.url, memberEmail, memberPassword);
        const denied = page.getByTestId('tokens-create-denied');
        await denied.waitFor();
        expect(await denied.textContent()).toBe('Only owners and admins create API tokens. Ask one of them for a token, or revoke one of yours below.');
        expect(await page.getByTestId('token-create-form').count()).toBe(0);
        const row = page.locator('[data-testid="token-row"][data-token-name="member-bot"]');
        await row.waitFor();
        // The owner's tokens are not the member's to see.
        expect(await page.locator('[data-testid="token-row"][data-token-name="ci-deploy"]').count()).toBe(0);
        await snap(page, 'ui-tokens-member.png', { fullPage: true });
        await row.getByTestId('token-revoke').click();
        await page.locator('[data-testid="token-revoke-confirm-row"]').getByTestId('token-revoke-confirm').click();
        await row.getByTestId('token-status').filter({ hasText: 'revoked' }).waitFor();
      } finally {
        await context.close();
      }
      expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
    },
    60_000,
  );
});

async function signIn(page: Page, baseUrl: string, email = ownerEmail, password = ownerPassword): Promise<void> {
  // A protected page first: the app must bounce to /signin and come back afterwards.
  await page.goto(new URL('/tokens', baseUrl).toString());
  await page.waitForURL((url) => url.pathname === '/signin');
  expect(new URL(page.url()).searchParams.get('next')).toBe('/tokens');

  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByTestId('signin-submit').click();

  await page.waitForURL((url) => url.pathname === '/tokens');
  await page.getByTestId('header-user').waitFor();
  expect(await page.getByTestId('sign-out').isVisible()).toBe(true);
}

async function createToken(page: Page): Promise<string> {
  await page.getByTestId('nav-tokens').click();
  await page.getByTestId('token-create-form').waitFor();
  await page.getByLabel('Name', { exact: true }).fill('ci-deploy');
  await page.getByLabel('changes:write').check();
  await page.getByLabel('audit:read').check();
  await page.getByTestId('token-create-submit').click();

  const secretValue = page.getByTestId('token-secret-value');
  await secretValue.waitFor();
  const secret = ((await secretValue.textContent()) ?? '').trim();
  const warning = (await page.getByTestId('token-secret-warning').textContent()) ?? '';
  expect(warning).toMatch(/not be shown again/);

  const row = tokenRow(page);
  await row.waitFor();
  expect(await row.getByTestId('token-status').textContent()).toBe('active');
  await snap(page, 'ui-tokens.png', { fullPage: true });
  return secret;
}

async function auditLog(page: Page): Promise<void> {
  await page.getByTestId('nav-audit').click();
  await page.waitForURL((url) => url.pathname === '/audit');

  const created = page.locator('[data-testid="audit-row"][data-action="token.created"]').first();
  await created.waitFor();
  await created.click();
  // The raw JSON sits behind its toggle, under the readable before → after.
  await page.getByTestId('event-raw').locator('summary').click();
  const json = page.getByTestId('event-json');
  await json.waitFor();
  expect(await json.textContent()).toContain('ci-deploy');
  expect(((await page.getByTestId('event-hash').textContent()) ?? '').length).toBeGreaterThan(0);

  const badge = page.getByTestId('verify-badge');
  await page.locator('[data-testid="verify-badge"]:not([data-state="pending"])').waitFor();
  expect(await badge.getAttribute('data-state')).toBe('ok');
  await snap(page, 'ui-audit.png', { fullPage: false });

  await page.getByTestId('event-panel-close').click();
  // Wait for the filtered answer itself, not just any row: the unfiltered rows are
  // still on screen for a moment after the URL changes.
  const filtered = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === '/api/audit' && url.searchParams.get('action') === 'token.';
  });
  await page.getByLabel('Action prefix').fill('token.');
  await page.getByLabel('Action prefix').press('Enter');
  await page.waitForURL((url) => url.searchParams.get('action') === 'token.');
  expect(page.url()).toContain('action=token.');
  expect((await filtered).status()).toBe(200);

  // Only token.* events remain once the filtered page has rendered.
  await created.waitFor();
  await page.locator('[data-testid="audit-sentinel"]', { hasText: 'shown' }).waitFor();
  const actions = await page.getByTestId('audit-action').allTextContents();
  expect(actions.length).toBeGreaterThan(0);
  for (const action of actions) expect(action.startsWith('token.')).toBe(true);
}

async function revokeToken(page: Page): Promise<void> {
  await page.getByTestId('nav-tokens').click();
  const row = tokenRow(page);
  await row.waitFor();
  await row.getByTestId('token-revoke').click();
  // The confirmation appears in its own row right under the token.
  await page.locator('[data-testid="token-revoke-confirm-row"]').getByTestId('token-revoke-confirm').click();
  await row.getByTestId('token-status').filter({ hasText: 'revoked' }).waitFor();
  expect(await row.getByTestId('token-status').textContent()).toBe('revoked');
  expect(await row.getByTestId('token-revoke').count()).toBe(0);
}

function tokenRow(page: Page): Locator {
  return page.locator('[data-testid="token-row"][data-token-name="ci-deploy"]');
}
