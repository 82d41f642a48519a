import { canonicalJson } from '../../platform/canonical-json.js';
import { compileTicketPattern } from './ticket-pattern.js';

/** Flags: types and the pure rules of values, reasons and change slices. */

export const FLAG_TYPES = ['boolean', 'string', 'number', 'json'] as const;
export type FlagType = (typeof FLAG_TYPES)[number];
export const RISKS = ['low', 'high'] as const;
export type Risk = (typeof RISKS)[number];
/** Where a flag change came from; gitops and automation carry extra provenance. */
export const FLAG_SOURCES = ['ui', 'api', 'cli', 'gitops', 'automation'] as const;
export type FlagSource = (typeof FLAG_SOURCES)[number];

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export const RULE_OPS = ['equals', 'not_equals', 'in', 'not_in', 'starts_with', 'ends_with', 'contains'] as const;
export type RuleOp = (typeof RULE_OPS)[number];
export type Rule = { attribute: string; op: RuleOp; values: string[]; value: Json };
export type Rollout = { percentage: number; bucketBy: string };

/** What a flag serves in one environment. */
export type FlagState = { enabled: boolean; value: Json; rules: Rule[]; rollout: Rollout | null };

export type Flag = {
  key: string;
  type: FlagType;
  description: string;
  ownerService: string | null;
  risk: Risk;
  tags: string[];
  /** Served while the flag is off in an environment. */
  offValue: Json;
  /** Approvals every change needs in every environment; 0 follows each environment's policy. */
  approvalsNeeded: number;
  createdAt: string;
  updatedAt: string;
};

export const FLAG_KEY = /^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)*$/;
export const MIN_REASON_LENGTH = 10;
/** A ticket reference when the organisation names no pattern of its own: OPS-123, INC-42. */
export const DEFAULT_TICKET_PATTERN = '\\b[A-Z][A-Z0-9]{1,9}-\\d+\\b';

/** Does a value fit the flag's type? Answers the problem, or null. */
export function valueProblem(type: FlagType, value: unknown): string | null {
  switch (type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false for a boolean flag';
    case 'string':
      return typeof value === 'string' && value.length <= 10_000 ? null : 'must be a string (at most 10,000 characters) for a string flag';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a finite number for a number flag';
    case 'json':
      return value !== undefined && JSON.stringify(value).length <= 32_768 ? null : 'must be JSON of at most 32 KiB for a json flag';
  }
}

export type ReasonVerdict = { ok: true } | { ok: false; error: string };

/**
 * High-risk flags need a reason a retro can use: ten characters or more, or a ticket reference
 * (the organisation's pattern, run in linear time) or a link. Low-risk flags accept none. A stored
 * pattern the linear engine cannot compile (saved before it was required) matches nothing.
 */
export function checkReason(risk: Risk, reason: string, ticketPattern: string = DEFAULT_TICKET_PATTERN): ReasonVerdict {
  if (risk === 'low') return { ok: true };
  const text = reason.trim();
  if (text.length >= MIN_REASON_LENGTH) return { ok: true };
  if (/\bhttps?:\/\/\S+/.test(text)) return { ok: true };
  if (text) {
    const pattern = compileTicketPattern(ticketPattern);
    if (pattern.ok && pattern.matcher.test(text)) return { ok: true };
  }
  return {
    ok: false,
    error: text
      ? `reason "${text}" is too thin for a high-risk flag: write at least ${MIN_REASON_LENGTH} characters, or give a ticket reference or a link`
      : 'reason is required for a high-risk flag: write at least 10 characters, or give a ticket reference or a link',
  };
}

// Key order is not meaning: jsonb hands objects back with their keys reordered.
const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/**
 * The slice of a state that changed, as the record's from/to: a toggle is the two booleans, a value
 * change the two values, a rollout change only the rollout fields that moved (5 → 50 must show),
 * anything else an object of the changed parts. Null when nothing changed.
 */
export function changedSlice(before: FlagState, after: FlagState): { from: Json; to: Json; fields: string[] } | null {
  const fields = (['enabled', 'value', 'rules', 'rollout'] as const).filter((k) => !same(before[k], after[k]));
  if (fields.length === 0) return null;
  if (fields.length === 1 && fields[0] === 'enabled') return { from: before.enabled, to: after.enabled, fields };
  if (fields.length === 1 && fields[0] === 'value') return { from: before.value, to: after.value, fields };
  const from: Record<string, Json> = {};
  const to: Record<string, Json> = {};
  for (const f of fields) {
    if (f === 'rollout' && before.rollout && after.rollout) {
      const fr: Record<string, Json> = {};
      const tr: Record<string, Json> = {};
      for (const k of ['percentage', 'bucketBy'] as const) {
        if (before.rollout[k] !== after.rollout[k]) {
          fr[k] = before.rollout[k];
          tr[k] = after.rollout[k];
        }
      }
      from.rollout = fr;
      to.rollout = tr;
    } else {
      from[f] = before[f] as Json;
      to[f] = after[f] as Json;
    }
  }
  return { from, to, fields };
}

/** Namespace patterns: `ops.payments.*` (every key under it), or an exact key. */
export function namespacePrefix(pattern: string): { prefix: string; exact: boolean } {
  const p = pattern.trim();
  if (p.endsWith('.*')) return { prefix: p.slice(0, -1), exact: false };
  if (p.endsWith('*')) return { prefix: p.slice(0, -1), exact: false };
  return { prefix: p, exact: true };
}

export const APPROVAL_POLICIES = ['none', 'high-risk', 'all'] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];
export type EnvironmentPolicy = { approvalPolicy: ApprovalPolicy; approvalsNeeded: number };

/** How many approvals a change of this flag in this environment needs (0: none). */
export function approvalsRequired(flag: Pick<Flag, 'risk' | 'approvalsNeeded'>, env: EnvironmentPolicy): { needed: number; why: string } {
  if (flag.approvalsNeeded > 0) return { needed: flag.approvalsNeeded, why: 'the flag requires approval' };
  if (env.approvalPolicy === 'all') return { needed: env.approvalsNeeded, why: 'the environment requires approval of every change' };
  if (env.approvalPolicy === 'high-risk' && flag.risk === 'high') return { needed: env.approvalsNeeded, why: 'the environment requires approval of high-risk flags' };
  return { needed: 0, why: 'no approval required' };
}

/**
 * The owner values that name a catalogue service: a flag owned by `payments-api` belongs to the
 * entity `svc:payments-api`, and an owner written as the key itself does too.
 */
export function ownerNamesOf(service: string): string[] {
  const name = service.startsWith('svc:') ? service.slice('svc:'.length) : service;
  return name === '' ? [service] : [name, `svc:${name}`];
}
