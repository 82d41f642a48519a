import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errors, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { hasChromium, launchChromium } from './browser.js';
import { createOwner, startServer, type ServerProcess } from './spawn-server.js';

/** Where the browser tests leave their screenshots. */
export const artifactsDir = join(process.cwd(), 'test-artifacts');

export type UiSuite = { dataDir: string; server: ServerProcess; browser: Browser };

/**
 * The set-up every browser suite shares, as the suite's beforeAll / afterAll: a data directory
 * with an owner, a real server process on it, Chromium. `prepare` runs before the server starts
 * (more people; it may answer extra environment for the server), `ready` once it listens (an
 * import). Nothing starts where Chromium is missing (the tests skip, saying so). Answers a getter
 * that throws when the set-up did not complete.
 */
export function uiSuite(o: {
  name: string;
  owner: { email: string; password: string; args?: string[] };
  prepare?: (dataDir: string) => Promise<Record<string, string> | void>;
  ready?: (server: ServerProcess) => Promise<void>;
  timeoutMs?: number;
}): () => UiSuite {
  let dataDir: string | undefined;
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!hasChromium) return;
    dataDir = await mkdtemp(join(tmpdir(), `changeledger-${o.name}-`));
    await mkdir(artifactsDir, { recursive: true });
    await createOwner(dataDir, o.owner.email, o.owner.password, o.owner.args);
    const env = (await o.prepare?.(dataDir)) ?? undefined;
    server = await startServer({ dataDir, ...(env ? { env } : {}) });
    await o.ready?.(server);
    browser = await launchChromium();
    // Two processes each opening a new embedded database, then Chromium: on a saturated machine this
    // passed 60 s once, so the limit only guards against a hang.
  }, o.timeoutMs ?? 180_000);

  afterAll(async () => {
    // Each step guarded on its own so one failure does not leak the server or the dir.
    await browser?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  return () => {
    if (dataDir === undefined || server === undefined || browser === undefined) throw new Error('setup did not complete');
    return { dataDir, server, browser };
  };
}

/** A full-page screenshot into test-artifacts/, taken from the top of the page (look at them). */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await snap(page, name, { fullPage: true });
}

/**
 * A screenshot into test-artifacts/ of a page (its viewport, or all of it with fullPage) or of one
 * element. Screenshots are for people to look at, never what a test asserts, so one that Chromium
 * does not answer in time is asked for again, saying so: a CI run on a busy machine lost a capture
 * after 15 s, with every check of the page before it passed. A second miss fails the test.
 */
export async function snap(target: Page | Locator, name: string, options: { fullPage?: boolean; clip?: { x: number; y: number; width: number; height: number } } = {}): Promise<void> {
  const path = join(artifactsDir, name);
  const take = (timeout: number): Promise<Buffer> => ('goto' in target ? target.screenshot({ path, timeout, ...options }) : target.screenshot({ path, timeout }));
  try {
    await take(30_000);
  } catch (err) {
    if (!(err instanceof errors.TimeoutError)) throw err;
    console.warn(`screenshot ${name}: Chromium did not answer in 30 s; asking once more`);
    await take(60_000);
  }
}
