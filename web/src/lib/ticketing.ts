import type { TicketKind, TicketingInput, TicketingView } from '../api/types';

// The ticket destination form as a person edits it: every kind keeps its own fields, so
// switching the picker back and forth loses nothing typed; only the chosen kind is sent.

// What GET answers in place of a stored secret; sent back as is, the server keeps the secret.
export const MASK = '••••';

export type TicketingChoice = TicketKind | 'none';

export const ticketingChoices: readonly TicketingChoice[] = ['none', 'jira', 'asana', 'servicenow', 'webhook'];

export const ticketingLabels: Record<TicketingChoice, string> = {
  none: 'None',
  jira: 'Jira',
  asana: 'Asana',
  servicenow: 'ServiceNow',
  webhook: 'Webhook',
};

export const MAX_LABELS = 10;
export const MIN_WEBHOOK_SECRET = 16;

export type JiraDraft = {
  baseUrl: string;
  deployment: 'cloud' | 'datacenter';
  email: string;
  apiToken: string;
  projectKey: string;
  issueType: string;
  labels: string;
};
export type AsanaDraft = { apiUrl: string; token: string; workspaceGid: string; projectGid: string; completeOnReport: boolean };
export type ServiceNowDraft = {
  instanceUrl: string;
  username: string;
  password: string;
  changeType: 'normal' | 'standard';
  assignmentGroup: string;
  closeOnReport: boolean;
};
export type WebhookDraft = { url: string; secret: string };

export type TicketingDraft = {
  kind: TicketingChoice;
  jira: JiraDraft;
  asana: AsanaDraft;
  servicenow: ServiceNowDraft;
  webhook: WebhookDraft;
  allowPrivateCallbacks: boolean;
};

// The one secret of each kind, as the server names it (its field in `{error, field}` too).
export const secretField = { jira: 'apiToken', asana: 'token', servicenow: 'password', webhook: 'secret' } as const satisfies Record<TicketKind, string>;

export const secretNoun: Record<TicketKind, string> = { jira: 'token', asana: 'token', servicenow: 'password', webhook: 'secret' };

const blank: Omit<TicketingDraft, 'kind' | 'allowPrivateCallbacks'> = {
  jira: { baseUrl: '', deployment: 'cloud', email: '', apiToken: '', projectKey: '', issueType: 'Task', labels: '' },
  asana: { apiUrl: 'https://app.asana.com', token: '', workspaceGid: '', projectGid: '', completeOnReport: true },
  servicenow: { instanceUrl: '', username: '', password: '', changeType: 'normal', assignmentGroup: '', closeOnReport: true },
  webhook: { url: '', secret: '' },
};

function text(view: TicketingView, key: string, fallback: string): string {
  const v = view[key];
  return typeof v === 'string' ? v : fallback;
}

function flag(view: TicketingView, key: string, fallback: boolean): boolean {
  const v = view[key];
  return typeof v === 'boolean' ? v : fallback;
}

// The form for what is stored: the stored kind's fields filled in, the others at their defaults.
export function ticketingDraft(view: TicketingView | null, allowPrivateCallbacks: boolean): TicketingDraft {
  const draft: TicketingDraft = { kind: view?.kind ?? 'none', ...structuredClone(blank), allowPrivateCallbacks };
  if (view === null) return draft;
  switch (view.kind) {
    case 'jira': {
      const labels = Array.isArray(view['labels']) ? view['labels'].filter((l): l is string => typeof l === 'string') : [];
      draft.jira = {
        baseUrl: text(view, 'baseUrl', ''),
        deployment: view['deployment'] === 'datacenter' ? 'datacenter' : 'cloud',
        email: text(view, 'email', ''),
        apiToken: text(view, 'apiToken', ''),
        projectKey: text(view, 'projectKey', ''),
        issueType: text(view, 'issueType', 'Task'),
        labels: labels.join(', '),
      };
      break;
    }
    case 'asana':
      draft.asana = {
        apiUrl: text(view, 'apiUrl', blank.asana.apiUrl),
        token: text(view, 'token', ''),
        workspaceGid: text(view, 'workspaceGid', ''),
        projectGid: text(view, 'projectGid', ''),
        completeOnReport: flag(view, 'completeOnReport', true),
      };
      break;
    case 'servicenow':
      draft.servicenow = {
        instanceUrl: text(view, 'instanceUrl', ''),
        username: text(view, 'username', ''),
        password: text(view, 'password', ''),
        changeType: view['changeType'] === 'standard' ? 'standard' : 'normal',
        assignmentGroup: text(view, 'assignmentGroup', ''),
        closeOnReport: flag(view, 'closeOnReport', true),
      };
      break;
    case 'webhook':
      draft.webhook = { url: text(view, 'url', ''), secret: text(view, 'secret', '') };
      break;
  }
  return draft;
}

// The part of the draft that goes out as `ticketing`: to tell whether it was edited.
export function ticketingPart(d: TicketingDraft): string {
  return JSON.stringify(d.kind === 'none' ? { kind: 'none' } : { kind: d.kind, fields: d[d.kind] });
}

export function splitLabels(text: string): string[] {
  return text.split(',').map((l) => l.trim()).filter((l) => l !== '');
}

export type Built = { ok: true; input: TicketingInput } | { ok: false; field: string; error: string };

// The request body of the chosen kind. What the server checks anyway is left to it (it names
// the field); only what cannot be sent as typed is refused here.
export function ticketingInput(d: TicketingDraft): Built {
  switch (d.kind) {
    case 'none':
      return { ok: true, input: { kind: 'none' } };
    case 'jira': {
      const j = d.jira;
      const labels = splitLabels(j.labels);
      if (labels.length > MAX_LABELS) {
        return { ok: false, field: 'ticketing.labels', error: `At most ${String(MAX_LABELS)} labels (${String(labels.length)} given).` };
      }
      return {
        ok: true,
        input: {
          kind: 'jira',
          baseUrl: j.baseUrl.trim(),
          deployment: j.deployment,
          // Data Center signs in with a personal access token alone: no e-mail goes out.
          ...(j.deployment === 'cloud' ? { email: j.email.trim() } : {}),
          apiToken: j.apiToken,
          projectKey: j.projectKey.trim(),
          issueType: j.issueType.trim() === '' ? 'Task' : j.issueType.trim(),
          labels,
        },
      };
    }
    case 'asana': {
      const a = d.asana;
      return {
        ok: true,
        input: { kind: 'asana', apiUrl: a.apiUrl.trim(), token: a.token, workspaceGid: a.workspaceGid.trim(), projectGid: a.projectGid.trim(), completeOnReport: a.completeOnReport },
      };
    }
    case 'servicenow': {
      const s = d.servicenow;
      return {
        ok: true,
        input: {
          kind: 'servicenow',
          instanceUrl: s.instanceUrl.trim(),
          username: s.username.trim(),
          password: s.password,
          changeType: s.changeType,
          assignmentGroup: s.assignmentGroup.trim() === '' ? null : s.assignmentGroup.trim(),
          closeOnReport: s.closeOnReport,
        },
      };
    }
    case 'webhook': {
      const w = d.webhook;
      return { ok: true, input: { kind: 'webhook', url: w.url.trim(), secret: w.secret } };
    }
  }
}
