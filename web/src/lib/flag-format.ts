import type { Environment, Flag, FlagRecord, FlagRisk, FlagRollout, FlagRule, FlagStatePatch } from '../api/types';

export function flagHref(key: string): string {
  return `/flags/${encodeURIComponent(key)}`;
}

// ---------- Reasons ----------

export const minReasonLength = 10;
const ticketPattern = /\b[A-Z][A-Z0-9]+-\d+\b/;
const urlPattern = /\bhttps?:\/\/\S+/;

export const highRiskReasonRule =
  'This flag is high-risk: say why in at least 10 characters, or give a ticket reference (OPS-123) or a link.';

// A first check so an obviously thin reason does not cost a round trip. The server
// applies the organisation's own rule and stays the authority: its 400 is shown as is.
export function reasonProblem(risk: FlagRisk, reason: string): string | null {
  if (risk === 'low') return null;
  const text = reason.trim();
  if (text.length >= minReasonLength || urlPattern.test(text) || ticketPattern.test(text)) return null;
  if (text === '') return 'A reason is required for a high-risk flag.';
  return `“${text}” is too thin for a high-risk flag: write at least ${String(minReasonLength)} characters, or give a ticket reference or a link.`;
}

// ---------- Values ----------

export function formatValue(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

export function onOff(enabled: boolean): 'on' | 'off' {
  return enabled ? 'on' : 'off';
}

export function formatRollout(rollout: FlagRollout | null | undefined): string {
  if (rollout === null || rollout === undefined) return 'none';
  return `${String(rollout.percentage)}% by ${rollout.bucketBy}`;
}

export function formatRule(rule: FlagRule): string {
  const values = rule.values.join(', ');
  return `${rule.attribute} ${rule.op.replace(/_/g, ' ')} ${values} ⇒ ${formatValue(rule.value)}`;
}

export function formatRules(rules: readonly FlagRule[]): string {
  if (rules.length === 0) return 'none';
  if (rules.length > 2) return `${String(rules.length)} rules`;
  return rules.map(formatRule).join('; ');
}

// ---------- Records: the changed slice, readable ----------

export type ChangePart = { label: string; from: string; to: string };

export type ChangeDescription =
  | { kind: 'parts'; parts: ChangePart[] }
  | { kind: 'text'; text: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRollout(value: unknown): value is Partial<FlagRollout> {
  return isRecord(value);
}

function isRules(value: unknown): value is FlagRule[] {
  return Array.isArray(value) && value.every((r) => isRecord(r) && typeof r['attribute'] === 'string');
}

// A rollout slice carries only the fields that moved: {percentage: 5} → {percentage: 50}
// reads "rollout 5% → 50%"; a new rollout (null → {…}) reads "none → 5% by userId".
function rolloutParts(from: unknown, to: unknown): ChangePart[] {
  if (!isRollout(from) || !isRollout(to)) {
    const side = (v: unknown): string => (isRollout(v) ? formatRollout(v as FlagRollout) : 'none');
    return [{ label: 'rollout', from: side(from), to: side(to) }];
  }
  const parts: ChangePart[] = [];
  if (from.percentage !== undefined || to.percentage !== undefined) {
    parts.push({
      label: 'rollout',
      from: from.percentage === undefined ? '—' : `${String(from.percentage)}%`,
      to: to.percentage === undefined ? '—' : `${String(to.percentage)}%`,
    });
  }
  if (from.bucketBy !== undefined || to.bucketBy !== undefined) {
    parts.push({ label: 'bucket by', from: from.bucketBy ?? '—', to: to.bucketBy ?? '—' });
  }
  return parts;
}

function fieldParts(field: string, from: unknown, to: unknown): ChangePart[] {
  switch (field) {
    case 'enabled':
      return [{ label: '', from: from === true ? 'on' : 'off', to: to === true ? 'on' : 'off' }];
    case 'rollout':
      return rolloutParts(from, to);
    case 'rules':
      return [
        {
          label: 'rules',
          from: isRules(from) ? formatRules(from) : formatValue(from),
          to: isRules(to) ? formatRules(to) : formatValue(to),
        },
      ];
    default:
      return [{ label: field, from: formatValue(from), to: formatValue(to) }];
  }
}

export function describeRecord(record: FlagRecord): ChangeDescription {
  const { change, from, to, fields } = record;
  if (change === 'created') {
    // Since record version 3 the definition has its own field; before, it was the creation's `to`.
    const t = isRecord(record.definition) ? record.definition : isRecord(to) ? to : {};
    const bits = [t['type'], t['risk'] === undefined ? undefined : `${String(t['risk'])} risk`]
      .filter((b): b is string => typeof b === 'string');
    return { kind: 'text', text: bits.length > 0 ? `created (${bits.join(', ')})` : 'created' };
  }
  if (change === 'deleted') return { kind: 'text', text: 'deleted' };
  if (change === 'unchanged') {
    return { kind: 'text', text: typeof to === 'boolean' ? `unchanged (already ${onOff(to)})` : 'unchanged' };
  }
  if (fields.length === 1 && fields[0] === 'enabled') return { kind: 'parts', parts: fieldParts('enabled', from, to) };
  if (fields.length === 1 && fields[0] === 'value') return { kind: 'parts', parts: fieldParts('value', from, to) };
  if (isRecord(from) && isRecord(to)) {
    const keys = fields.length > 0 ? fields : [...new Set([...Object.keys(from), ...Object.keys(to)])];
    return { kind: 'parts', parts: keys.flatMap((k) => fieldParts(k, from[k], to[k])) };
  }
  // Older records (schema version 1) carry the two values without `fields`.
  if (typeof from === 'boolean' && typeof to === 'boolean') return { kind: 'parts', parts: fieldParts('enabled', from, to) };
  return { kind: 'parts', parts: [{ label: '', from: formatValue(from), to: formatValue(to) }] };
}

export function describeChangeText(record: FlagRecord): string {
  const d = describeRecord(record);
  if (d.kind === 'text') return d.text;
  return d.parts.map((p) => `${p.label === '' ? '' : `${p.label} `}${p.from} → ${p.to}`).join('; ');
}

// What a change request would do, for the approver.
export function describePatch(patch: FlagStatePatch): string {
  const bits: string[] = [];
  if (patch.enabled !== undefined) bits.push(patch.enabled ? 'turn on' : 'turn off');
  if (patch.value !== undefined) bits.push(`value → ${formatValue(patch.value)}`);
  if (patch.rollout !== undefined) bits.push(`rollout → ${formatRollout(patch.rollout)}`);
  if (patch.rules !== undefined) bits.push(`rules → ${formatRules(patch.rules)}`);
  return bits.length === 0 ? 'no change' : bits.join('; ');
}

// ---------- Approvals ----------

// How many approvals a change to this flag in this environment needs, by the same rule
// as the server: the flag's own count first, then the environment's policy. The server
// still decides; a 202 answer is the real signal.
export function approvalsFor(flag: Pick<Flag, 'risk' | 'approvalsNeeded'>, env: Environment | undefined): number {
  if (flag.approvalsNeeded > 0) return flag.approvalsNeeded;
  if (env === undefined) return 0;
  if (env.approvalPolicy === 'all') return env.approvalsNeeded;
  if (env.approvalPolicy === 'high-risk' && flag.risk === 'high') return env.approvalsNeeded;
  return 0;
}
