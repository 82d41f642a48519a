/**
 * The shapes of unauthorized-change detection: who made a write (its principal class), what may
 * vouch for it (a reference), the change tickets an ITSM tool sends, and the revert a person is
 * shown when a write had no reference.
 */

/** Who made an observed write, in five words; derived in code with a plain-words reason. */
export const PRINCIPAL_CLASSES = ['human', 'pipeline', 'changeledger', 'system', 'unknown'] as const;
export type PrincipalClass = (typeof PRINCIPAL_CLASSES)[number];

/** Which of the four references vouched for a write, in the order they are checked. */
export const REFERENCE_KINDS = ['change_id', 'itsm_ticket', 'change_window', 'authorized_principal'] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/** The ITSM tools whose change tickets are taken in. */
export const ITSM_SYSTEMS = ['servicenow', 'jira'] as const;
export type ItsmSystem = (typeof ITSM_SYSTEMS)[number];

/** A change ticket as read from a ServiceNow or Jira webhook body, before it is stored. */
export type Ticket = {
  system: ItsmSystem;
  /** The ticket's own key: ServiceNow `CHG0030001`, Jira `OPS-123`. Unique per organisation and system. */
  key: string;
  title: string;
  /** The ticket's state as the tool names it (ServiceNow `Implement`, `Scheduled`; a Jira status name). */
  state: string | null;
  /** ServiceNow's approval field (`approved`, `requested` …); null where the tool has none. */
  approval: string | null;
  /** The planned window, ISO 8601 in UTC; a time sent without a zone is read as UTC. */
  plannedStart: string | null;
  plannedEnd: string | null;
  /** Configuration items, services or components the ticket names (as sent, trimmed, no duplicates). */
  items: string[];
  assignmentGroup: string | null;
  /** The ticket's page in the tool, when the body gives one. */
  link: string | null;
  /** When the tool last changed the ticket, ISO 8601; null when the body does not say. */
  updatedAt: string | null;
};

/**
 * settings.itsmChangeMatch: which tickets vouch for a write. Every field is optional; an absent
 * one does not narrow the match. Field names let a Jira site point at its own custom fields.
 */
export type ItsmChangeMatch = {
  /** Ticket states (case-blind) that count; empty or absent: any state but a closed or cancelled one. */
  states?: string[];
  /** Require the write's time inside the ticket's planned window (default true). */
  window?: boolean;
  /** Require one of the ticket's items to name one of the write's services (default true). */
  items?: boolean;
  /** Assignment groups (case-blind) whose tickets count; empty or absent: any. */
  assignmentGroups?: string[];
  /** Where a Jira ticket keeps these (custom fields such as customfield_10015); ServiceNow's are fixed. */
  jiraFields?: { plannedStart?: string; plannedEnd?: string; items?: string; assignmentGroup?: string };
};

/** The revert a person is shown for a write with no reference. changeledger never runs it. */
export type RevertDraft = {
  /** kubectl, aws (the AWS CLI), az (the Azure CLI), or none when no inverse is known. */
  tool: 'kubectl' | 'aws' | 'az' | 'none';
  /** Plain words: what running it does, or why no inverse is known. */
  summary: string;
  /** The command to run with one's own access; null when none is known. */
  command: string | null;
  /** A manifest the command reads (kubectl apply -f -): the object as it was before, secrets' values left out. */
  manifest: string | null;
  /** What the write changed, shown when no inverse is known (the request's parameters or patch). */
  changed: string | null;
};
