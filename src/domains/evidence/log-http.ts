import { OutboundFailed, OutboundRefused, type OutboundResponse } from '../../platform/net/outbound.js';
import type { LogAuth } from './log-source-config.js';
import { scrubSecrets } from '../../platform/scrub.js';

/** What the Loki and Elasticsearch clients share: credentials on the wire, and failures in words. */

const MAX_REASON = 300;

export function authHeader(auth: LogAuth): Record<string, string> {
  if (auth.kind === 'bearer') return { authorization: `Bearer ${auth.token}` };
  if (auth.kind === 'basic') return { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`, 'utf8').toString('base64')}` };
  return {};
}

/** What a failed request means, in words; the outbound guard's refusal is kept as it is. */
export function outboundReason(err: unknown): string {
  if (err instanceof OutboundRefused) return err.message;
  if (err instanceof OutboundFailed) {
    if (err.kind === 'timeout') return `timed out after ${Math.max(1, Math.round(err.durationMs / 1000))} s`;
    if (/ECONNREFUSED/.test(err.message)) return 'connection refused';
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** The peer's own words of a non-2xx answer: plain text, {message}, {error} or Elasticsearch's {error: {reason}}. */
export function answered(who: string, res: OutboundResponse): string {
  let said = res.body.trim();
  try {
    const o = JSON.parse(said) as Record<string, unknown>;
    const m = o.message ?? o.error;
    if (typeof m === 'string') said = m;
    else if (o.error && typeof o.error === 'object') {
      const e = o.error as Record<string, unknown>;
      if (typeof e.reason === 'string') said = e.reason;
    }
  } catch {
    // plain text: as it came
  }
  // The peer's words land in a report and may echo what it was sent.
  said = scrubSecrets(said.replace(/\s+/g, ' ').trim());
  if (said.length > MAX_REASON) said = `${said.slice(0, MAX_REASON)}…`;
  return said ? `${who} answered ${res.status}: ${said}` : `${who} answered ${res.status}`;
}
