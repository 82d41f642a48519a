import { describe, expect, it } from 'vitest';
import { hasChromium } from '../support/browser.js';
import { snap, uiSuite } from '../support/ui-suite.js';

// The register-a-change form in Chromium against a real server: a refused field's sentence, worded
// by the server's one formatter, shows beside the input it names (recipients.0 belongs to
// "Report recipients"), and that input alone is marked invalid.

if (!hasChromium) console.warn('chromium not installed: field messages UI test skipped');

const owner = { email: 'owner@example.test', password: 'correct-horse-battery-staple' };

describe('refused fields in the web UI', () => {
  const suite = uiSuite({ name: 'field-messages-ui', owner: { ...owner, args: ['--name', 'Olivia Owner'] }, timeoutMs: 180_000 });

  it.skipIf(!hasChromium)('shows "Recipient 1 (bob@) is not an e-mail address" under Report recipients, and marks that input alone', async () => {
    const { browser, server } = suite();
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    try {
      const page = await context.newPage();
      await page.goto(new URL('/changes/new', server.url).toString());
      await page.waitForURL((url) => url.pathname === '/signin');
      await page.getByLabel('E-mail', { exact: true }).fill(owner.email);
      await page.getByLabel('Password', { exact: true }).fill(owner.password);
      await page.getByTestId('signin-submit').click();
      await page.waitForURL((url) => url.pathname === '/changes/new');

      await page.getByTestId('change-title').fill('Deploy checkout-api 1.2');
      await page.getByLabel('Components', { exact: true }).fill('checkout-api');
      await page.getByLabel('Report recipients').fill('bob@');
      const registered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/changes' && r.request().method() === 'POST');
      await page.getByTestId('change-submit').click();
      const answer = await registered;
      expect(answer.status()).toBe(400);
      expect(await answer.json()).toEqual({ error: 'Recipient 1 (bob@) is not an e-mail address', field: 'recipients.0' });

      const message = page.locator('[data-testid="field-error"][data-field="recipients.0"]');
      await message.waitFor();
      expect(await message.textContent()).toBe('Recipient 1 (bob@) is not an e-mail address');
      // Beside its own input: the message is in the field that holds the Report recipients box.
      const field = page.locator('.field', { has: page.getByLabel('Report recipients') });
      expect(await field.locator('[data-testid="field-error"]').textContent()).toBe('Recipient 1 (bob@) is not an e-mail address');
      expect(await page.getByLabel('Report recipients').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByTestId('change-title').getAttribute('aria-invalid')).toBeNull();
      expect(await page.getByTestId('field-error').count()).toBe(1);
      await snap(page, 'field-messages-recipient.png', { fullPage: true });
    } finally {
      await context.close();
    }
  }, 120_000);
});
