import { OutboundFailed, OutboundRefused, type OutboundResponse } from '../../../platform/net/outbound.js';
import { TICKET_USER_AGENT } from '../signing.js';
import type { AdapterContext, ProbeStep, StepAnswer, TicketKind, TicketTest } from './ticket-types.js';

/** What an update answers when the create never gave it a ticket: final, nothing was sent. */
export const NO_TICKET_TO_UPDATE: StepAnswer = { status: 400, error: 'no ticket to update: the step that opens it did not succeed', calls: 0 };

const MAX_ERROR_CHARS = 300;

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A vendor's answer may be truncated, HTML or empty: never throw over it. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string, or a number written as one (vendors differ on ids); anything else is null. */
export function asText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A body that is not JSON, as a line a person can read; HTML pages say nothing useful. */
function plainText(body: string): string {
  const t = body.trim();
  if (!t || t.startsWith('<')) return '';
  return t.replace(/\s+/g, ' ');
}

/**
 * "Jira answered 401: Client must be authenticated…": the status and what the vendor's error
 * body says, read by `extract` when it is JSON, else the text itself.
 */
export function vendorError(vendor: string, res: Pick<OutboundResponse, 'status' | 'body'>, extract: (json: unknown) => string[]): string {
  const json = parseJson(res.body);
  const parts = json === undefined ? [] : extract(json).map((p) => p.trim()).filter(Boolean);
  const detail = parts.length ? parts.join('; ') : plainText(res.body);
  return clip(`${vendor} answered ${res.status}${detail ? `: ${detail.replace(/\s+/g, ' ')}` : ''}`, MAX_ERROR_CHARS);
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** One JSON exchange with a vendor through the guarded client. */
export function callVendor(
  ctx: AdapterContext, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, authorization: string, payload?: unknown,
): Promise<OutboundResponse> {
  const headers: Record<string, string> = { accept: 'application/json', authorization, 'user-agent': TICKET_USER_AGENT };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return ctx.client.request({ method, url, headers, body: payload === undefined ? undefined : JSON.stringify(payload), allowPrivate: ctx.allowPrivate });
}

/**
 * A probe reports a request that never got an answer (refused by the guard, unreachable, timed
 * out) as a failed step instead of throwing; any other error is a bug and propagates.
 */
export async function probeCall(run: () => Promise<OutboundResponse>): Promise<OutboundResponse | OutboundRefused | OutboundFailed> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof OutboundRefused || err instanceof OutboundFailed) return err;
    throw err;
  }
}

export function unanswered(name: string, err: OutboundRefused | OutboundFailed): ProbeStep {
  return { name, ok: false, status: null, detail: err.message };
}

/** All steps ok → the success sentence; otherwise the first failure says what went wrong. */
export function probeResult(kind: TicketKind, steps: ProbeStep[], success: () => string): TicketTest {
  const failed = steps.find((s) => !s.ok);
  const message = failed ? `${failed.name} failed: ${failed.detail ?? `answer ${failed.status ?? 'none'}`}` : success();
  return { kind, ok: !failed, message, steps };
}

/** The description lines, with the change's own link added when no line carries it yet. */
export function withChangeLink(lines: string[], link: string): string[] {
  return lines.some((l) => l.includes(link)) ? lines : [...lines, `Change: ${link}`];
}
