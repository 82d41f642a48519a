import type { AlertRecord } from './alert-types.js';

/**
 * What becomes of each held alert when a hold ends. Pure: the held alerts with their latest state,
 * what Alertmanager answered at that moment (silence mode), releaseHeld, and now.
 *
 * - still failing → `resent` once (relay re-sends it with the change's prefix), or `kept` when the
 *   change said releaseHeld: false — recorded, never notified;
 * - recovered during the change (resolved, or its endsAt passed without a new firing) → `recovered`.
 *
 * "Still failing" is the latest intake state in relay mode. In silence mode Alertmanager is asked
 * before its silences expire; when it could not be read, the latest intake state decides and the
 * reason says so.
 */

export type ReleaseOutcome = 'resent' | 'recovered' | 'kept';
export type ReleaseDecision = { fingerprint: string; outcome: ReleaseOutcome; reason: string };

/** What Alertmanagers answered about the held alerts just before the release: the ones still firing, or why it is unknown. */
export type AlertmanagerAnswer = { firing: ReadonlySet<string> } | { unreadable: string };

export type ReleaseInput = {
  held: ReadonlyArray<Pick<AlertRecord, 'fingerprint' | 'state' | 'endsAt'>>;
  releaseHeld: boolean;
  /** null in relay mode. */
  alertmanager: AlertmanagerAnswer | null;
  now: Date;
};

export type ReleasePlan = { decisions: ReleaseDecision[]; counts: { held: number; resent: number; recovered: number; kept: number } };

function intakeSays(a: ReleaseInput['held'][number], now: Date): { failing: boolean; why: string } {
  if (a.state === 'resolved') return { failing: false, why: `resolved${a.endsAt ? ` at ${a.endsAt}` : ''}` };
  if (a.endsAt && new Date(a.endsAt) <= now) return { failing: false, why: `its endsAt (${a.endsAt}) passed without a new firing` };
  return { failing: true, why: 'still firing at release' };
}

export function decideRelease(input: ReleaseInput): ReleasePlan {
  const decisions = input.held.map((a): ReleaseDecision => {
    let failing: boolean;
    let why: string;
    const am = input.alertmanager;
    if (am && 'firing' in am) {
      failing = am.firing.has(a.fingerprint);
      why = failing ? 'still firing on Alertmanager at release' : 'no longer firing on Alertmanager at release';
    } else {
      ({ failing, why } = intakeSays(a, input.now));
      if (am) why = `${why} (latest intake: Alertmanager could not be read: ${am.unreadable})`;
    }
    if (!failing) return { fingerprint: a.fingerprint, outcome: 'recovered', reason: why };
    if (!input.releaseHeld) return { fingerprint: a.fingerprint, outcome: 'kept', reason: `${why}; not re-sent: the change said releaseHeld: false` };
    return { fingerprint: a.fingerprint, outcome: 'resent', reason: `${why}: re-sent once` };
  });
  const n = (o: ReleaseOutcome) => decisions.filter((d) => d.outcome === o).length;
  return { decisions, counts: { held: decisions.length, resent: n('resent'), recovered: n('recovered'), kept: n('kept') } };
}
