import { createHash } from 'node:crypto';
import type { Flag, FlagState, Json, Rule } from './flag.js';

/** OpenFeature's resolution reasons and error codes, as OFREP carries them. */
export type EvalReason = 'DISABLED' | 'TARGETING_MATCH' | 'SPLIT' | 'STATIC' | 'DEFAULT';
export type EvalErrorCode = 'TARGETING_KEY_MISSING' | 'INVALID_CONTEXT';
export type Evaluation =
  | { ok: true; value: Json; reason: EvalReason; variant: string }
  | { ok: false; errorCode: EvalErrorCode; errorDetails: string };

export type EvalContext = Record<string, unknown>;

function attribute(ctx: EvalContext, name: string): string | null {
  const v = ctx[name];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

function matches(rule: Rule, ctx: EvalContext): boolean {
  const v = attribute(ctx, rule.attribute);
  if (v === null) return rule.op === 'not_equals' || rule.op === 'not_in';
  switch (rule.op) {
    case 'equals':
      return v === rule.values[0];
    case 'not_equals':
      return v !== rule.values[0];
    case 'in':
      return rule.values.includes(v);
    case 'not_in':
      return !rule.values.includes(v);
    case 'starts_with':
      return rule.values.some((p) => v.startsWith(p));
    case 'ends_with':
      return rule.values.some((p) => v.endsWith(p));
    case 'contains':
      return rule.values.some((p) => v.includes(p));
  }
}

/**
 * Where a context falls in 0–100, stable for a flag and key: SHA-256 of `flag:key`, so a user keeps
 * their bucket across evaluations and raising the percentage only ever adds users.
 */
export function bucketOf(flagKey: string, bucketKey: string): number {
  const h = createHash('sha256').update(`${flagKey}:${bucketKey}`).digest();
  return (h.readUInt32BE(0) / 2 ** 32) * 100;
}

/** What a flag serves to a context: off value when disabled, first matching rule, rollout, on value. */
export function evaluate(flag: Pick<Flag, 'key' | 'offValue'>, state: FlagState, ctx: EvalContext): Evaluation {
  if (!state.enabled) return { ok: true, value: flag.offValue, reason: 'DISABLED', variant: 'off' };
  for (const [i, rule] of state.rules.entries()) {
    if (matches(rule, ctx)) return { ok: true, value: rule.value, reason: 'TARGETING_MATCH', variant: `rule-${i + 1}` };
  }
  if (state.rollout) {
    const key = attribute(ctx, state.rollout.bucketBy);
    if (key === null) {
      if (state.rollout.bucketBy === 'targetingKey') return { ok: false, errorCode: 'TARGETING_KEY_MISSING', errorDetails: `flag ${flag.key} rolls out by targetingKey, and the context has none` };
      return { ok: true, value: flag.offValue, reason: 'DEFAULT', variant: 'off' };
    }
    const inside = bucketOf(flag.key, key) < state.rollout.percentage;
    return { ok: true, value: inside ? state.value : flag.offValue, reason: 'SPLIT', variant: inside ? 'on' : 'off' };
  }
  return { ok: true, value: state.value, reason: 'STATIC', variant: 'on' };
}
