import type { FlagRule, FlagType, RuleOp } from '../api/types';

// Editors keep text drafts (a half-typed number or JSON document is not a value yet)
// and parse them into the flag's type only when saving.

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export function valueToText(type: FlagType, value: unknown): string {
  switch (type) {
    case 'boolean':
      return value === true ? 'true' : 'false';
    case 'string':
      return typeof value === 'string' ? value : '';
    case 'number':
      return typeof value === 'number' ? String(value) : '';
    case 'json':
      return value === undefined ? '{}' : JSON.stringify(value, null, 2);
  }
}

export function parseValueText(type: FlagType, text: string): Parsed<unknown> {
  switch (type) {
    case 'boolean':
      return { ok: true, value: text === 'true' };
    case 'string':
      return { ok: true, value: text };
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) return { ok: false, error: 'Enter a number.' };
      return { ok: true, value: n };
    }
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch (error) {
        return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
      }
  }
}

export type RuleDraft = { id: number; attribute: string; op: RuleOp; values: string; value: string };

let nextDraftId = 1;

export function ruleToDraft(type: FlagType, rule: FlagRule): RuleDraft {
  nextDraftId += 1;
  return { id: nextDraftId, attribute: rule.attribute, op: rule.op, values: rule.values.join(', '), value: valueToText(type, rule.value) };
}

export function emptyRuleDraft(type: FlagType): RuleDraft {
  nextDraftId += 1;
  const value = type === 'boolean' ? 'true' : type === 'json' ? '{}' : '';
  return { id: nextDraftId, attribute: '', op: 'equals', values: '', value };
}

export function splitValues(text: string): string[] {
  return text.split(',').map((v) => v.trim()).filter((v) => v !== '');
}

// Answers the rules, or the first problem with the row it is in (1-based for people).
export function parseRuleDrafts(type: FlagType, drafts: readonly RuleDraft[]): Parsed<FlagRule[]> & { row?: number } {
  const rules: FlagRule[] = [];
  for (const [index, draft] of drafts.entries()) {
    const row = index + 1;
    if (draft.attribute.trim() === '') return { ok: false, error: `Rule ${String(row)}: name the context attribute, e.g. country.`, row };
    const values = splitValues(draft.values);
    if (values.length === 0) return { ok: false, error: `Rule ${String(row)}: give at least one value to compare with.`, row };
    const value = parseValueText(type, draft.value);
    if (!value.ok) return { ok: false, error: `Rule ${String(row)}: ${value.error}`, row };
    rules.push({ attribute: draft.attribute.trim(), op: draft.op, values, value: value.value });
  }
  return { ok: true, value: rules };
}
