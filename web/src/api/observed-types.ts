// The wire shapes of the one change list and of observed changes, as the brief's contract
// (src/domains/changes/change-feed.ts, src/domains/observed/observed-types.ts) writes them. Kept
// here in one file so the pages compile before and after the routes' schemas are regenerated into
// ./schema.d.ts; the e2e test checks them against the running server.
import type { Change } from './types';

export const sourceKinds = ['github', 'gitlab', 'argocd', 'kubernetes', 'aws', 'azure', 'pagerduty', 'cloudevents', 'webhook'] as const;
export type SourceKind = (typeof sourceKinds)[number];
/** Sources with an API a pull reads (the manual "last N minutes" pull and the scheduled one). */
export const pullKinds: readonly SourceKind[] = ['github', 'gitlab', 'aws'];

export type RecordPrincipal = {
  kind: 'person' | 'token' | 'service' | 'system' | 'unknown';
  name: string;
  id: string | null;
  detail: Record<string, string>;
};

/** What every entry of the one list carries. */
export type RecordCommon = {
  id: string;
  displayId: string;
  origin: 'registered' | 'flag' | 'observed';
  source: string;
  mode: string;
  kind: string;
  status: string;
  title: string;
  at: string;
  principal: RecordPrincipal;
  service: string;
  services: string[];
  diff: string | null;
  denied: boolean;
  authorized: boolean | null;
  link: string | null;
};

export type FeedEntry = RecordCommon & { detail: Record<string, unknown> };
/** A registered change keeps every Change field and gains the common ones. */
export type RegisteredRecord = Change & RecordCommon & { origin: 'registered' };
export type ListEntry = RegisteredRecord | FeedEntry;
export type ChangeList = { changes: ListEntry[]; neverCaptured: string[] };

export type ObservedLocation = Partial<Record<'repo' | 'ref' | 'environment' | 'cluster' | 'namespace' | 'account' | 'region' | 'subscription' | 'resourceGroup', string>>;

/** GET /api/observed-changes/:id: the record and the observed row's own fields. */
export type ObservedChange = RecordCommon & {
  sourceId: string | null;
  eventId: string;
  occurredAt: string;
  receivedAt: string;
  action: string | null;
  resource: string | null;
  location: ObservedLocation;
  serviceVia: 'event' | 'repo_map' | 'unmapped';
  params: unknown;
  errorCode: string | null;
  outcome: 'succeeded' | 'failed' | 'degraded' | null;
  authorizedReason: string | null;
  changeRef: string | null;
  detail?: Record<string, unknown>;
};

export type Receipt = {
  source: string; kind: string; eventId: string; title: string; at: string; receivedAt: string;
  principal: RecordPrincipal; action: string | null; resource: string | null; location: Record<string, string>; diff: string | null; link: string | null;
};

export type SourceCounts = { recorded: number; duplicate: number; enriched: number; noise: number; capped: number; denied: number; ignored: number; rejected: number; receipts: number };

export type ChangeSource = {
  id: string;
  kind: SourceKind;
  name: string;
  /** The URL to paste into the sender. */
  endpoint: string;
  config: Record<string, unknown>;
  hasCredential: boolean;
  pullEnabled: boolean;
  /** Whether the scheduled pull reads it, and if not, why in words. */
  pullable?: boolean;
  notPulledBecause?: string | null;
  counts: SourceCounts;
  lastEventAt: string | null;
  lastPullAt: string | null;
  lastPullError: string | null;
};

export type ChangeSourceInput = {
  kind: SourceKind;
  name: string;
  config?: Record<string, unknown>;
  credential?: string;
  pullEnabled?: boolean;
};

/** A create or a rotation: the only answers that carry the secret. */
export type SourceWithSecret = { source: ChangeSource; secret: string };

export type ObservedSettings = {
  pullIntervalSeconds: number;
  ciNamespaces: string[];
  serviceMap: Record<string, string>;
  resourceMap: Record<string, string | string[]>;
  /** After a PUT that edited a map: how many records of the last 48 hours were relinked. */
  relinked?: number | null;
};

/** POST /api/change-sources/:id/test: the answer in words (and, for a pushed source, a curl line to send one). */
export type SourceTest = { ok: boolean; message: string; curl?: string | null };
/** POST /api/change-sources/:id/pull: what the manual pull read. */
export type ManualPull = { ok?: boolean; counts?: Partial<SourceCounts> | null; message?: string };
