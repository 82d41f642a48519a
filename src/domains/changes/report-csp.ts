/**
 * How a stored report is served and mailed, in the words changes needs without knowing the
 * evidence domain that writes the report.
 */
import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy of one stored report.html: `default-src 'none'` (nothing loads,
 * nothing runs), plus the hash of each of the document's own <style> blocks, so its look survives
 * the policy while an injected style or script would not. Computed from the stored document, so
 * an old version keeps the style it was written with.
 */
export function reportCsp(html: string): string {
  const hashes = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  return hashes.length ? `default-src 'none'; style-src ${[...new Set(hashes)].join(' ')}` : "default-src 'none'";
}

/** The report's CSV as an attachment and a download: change-CHG-1a2b3c4d-v2.csv. */
export const reportCsvFilename = (displayId: string, version: number): string => `change-${displayId}-v${version}.csv`;
