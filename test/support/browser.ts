import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Debian's Chromium; the browser tests skip, saying so, where it is not installed. */
export const chromiumPath = '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);

/**
 * Headless Chromium as this machine allows it: no sandbox as root, and no background networking,
 * whose connections a closed network refuses by the dozen.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // A browser suite that breaks on a new Chromium should say which one it ran on.
  console.info(`chromium ${browser.version()} (${chromiumPath})`);
  return browser;
}

/**
 * Scrolls the control into view as a click would, from wherever the page is, and answers what a
 * press at its centre would land on: 'control' when it is the control itself (or inside it),
 * else a short description of what covers it (the sticky top bar, a label…).
 */
export async function pressLandsOn(control: Locator): Promise<string> {
  await control.scrollIntoViewIfNeeded();
  return control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (hit !== null && (hit === el || el.contains(hit))) return 'control';
    if (hit === null) return 'nothing (outside the viewport)';
    const cls = typeof hit.className === 'string' && hit.className !== '' ? `.${hit.className.split(/\s+/).join('.')}` : '';
    return `${hit.tagName.toLowerCase()}${cls}`;
  });
}

/**
 * A fresh context and page on a laptop-sized screen, with a short default timeout and the page's
 * console errors collected (a test asserts there are none).
 */
export async function openPage(browser: Browser, viewport = { width: 1440, height: 900 }): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  return { context, page, consoleErrors };
}

/**
 * Opens `path` of the UI at `base` signed out, signs in on the page it sends you to, and waits to
 * be back on `path`: what a person following a link does.
 */
export async function signInAt(page: Page, base: string, path: string, email: string, password: string): Promise<void> {
  const target = new URL(path, base);
  await page.goto(target.toString());
  await page.waitForURL((url) => url.pathname === '/signin');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL((url) => url.pathname === target.pathname);
  // The address changes before the page it names replaces the sign-in form: wait for the form to go.
  await page.getByTestId('signin-submit').waitFor({ state: 'detached' });
}
