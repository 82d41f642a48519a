/**
 * The organisation's unmanaged-change settings and the checks of a PUT, field by field, worded
 * for a person. Pure.
 */
import { invalid } from '../../../platform/errors.js';
import { globProblem } from '../observed-settings.js';
import type { ItsmChangeMatch } from './unmanaged-types.js';

export type UnmanagedSettings = {
  /** The reference rule: every applied audit-log write needs a reference. Off until an owner turns it on. */
  referenceRule: boolean;
  authorizedPrincipals: string[];
  itsmChangeMatch: ItsmChangeMatch;
  /** Denied attempts open or join a case per principal · account · UTC hour. */
  deniedAccessToSecops: boolean;
};

export type UnmanagedSettingsInput = Partial<Record<keyof UnmanagedSettings, unknown>>;

export const DEFAULT_UNMANAGED_SETTINGS: UnmanagedSettings = { referenceRule: false, authorizedPrincipals: [], itsmChangeMatch: {}, deniedAccessToSecops: true };

/** What the performance goal is measured at, and more than any organisation lists. */
export const MAX_AUTHORIZED_PRINCIPALS = 1000;
const MAX_LIST = 100;
const MAX_WORD = 200;
const JIRA_FIELD = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkBoolean(field: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw invalid(field, 'must be true or false');
  return v;
}

function checkPrincipals(v: unknown): string[] {
  if (!Array.isArray(v)) throw invalid('authorizedPrincipals', 'must be a list of patterns such as system:serviceaccount:ci:* or arn:aws:iam::*:role/deploy-*');
  if (v.length > MAX_AUTHORIZED_PRINCIPALS) throw invalid('authorizedPrincipals', `must list at most ${MAX_AUTHORIZED_PRINCIPALS} patterns`);
  const out: string[] = [];
  v.forEach((g, i) => {
    if (typeof g !== 'string') throw invalid(`authorizedPrincipals.${i}`, 'must be a pattern (text)');
    const glob = g.trim();
    const problem = globProblem(glob);
    if (problem) throw invalid(`authorizedPrincipals.${i}`, problem);
    if (/^\*+$/.test(glob)) throw invalid(`authorizedPrincipals.${i}`, 'would authorize every principal, which turns the rule off: switch the rule off instead');
    if (!out.includes(glob)) out.push(glob);
  });
  return out;
}

function checkWords(field: string, v: unknown): string[] {
  if (!Array.isArray(v)) throw invalid(field, 'must be a list of names');
  if (v.length > MAX_LIST) throw invalid(field, `must list at most ${MAX_LIST} names`);
  const out: string[] = [];
  v.forEach((w, i) => {
    if (typeof w !== 'string' || w.trim() === '' || w.length > MAX_WORD || /[\u0000-\u001f\u007f]/.test(w)) throw invalid(`${field}.${i}`, `must be a name of 1 to ${MAX_WORD} characters`);
    if (!out.some((o) => o.toLowerCase() === w.trim().toLowerCase())) out.push(w.trim());
  });
  return out;
}

function checkMatch(v: unknown): ItsmChangeMatch {
  if (!isRecord(v)) throw invalid('itsmChangeMatch', 'must be an object: {states?, window?, items?, assignmentGroups?, jiraFields?}');
  const known = ['states', 'window', 'items', 'assignmentGroups', 'jiraFields'];
  const unknown = Object.keys(v).find((k) => !known.includes(k));
  if (unknown) throw invalid(`itsmChangeMatch.${unknown}`, `is not a ticket field we match on (${known.join(', ')})`);
  const out: ItsmChangeMatch = {};
  if (v.states !== undefined) out.states = checkWords('itsmChangeMatch.states', v.states);
  if (v.window !== undefined) out.window = checkBoolean('itsmChangeMatch.window', v.window);
  if (v.items !== undefined) out.items = checkBoolean('itsmChangeMatch.items', v.items);
  if (v.assignmentGroups !== undefined) out.assignmentGroups = checkWords('itsmChangeMatch.assignmentGroups', v.assignmentGroups);
  if (v.jiraFields !== undefined) {
    if (!isRecord(v.jiraFields)) throw invalid('itsmChangeMatch.jiraFields', 'must be an object naming Jira fields: {plannedStart?, plannedEnd?, items?, assignmentGroup?}');
    const fields: NonNullable<ItsmChangeMatch['jiraFields']> = {};
    for (const [k, f] of Object.entries(v.jiraFields)) {
      if (!['plannedStart', 'plannedEnd', 'items', 'assignmentGroup'].includes(k)) throw invalid(`itsmChangeMatch.jiraFields.${k}`, 'is not a ticket field we read (plannedStart, plannedEnd, items, assignmentGroup)');
      if (typeof f !== 'string' || !JIRA_FIELD.test(f)) throw invalid(`itsmChangeMatch.jiraFields.${k}`, 'must be a Jira field id such as customfield_10015 or components');
      fields[k as keyof typeof fields] = f;
    }
    out.jiraFields = fields;
  }
  return out;
}

/** The settings after a PUT, and which fields it changed; unknown fields are refused by name. */
export function applyUnmanagedSettings(before: UnmanagedSettings, input: UnmanagedSettingsInput): { next: UnmanagedSettings; changed: Array<keyof UnmanagedSettings> } {
  const next: UnmanagedSettings = { ...before };
  if (input.referenceRule !== undefined) next.referenceRule = checkBoolean('referenceRule', input.referenceRule);
  if (input.authorizedPrincipals !== undefined) next.authorizedPrincipals = checkPrincipals(input.authorizedPrincipals);
  if (input.itsmChangeMatch !== undefined) next.itsmChangeMatch = checkMatch(input.itsmChangeMatch);
  if (input.deniedAccessToSecops !== undefined) next.deniedAccessToSecops = checkBoolean('deniedAccessToSecops', input.deniedAccessToSecops);
  const changed = (Object.keys(next) as Array<keyof UnmanagedSettings>).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(before[k]));
  return { next, changed };
}
