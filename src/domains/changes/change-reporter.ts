/**
 * The seam where a change's horizon turns into a report. Changes owns the timer and the stored
 * report; what the report says (evidence, verdict, AI assessment, its forms) belongs to the evidence
 * domain, above changes, which plugs its reporter in through compose.ts. Without it, the report says
 * plainly that nothing was measured.
 */
import type { Tx } from '../../platform/db/database.js';
import type { AuditContext } from '../ledger/index.js';
import type { Change, NewReport } from './change-store.js';

/**
 * What a reporter hands back to ChangeService.recordReport: one report version, all its forms.
 * version and createdAt, when given, are what the forms were rendered with: the row takes the same
 * time, and a record rendered for another version is not written.
 */
export type ReportRecord = NewReport & { version?: number; createdAt?: string };

export type ChangeReporter = {
  /**
   * The change reached its horizon (status evaluating, evaluateAt now), inside the timer's
   * transaction. A reporter that needs time (HTTP to metrics, logs, an AI) schedules durable work
   * here and records the report later with ChangeService.recordReport.
   */
  horizonReached(tx: Tx, ctx: AuditContext, change: Change): Promise<void>;
  /**
   * The change's latest report again, rendered with what was written about the change since (its
   * post-implementation review), inside the caller's transaction, which holds the change's row lock.
   * Nothing is collected again: the evidence, verdict and AI assessment stay as stored. null: the
   * latest version has no evidence to render from (a report whose collection failed), or it already
   * shows the latest review.
   */
  revise?(tx: Tx, change: Change): Promise<ReportRecord | null>;
};

/** What is missing when no evidence source is connected: the reason per part. */
export const NOT_CONFIGURED = ['alerts of the blast radius (an alert source)', 'RED metrics (a metrics source)', 'logs and error fingerprints (a log source)'] as const;

/** The report without any evidence: impact unknown, and why, never a made-up verdict. */
export function unknownReport(c: Change): ReportRecord {
  const summary = `Impact unknown: no evidence source is configured, so nothing was measured (${NOT_CONFIGURED.join('; ')}). Outcome: ${c.outcome ?? 'unknown'}.`;
  const body = {
    window: { start: c.windowStart, end: c.windowEnd, startedAt: c.startedAt, finishedAt: c.finishedAt, evidenceMinutes: c.evidenceMinutes },
    verdict: { impact: 'unknown', rule: 'nothing measured' }, notConfigured: [...NOT_CONFIGURED], outcome: c.outcome, blastVersion: c.blastVersion,
  };
  return { impact: 'unknown', aiImpact: null, rule: 'nothing_measured', summary, body, verdict: null, ai: null, html: null, textBody: null, csv: null };
}

/**
 * The report of a collection that failed on every attempt (a bug, or a store that stayed down): the
 * change must not stay evaluating for ever. It says what went wrong and that re-evaluating tries again.
 */
export function collectionFailedReport(c: Change, reason: string): ReportRecord {
  const summary = `Impact unknown: the evidence could not be collected or judged (${reason}). Re-evaluate the change to try again. Outcome: ${c.outcome ?? 'unknown'}.`;
  const body = {
    window: { start: c.windowStart, end: c.windowEnd, startedAt: c.startedAt, finishedAt: c.finishedAt, evidenceMinutes: c.evidenceMinutes },
    verdict: { impact: 'unknown', rule: 'collection failed' }, failure: reason, outcome: c.outcome, blastVersion: c.blastVersion,
  };
  return { impact: 'unknown', aiImpact: null, rule: 'collection_failed', summary, body, verdict: null, ai: null, html: null, textBody: null, csv: null };
}
