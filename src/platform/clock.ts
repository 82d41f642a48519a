import { badRequest } from './errors.js';

/** Where domain code gets the time. Tests use a SettableClock; nothing else calls Date.now(). */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

export class SettableClock implements Clock {
  #ms: number;
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  set(at: Date | string): void {
    this.#ms = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parses a relative duration such as `15m`, `1h`, `7d`; null when the text is not one. */
export function parseDuration(text: string): number | null {
  const m = /^(\d{1,6})([smhdw])$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * UNITS[m[2] as string]!;
}

/** `1h` (relative to now) or an ISO-8601 time with a zone; null when neither. */
export function parseTimeBound(text: string, now: Date): Date | null {
  const rel = parseDuration(text);
  if (rel !== null) return new Date(now.getTime() - rel);
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(text.trim())) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * An optional window bound from a request or an option: absent → undefined, unreadable → a 400
 * naming the field (`label` is how the caller spells it, e.g. `--since` on the command line).
 */
export function timeBound(text: string | undefined, now: Date, field: string, label = field): Date | undefined {
  if (text === undefined || text === '') return undefined;
  const d = parseTimeBound(text, now);
  if (!d) throw badRequest(`${label} must be a duration such as 1h or 7d, or an ISO-8601 time`, field);
  return d;
}
