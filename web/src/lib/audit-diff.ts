// An audit event's data as a person reads it: what changed (old → new), what was added or
// removed, and the rest of the facts. Events name their two sides before/after or from/to, or
// keep one {from, to} per field under `changed` (the change and alert settings).

export type DiffRow =
  | { kind: 'changed'; key: string; before: string; after: string }
  | { kind: 'added'; key: string; after: string }
  | { kind: 'removed'; key: string; before: string };

export type AuditDiff = { changes: DiffRow[]; facts: Array<{ key: string; value: string }> };

const SIDES = [['before', 'after'], ['from', 'to']] as const;

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value in one line: text as it is, anything else as compact JSON. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '(absent)';
  return JSON.stringify(value);
}

function sideDiff(before: unknown, after: unknown, label: string): DiffRow[] {
  if (isPlain(before) && isPlain(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key): DiffRow[] => {
      const inBefore = key in before;
      const inAfter = key in after;
      if (inBefore && !inAfter) return [{ kind: 'removed', key, before: shown(before[key]) }];
      if (!inBefore && inAfter) return [{ kind: 'added', key, after: shown(after[key]) }];
      const b = shown(before[key]);
      const a = shown(after[key]);
      return b === a ? [] : [{ kind: 'changed', key, before: b, after: a }];
    });
  }
  // A creation (nothing before) adds; a removal (nothing after) removes; else one value moved.
  if ((before === null || before === undefined) && isPlain(after)) return Object.entries(after).map(([key, v]) => ({ kind: 'added', key, after: shown(v) }));
  if ((after === null || after === undefined) && isPlain(before)) return Object.entries(before).map(([key, v]) => ({ kind: 'removed', key, before: shown(v) }));
  return [{ kind: 'changed', key: label, before: before === null ? '(none)' : shown(before), after: after === null ? '(none)' : shown(after) }];
}

/** `changed: {field: {from, to}}`, as the change and alert settings keep their writes; null for any other shape. */
function fieldChanges(changed: unknown): DiffRow[] | null {
  if (!isPlain(changed)) return null;
  const entries = Object.entries(changed);
  if (entries.length === 0 || !entries.every(([, v]) => isPlain(v) && 'from' in v && 'to' in v)) return null;
  return entries.flatMap(([key, v]) => sideDiff((v as Plain)['from'], (v as Plain)['to'], key).map((row) => (row.key === key ? row : { ...row, key: `${key}.${row.key}` })));
}

export function auditDiff(data: Record<string, unknown>): AuditDiff {
  const pair = SIDES.find(([b, a]) => b in data && a in data);
  const perField = pair ? null : fieldChanges(data['changed']);
  if (perField) {
    return { changes: perField, facts: Object.entries(data).filter(([key]) => key !== 'changed').map(([key, value]) => ({ key, value: shown(value) })) };
  }
  // One value moved: named by the one field the event says changed (a flag's enabled), if it says.
  const fields = data['fields'];
  const label = Array.isArray(fields) && fields.length === 1 && typeof fields[0] === 'string' ? fields[0] : 'value';
  const changes = pair ? sideDiff(data[pair[0]], data[pair[1]], label) : [];
  const facts = Object.entries(data)
    .filter(([key]) => !pair || (key !== pair[0] && key !== pair[1]))
    .map(([key, value]) => ({ key, value: shown(value) }));
  return { changes, facts };
}
