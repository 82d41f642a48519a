/**
 * The one change list: planned changes (this domain), flag writes and observed changes (higher
 * domains) share the fields below. Changes owns the shape and the seam; the observed domain
 * implements ChangeFeed and compose.ts plugs it in (ChangeService.setFeed). Without a feed the list
 * holds planned changes only.
 */

/** What made the record: a person or pipeline registered it, a flag write, or a source saw it. */
export const ORIGINS = ['registered', 'flag', 'observed'] as const;
export type Origin = (typeof ORIGINS)[number];

/** Every kind the `kind=` filter accepts: planned kinds, then observed event kinds, then flag writes. */
export const OBSERVED_KINDS = ['push', 'pr_merged', 'deploy', 'sync', 'release', 'tag', 'health', 'k8s_write', 'cloud_write', 'change'] as const;
export type ObservedKind = (typeof OBSERVED_KINDS)[number];

/** Who made a change, in the same shape whatever the source. */
export type RecordPrincipal = {
  /** person: a human account; token: an API token; service: a CI or workload identity; system: plumbing; unknown: the source did not say. */
  kind: 'person' | 'token' | 'service' | 'system' | 'unknown';
  /** What to show: a name, an e-mail, `system:serviceaccount:ns:name`, a role session. */
  name: string;
  id: string | null;
  /** Source-specific facts: email, roleArn, sessionIssuer, sourceIdentity, ciNamespace, tokenName … */
  detail: Record<string, string>;
};

/** The fields every entry of the one list carries. */
export type RecordCommon = {
  id: string;
  /** CHG- and 8 characters. */
  displayId: string;
  origin: Origin;
  /** changeledger for a registered change, flags for a flag write, else the connection's kind (github … webhook). */
  source: string;
  /** The channel: ui, api, pipeline for a registered change; the flag write's source; an observed row's event kind. */
  mode: string;
  kind: string;
  /** A planned change's lifecycle status; flag writes and observed rows are `recorded`. */
  status: string;
  title: string;
  /** When it happened: a planned change's window start, a flag write's time, an observed event's time. */
  at: string;
  principal: RecordPrincipal;
  /** The main service key ('' when none); services lists every linked one. */
  service: string;
  services: string[];
  /** Scrubbed of secrets and cut at 2,048 characters; null when the source gave none. */
  diff: string | null;
  /** A write the source refused: a denied attempt, not a change. */
  denied: boolean;
  /** null until the unauthorized-change rules judge it; registered changes and flag writes are true. */
  authorized: boolean | null;
  /** The source event (a commit, a run, a console page) or, for a flag write, the flag's page. */
  link: string | null;
};

/** A flag write or an observed row as the feed returns it; `detail` is the origin's own fields. */
export type FeedEntry = RecordCommon & { detail: Record<string, unknown> };

export type FeedFilter = {
  kinds: string[]; sources: string[]; modes: string[]; statuses: string[];
  /** Services by key or name (any of them): empty for every service. */
  services: string[]; unauthorized: boolean; denied: boolean; q: string | null;
  since?: Date; until?: Date; limit: number;
  /** Flag change requests waiting on a person are listed too (include_proposed=true, requests=true). */
  includeProposed: boolean;
  /** requests=true: only what waits on a person (flag change requests here), never a write that happened. */
  requests?: boolean;
};

/** A write that carried a planned change's id: shown on that change's page. */
export type Receipt = {
  source: string; kind: string; eventId: string; title: string; at: string; receivedAt: string;
  principal: RecordPrincipal; action: string | null; resource: string | null; location: Record<string, string>; diff: string | null; link: string | null;
};

export interface ChangeFeed {
  /** The source= and mode= values the feed's entries carry, so the list refuses any other by name. */
  readonly vocabulary: { sources: readonly string[]; modes: readonly string[] };
  /** Flag writes and observed rows matching the filter, newest first, at most f.limit. */
  list(orgId: string, f: FeedFilter): Promise<FeedEntry[]>;
  /** What the organisation's connected sources cannot see, in plain words (changes with the sources). */
  neverCaptured(orgId: string): Promise<string[]>;
  /** The receipts of one planned change, oldest first. */
  receipts(orgId: string, changeId: string): Promise<Receipt[]>;
}
