import type { Queryable } from '../../platform/db/database.js';

// What GET /api/changes/{id}, /status and every callback show of the hold a running change puts on
// the alerts of its blast radius. The shape is changes' (it is part of the status body); alerts is a
// higher domain and fills it in, through the reader compose.ts hands to ChangeService.

export type SuppressionState = 'none' | 'active' | 'releasing' | 'released';
export type HoldMode = 'relay' | 'silence';

/** One silence the hold keeps on one Alertmanager. */
export type SilenceView = { alertmanager: string; id: string | null; state: 'pending' | 'active' | 'expired' | 'failed' };

export type Suppression = {
  state: SuppressionState;
  mode: HoldMode | null;
  since: string | null;
  until: string | null;
  held: number;
  resent: number;
  recovered: number;
  silences: SilenceView[];
  /** "hold not in place: <reason>" while the hold is not where it should be; null when it is. */
  problem: string | null;
};

export const NO_SUPPRESSION: Suppression = { state: 'none', mode: null, since: null, until: null, held: 0, resent: 0, recovered: 0, silences: [], problem: null };

/** The seam changes owns: reads the suppression of one change in the caller's transaction. */
export type SuppressionReader = (db: Queryable, changeId: string) => Promise<Suppression>;

export const noSuppression: SuppressionReader = async () => NO_SUPPRESSION;
