// The ticket destination an organisation sets in its change settings, and the ticket a change got.
// They live in changes, the lower domain: change settings store them, deliveries sends to them.

/** Where an organisation's change tickets go: one destination, or none. */
export type TicketKind = 'jira' | 'asana' | 'servicenow' | 'webhook';
export const TICKET_KINDS: readonly TicketKind[] = ['jira', 'asana', 'servicenow', 'webhook'];

export type JiraTicketing = {
  kind: 'jira'; baseUrl: string; deployment: 'cloud' | 'datacenter'; email: string | null; apiToken: string;
  projectKey: string; issueType: string; labels: string[];
};
export type AsanaTicketing = { kind: 'asana'; apiUrl: string; token: string; workspaceGid: string; projectGid: string; completeOnReport: boolean };
export type ServiceNowTicketing = {
  kind: 'servicenow'; instanceUrl: string; username: string; password: string; changeType: 'normal' | 'standard';
  assignmentGroup: string | null; closeOnReport: boolean;
};
export type WebhookTicketing = { kind: 'webhook'; url: string; secret: string };
export type Ticketing = JiraTicketing | AsanaTicketing | ServiceNowTicketing | WebhookTicketing;

/** The ticket a change got: shown on the change page, in /status and in the report. */
export type TicketRef = { kind: TicketKind; id: string; key: string; url: string | null };
