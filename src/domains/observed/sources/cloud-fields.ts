/**
 * Small readers the cloud adapters (CloudTrail, Azure Activity Log) share. Pure: no clock, no I/O.
 * Cloud audit records are loosely typed JSON written by many services, so every read checks the
 * type it gets instead of trusting a schema.
 */

export type Json = Record<string, unknown>;

export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A non-empty string, or null. */
export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);


/**
 * An event time as ISO 8601 UTC, or null. Besides ISO it reads the `2022-09-30 15:11:25.000000000`
 * form some log pipelines rewrite CloudTrail's eventTime into (a space, nanoseconds, no zone: UTC).
 */
export function isoTime(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  let s = v.trim();
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (m) s = `${m[1]}T${m[2]}${m[3] ? `.${m[3].slice(0, 3).padEnd(3, '0')}` : ''}${m[4] ?? 'Z'}`;
  else if (!/^\d{4}-\d{2}-\d{2}T/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** What a rejected item says: the field, in words a person understands. */
export type ItemProblem = { field: string; message: string };
