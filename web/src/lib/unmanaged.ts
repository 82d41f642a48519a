import type { RevertDraft } from '../api/observed-types';
import type { ItsmChangeMatch, JiraFields, ReferenceKind, UnmanagedSettings, UnmanagedSettingsPatch } from '../api/unmanaged-types';

// Settings → Unmanaged changes as a form: the saved settings read into text a person edits, and
// back into what the server takes; the server's own checks (globs, names, Jira field ids) stay
// the server's, and its answer is shown beside the field it names.

export const jiraFieldNames = ['plannedStart', 'plannedEnd', 'items', 'assignmentGroup'] as const satisfies readonly (keyof JiraFields)[];
export type JiraFieldName = (typeof jiraFieldNames)[number];

export const jiraFieldLabels: Record<JiraFieldName, { label: string; placeholder: string }> = {
  plannedStart: { label: 'Planned start', placeholder: 'customfield_10015' },
  plannedEnd: { label: 'Planned end', placeholder: 'customfield_10016' },
  items: { label: 'Items', placeholder: 'customfield_10050' },
  assignmentGroup: { label: 'Assignment group', placeholder: 'customfield_10060' },
};

export type Draft = {
  referenceRule: boolean;
  /** One glob a line, as typed (blank lines allowed). */
  principals: string;
  /** Comma- or line-separated names. */
  states: string;
  window: boolean;
  items: boolean;
  assignmentGroups: string;
  jira: Record<JiraFieldName, string>;
  deniedAccessToSecops: boolean;
};

export function draftOf(s: UnmanagedSettings): Draft {
  const m = s.itsmChangeMatch;
  const jira = m.jiraFields ?? {};
  return {
    referenceRule: s.referenceRule,
    principals: s.authorizedPrincipals.join('\n'),
    states: (m.states ?? []).join(', '),
    window: m.window ?? true,
    items: m.items ?? true,
    assignmentGroups: (m.assignmentGroups ?? []).join(', '),
    jira: { plannedStart: jira.plannedStart ?? '', plannedEnd: jira.plannedEnd ?? '', items: jira.items ?? '', assignmentGroup: jira.assignmentGroup ?? '' },
    deniedAccessToSecops: s.deniedAccessToSecops,
  };
}

const names = (text: string): string[] => text.split(/[\n,]/).map((x) => x.trim()).filter((x) => x !== '');

/** The non-blank lines of the principals box with their line numbers (1-based), in order. */
export function principalLines(text: string): Array<{ line: number; glob: string }> {
  return text.split('\n').flatMap((raw, i) => (raw.trim() === '' ? [] : [{ line: i + 1, glob: raw.trim() }]));
}

/**
 * Ticket matching with the defaults left out (window and items are on unless said), so that a
 * form nobody touched compares equal to what was saved, however it was spelled.
 */
export function normalMatch(m: ItsmChangeMatch): ItsmChangeMatch {
  const out: ItsmChangeMatch = {};
  if (m.states !== undefined && m.states.length > 0) out.states = m.states;
  if (m.window === false) out.window = false;
  if (m.items === false) out.items = false;
  if (m.assignmentGroups !== undefined && m.assignmentGroups.length > 0) out.assignmentGroups = m.assignmentGroups;
  // In one order, so a comparison does not depend on how the server spelled the object.
  const jira: JiraFields = {};
  for (const k of jiraFieldNames) {
    const v = m.jiraFields?.[k];
    if (v !== undefined && v !== '') jira[k] = v;
  }
  if (Object.keys(jira).length > 0) out.jiraFields = jira;
  return out;
}

function matchOf(d: Draft): ItsmChangeMatch {
  const jira: JiraFields = {};
  for (const k of jiraFieldNames) if (d.jira[k].trim() !== '') jira[k] = d.jira[k].trim();
  return normalMatch({ states: names(d.states), window: d.window, items: d.items, assignmentGroups: names(d.assignmentGroups), jiraFields: jira });
}

/** Every field of the form, as the dry run takes it (unsaved). */
export function settingsOf(d: Draft): Required<UnmanagedSettingsPatch> {
  return {
    referenceRule: d.referenceRule,
    authorizedPrincipals: principalLines(d.principals).map((l) => l.glob),
    itsmChangeMatch: matchOf(d),
    deniedAccessToSecops: d.deniedAccessToSecops,
  };
}

/** Only what changed goes out: an admin's save never carries the owner's switch unless it moved. */
export function patchOf(d: Draft, was: UnmanagedSettings): UnmanagedSettingsPatch {
  const next = settingsOf(d);
  const before: Required<UnmanagedSettingsPatch> = {
    referenceRule: was.referenceRule,
    authorizedPrincipals: was.authorizedPrincipals,
    itsmChangeMatch: normalMatch(was.itsmChangeMatch),
    deniedAccessToSecops: was.deniedAccessToSecops,
  };
  const patch: UnmanagedSettingsPatch = {};
  for (const key of Object.keys(next) as Array<keyof UnmanagedSettingsPatch>) {
    if (JSON.stringify(next[key]) !== JSON.stringify(before[key])) Object.assign(patch, { [key]: next[key] });
  }
  return patch;
}

/** `authorizedPrincipals.3` → the line of the box that held the fourth pattern sent. */
export function principalLineOf(field: string | null, text: string): number | null {
  const m = field === null ? null : /^authorizedPrincipals\.(\d+)$/.exec(field);
  if (m === null) return null;
  return principalLines(text)[Number(m[1])]?.line ?? null;
}

export const referenceLabels: Record<ReferenceKind | 'kept', string> = {
  change_id: 'a planned change’s id',
  itsm_ticket: 'a change ticket',
  change_window: 'a planned change’s window',
  authorized_principal: 'an authorized principal',
  kept: 'kept by a person',
};

export const referenceOrder: readonly ReferenceKind[] = ['change_id', 'itsm_ticket', 'change_window', 'authorized_principal'];

export const revertToolLabels: Record<RevertDraft['tool'], string> = {
  kubectl: 'kubectl',
  aws: 'the AWS CLI',
  az: 'the Azure CLI',
  none: 'no tool',
};

/** A sample body per ITSM tool, for the curl examples (what the reader takes, nothing more). */
function sampleBody(system: 'servicenow' | 'jira', now: Date): string {
  const day = now.toISOString().slice(0, 10);
  if (system === 'servicenow') {
    return JSON.stringify({ number: 'CHG0030001', short_description: 'Scale checkout-api', state: 'Implement', start_date: `${day} 09:00:00`, end_date: `${day} 17:00:00`, cmdb_ci: 'checkout-api' }, null, 2);
  }
  return JSON.stringify({ webhookEvent: 'jira:issue_updated', issue: { key: 'OPS-123', fields: { summary: 'Scale checkout-api', status: { name: 'In Progress' }, components: [{ name: 'checkout-api' }] } } }, null, 2);
}

export function itsmUrl(pipelineUrl: string, system: 'servicenow' | 'jira'): string {
  return `${pipelineUrl.replace(/\/+$/, '')}/api/itsm/${system}`;
}

/** The token is never written into the example: it is shown once, in its own box. */
export function itsmCurl(pipelineUrl: string, system: 'servicenow' | 'jira', now: Date): string {
  return [
    `curl -X POST '${itsmUrl(pipelineUrl, system)}' \\`,
    `  -H 'Authorization: Bearer <ITSM webhook token>' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${sampleBody(system, now).replaceAll('\n', '\n    ')}'`,
  ].join('\n');
}
