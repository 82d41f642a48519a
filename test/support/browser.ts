import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium; the browser tests skip, saying so, where it is not installed. */
export const chromiumPath = '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);

/**
 * Headless Chromium as this machine allows it: no sandbox as root, and no background networking,
 * whose connections a closed network refuses by the dozen.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
