import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from '../support/browser.js';
import { snap, uiSuite } from '../support/ui-suite.js';

// Organisation → Members in Chromium against a real server without SMTP: an invitation shows its
// link once, the invited person signs in with it, and the owner re-roles them, makes them an
// approver and a critical approver, and removes them (their open page is signed out).

if (!hasChromium) console.warn('chromium not installed: members UI test skipped');

const ownerEmail = 'owner@example.test';
const ownerPassword = 'correct-horse-battery-staple';
const aliceEmail = 'alice@example.test';

async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(new URL('/signin', baseUrl).toString());
  await page.getByLabel('E-mail', { exact: true }).fill(ownerEmail);
  await page.getByLabel('Password', { exact: true }).fill(ownerPassword);
  await page.getByTestId('signin-submit').click();
  await page.getByTestId('header-user').waitFor();
}

/** Rows with an approver list being saved. */
const saving = (page: Page) => page.locator('[data-testid="member-row"][aria-busy="true"]');
const row = (page: Page, email: string) => page.locator(`[data-testid="member-row"][data-email="${email}"]`);

describe('Organisation → Members', () => {
  // Generous: the machine may be busy when this runs.
  const suite = uiSuite({ name: 'members-ui', owner: { email: ownerEmail, password: ownerPassword }, timeoutMs: 180_000 });

  it.skipIf(!hasChromium)(
    'invites with a link shown once, the invitee signs in with it, then role, Approver/Critical and removal',
    async () => {
      const { server, browser } = suite();
      const owner = await openPage(browser);
      const alice = await openPage(browser);
      try {
        const page = owner.page;
        await signIn(page, server.url);
        await page.getByTestId('nav-members').click();
        await page.waitForURL((url) => url.pathname === '/settings/members');
        expect(await page.getByTestId('nav-members').getAttribute('aria-current')).toBe('page');
        await row(page, ownerEmail).waitFor();
        // The only owner: its role and Remove are locked, saying why.
        expect(await row(page, ownerEmail).getByTestId('member-role').isDisabled()).toBe(true);
        expect(await row(page, ownerEmail).getByTestId('member-remove').getAttribute('title')).toMatch(/last owner/);

        // Invite: no SMTP, so the link is on screen once.
        await page.getByTestId('invite-email').fill(aliceEmail);
        await page.getByTestId('invite-name').fill('Alice Approver');
        await page.getByTestId('invite-submit').click();
        await page.getByTestId('member-link').waitFor();
        expect(await page.getByTestId('member-link-warning').textContent()).toMatch(/Shown once.*will not be shown again/);
        const link = ((await page.getByTestId('member-link-value').textContent()) ?? '').trim();
        expect(link).toMatch(new RegExp(`^${server.url}/signin/link#[A-Za-z0-9_-]{20,}$`));
        expect(await row(page, aliceEmail).getAttribute('data-status')).toBe('invited');
        expect(await row(page, aliceEmail).getByTestId('member-status').textContent()).toMatch(/Invited · link until/);
        await snap(page, 'members-invited.png', { fullPage: true });
        await page.getByTestId('member-link-dismiss').click();
        expect(await page.getByTestId('member-link').count()).toBe(0);
        await page.reload();
        await row(page, aliceEmail).waitFor();
        expect(await page.content()).not.toContain(link.split('#')[1]);

        // Alice opens the link in her own browser and is signed in as herself.
        await alice.page.goto(link);
        await alice.page.getByTestId('header-user').waitFor();
        expect(await alice.page.getByTestId('header-user').textContent()).toBe('Alice Approver');
        expect(await alice.page.getByTestId('nav-members').count()).toBe(0);
        await alice.page.goto(new URL('/settings/members', server.url).toString());
        await alice.page.getByTestId('members-forbidden').waitFor();

        // She has signed in; the owner makes her an approver, then a critical one.
        await page.reload();
        await row(page, aliceEmail).and(page.locator('[data-status="active"]')).waitFor();
        const critical = row(page, aliceEmail).getByTestId('member-critical');
        expect(await critical.isDisabled()).toBe(true);
        await row(page, aliceEmail).getByTestId('member-approver').check();
        await expect.poll(() => critical.isDisabled()).toBe(false);
        await critical.check();
        await expect.poll(() => saving(page).count()).toBe(0);
        await page.reload();
        await row(page, aliceEmail).waitFor();
        expect(await row(page, aliceEmail).getByTestId('member-approver').isChecked()).toBe(true);
        expect(await row(page, aliceEmail).getByTestId('member-critical').isChecked()).toBe(true);
        // On, Critical reads as a setting, not an error: a colour of its own, as on Change approvals.
        const colour = (testId: string) => row(page, aliceEmail).getByTestId(testId).evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor ?? '');
        expect(await colour('member-critical')).not.toBe(await colour('member-approver'));

        // Role change: she becomes an admin and, on her next page, sees Members.
        await row(page, aliceEmail).getByTestId('member-role').selectOption('admin');
        await row(page, aliceEmail).and(page.locator('[data-role="admin"]')).waitFor();
        await alice.page.reload();
        await alice.page.getByTestId('nav-members').waitFor();
        await snap(page, 'members-approver-critical.png', { fullPage: true });

        // Approver off ends Critical with it.
        await row(page, aliceEmail).getByTestId('member-approver').uncheck();
        await expect.poll(() => saving(page).count()).toBe(0);
        expect(await row(page, aliceEmail).getByTestId('member-critical').isChecked()).toBe(false);
        expect(await row(page, aliceEmail).getByTestId('member-critical').isDisabled()).toBe(true);

        // Removal, asked twice; her open page is signed out on its next request.
        await row(page, aliceEmail).getByTestId('member-remove').click();
        expect(await page.getByTestId('member-remove-confirm').textContent()).toMatch(/sessions end and their tokens are revoked/);
        await snap(page, 'members-remove-confirm.png', { fullPage: true });
        await page.getByTestId('member-remove-yes').click();
        await row(page, aliceEmail).waitFor({ state: 'detached' });
        await alice.page.reload();
        await alice.page.waitForURL((url) => url.pathname === '/signin');
        await snap(page, 'members-after-removal.png', { fullPage: true });
      } finally {
        await owner.context.close();
        await alice.context.close();
      }
      expect(owner.consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
    },
    180_000,
  );

  it.skipIf(!hasChromium)(
    'changes your display name on the Account page, and the header shows it',
    async () => {
      const { server, browser } = suite();
      const { context, page, consoleErrors } = await openPage(browser);
      try {
        await signIn(page, server.url);
        await page.goto(new URL('/account', server.url).toString());
        await page.getByTestId('account-name-edit').click();
        await page.getByTestId('account-name-input').fill('   ');
        await page.getByTestId('account-name-save').click();
        expect(await page.getByTestId('account-name-error').textContent()).toBe('Enter a name.');
        await page.getByTestId('account-name-input').fill('Olivia Owner');
        await page.getByTestId('account-name-save').click();
        await page.getByTestId('account-name').filter({ hasText: 'Olivia Owner' }).waitFor();
        expect(await page.getByTestId('header-user').textContent()).toBe('Olivia Owner');
        await snap(page, 'account-display-name.png', { fullPage: true });
        await page.reload();
        await page.getByTestId('account-name').filter({ hasText: 'Olivia Owner' }).waitFor();
      } finally {
        await context.close();
      }
      expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
    },
    120_000,
  );
});
