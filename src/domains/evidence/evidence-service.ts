/**
 * Collection at the horizon. Changes tells us through its ChangeReporter seam that a change reached
 * its horizon; we schedule the durable job `evidence.collect`. Its perform reads the alert history,
 * asks every enabled metrics and log source, judges, asks the AI within its budget and renders the
 * forms, all outside any transaction; its commit hands the report to ChangeService.recordReport,
 * which writes it, moves the change to reported and sends the news in one transaction. A part that
 * cannot be measured says why; it never fails the report, and never invents a value.
 */
import type { Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Tx } from '../../platform/db/database.js';
import type { Job, JobHandler } from '../../platform/jobs/job.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { alertEvidence, hasAlertSource } from '../alerts/index.js';
import { findTokenName } from '../auth/index.js';
import { collectionFailedReport, findReport, listCaptures, readChangeScope, readReview, readValidation, type Change, type Impact, type ChangeReporter, type ChangeService, type ReportRecord } from '../changes/index.js';
import type { AuditContext } from '../ledger/index.js';
import { assess, AI_BUDGET_MS } from './ai-assessment.js';
import { asPrometheus, listEvidenceSources, readEvidenceSettings, withServiceOverrides, type EvidenceSettings, type ReadySource } from './evidence-settings-store.js';
import type { Impact as EvidenceImpact, AiAssessment, AlertsPart, Evidence, EvidenceWindow, LogsPart, MetricsPart, RegisteredBy, ServiceRef, SourceRef, Verdict } from './evidence-types.js';
import { evidenceWindow } from './evidence-window.js';
import { governancePart, reviewIsBehind, reviewPart, validationPart } from './governance-evidence.js';
import { collectLogs } from './log-evidence.js';
import { asLogSource } from './log-source-config.js';
import { collectMetrics } from './prometheus-evidence.js';
import { renderCsv } from './report-csv.js';
import { renderHtml } from './report-html.js';
import { renderText } from './report-text.js';
import { summaryLine } from './report-words.js';
import { subjectHealth } from './subject-health.js';
import { judge } from './verdict.js';

export const COLLECT_JOB = 'evidence.collect';
/**
 * A collection may wait on every source and then the AI's two minutes: its claim is held for five
 * minutes, so no other worker takes it over while it is still at work.
 */
export const COLLECT_LEASE_MS = 300_000;
const COLLECT_ATTEMPTS = 5;

const SYSTEM: AuditContext = { actor: { kind: 'system', id: null, name: 'changeledger scheduler' }, source: 'scheduler' };
const ALERTS_SOURCE: SourceRef = { id: 'alerts', kind: 'alerts', name: 'Alert history' };
const NO_ALERT_SOURCE = 'no alert source: no Alertmanager is configured and no alert had reached changeledger by the end of the window';

type Payload = { changeId: string; evaluateAt: string; version: number };

export type EvidenceDeps = {
  db: Database; clock: Clock; sealer: Sealer; outbound: OutboundClient; changes: ChangeService;
  /** Whether the server can send e-mail (the report says so when it cannot). */
  mailConfigured: boolean;
  /** The change page, for the report's link. */
  link: (c: Pick<Change, 'id'>) => string;
  /** TEST ONLY: a shorter AI budget than the product's two minutes. */
  aiBudgetMs?: number;
};

// The verdict's tiers are exactly changes' impacts: this fails to compile when either side changes alone.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameImpact: Same<EvidenceImpact, Impact> = true;
void sameImpact;

const why = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);

export class EvidenceService implements ChangeReporter {
  constructor(private readonly deps: EvidenceDeps) {}

  /** In the horizon timer's transaction: the collection is scheduled, due now, once per report version. */
  async horizonReached(tx: Tx, _ctx: AuditContext, c: Change): Promise<void> {
    const version = c.reportVersion + 1;
    const payload: Payload = { changeId: c.id, evaluateAt: c.evaluateAt!, version };
    await scheduleJob(tx, this.deps.clock, {
      kind: COLLECT_JOB, orgId: c.orgId, runAt: this.deps.clock.now(), payload, maxAttempts: COLLECT_ATTEMPTS,
      dedupeKey: `${COLLECT_JOB}:${c.id}:v${version}:${c.evaluateAt}`,
    });
  }

  jobHandlers(): Record<string, JobHandler<unknown>> {
    const handler: JobHandler<ReportRecord | null> = {
      leaseMs: COLLECT_LEASE_MS,
      perform: async (job: Job) => {
        try {
          return await this.collect(job.orgId!, job.payload as Payload);
        } catch (err) {
          // Retried like any job; the last attempt still ends the change's surveillance, saying why.
          if (job.attempts < COLLECT_ATTEMPTS) throw err;
          return this.failed(job.orgId!, job.payload as Payload, why(err));
        }
      },
      commit: async (tx: Tx, job: Job, record: ReportRecord | null | undefined) => {
        if (!record) return;
        const p = job.payload as Payload;
        const reported = await this.deps.changes.recordReport(tx, SYSTEM, p.changeId, p.evaluateAt, record);
        // A review written while the evidence was being collected is not in it: the next version
        // shows it (revise finds nothing new otherwise). From here the change's row is locked, so a
        // later review revises the report itself.
        if (reported) await this.deps.changes.reviseReport(tx, SYSTEM, reported.id, 'review');
      },
    };
    return { [COLLECT_JOB]: handler as JobHandler<unknown> };
  }

  /** The report of one version, or null when the change moved on since the horizon. */
  async collect(orgId: string, p: Payload): Promise<ReportRecord | null> {
    const c = await this.deps.changes.read(orgId, p.changeId);
    if (!c || c.status !== 'evaluating' || c.evaluateAt !== p.evaluateAt || c.reportVersion + 1 !== p.version) return null;
    const settings = await readEvidenceSettings(this.deps.db, orgId);
    const evidence = await this.gather(c, settings);
    const verdict = judge(evidence);
    // Whether a review is needed depends on this very verdict (outage and significant need one).
    evidence.review = reviewPart((await readReview(this.deps.db, c.id, verdict.impact))!);
    const ai: AiAssessment = settings.aiEnabled
      ? await assess(this.deps, orgId, { id: c.id, version: p.version }, evidence, verdict, this.deps.aiBudgetMs ?? AI_BUDGET_MS)
      : { status: 'off' };
    const createdAt = this.deps.clock.now().toISOString();
    const input = { version: p.version, createdAt, evidence, verdict, ai };
    return {
      version: p.version, createdAt, impact: verdict.impact, aiImpact: ai.status === 'done' ? ai.tier : null, rule: verdict.rule,
      summary: summaryLine(verdict, ai), body: evidence as unknown as Record<string, unknown>,
      verdict: verdict as unknown as Record<string, unknown>, ai: ai as unknown as Record<string, unknown>,
      html: renderHtml(input), textBody: renderText(input), csv: renderCsv(input),
    };
  }

  /**
   * ChangeReporter.revise: the latest stored version again with the review as it is now, in the
   * caller's transaction. The evidence, verdict and AI assessment are the stored ones, so the
   * figures and the impact cannot move; only the review section (and the version) differ.
   */
  async revise(tx: Tx, c: Change): Promise<ReportRecord | null> {
    const latest = await findReport(tx, c.id);
    if (!latest || !isStoredEvidence(latest.body) || latest.verdict === null) return null;
    const now = await readReview(tx, c.id);
    if (!now || !reviewIsBehind(latest.body.review, now)) return null;
    const evidence: Evidence = { ...latest.body, review: reviewPart(now) };
    const verdict = latest.verdict as unknown as Verdict;
    const ai = (latest.ai ?? { status: 'off' }) as unknown as AiAssessment;
    const version = c.reportVersion + 1;
    const createdAt = this.deps.clock.now().toISOString();
    const input = { version, createdAt, evidence, verdict, ai };
    return {
      version, createdAt, impact: latest.impact, aiImpact: latest.aiImpact, rule: latest.rule, summary: latest.summary,
      body: evidence as unknown as Record<string, unknown>, verdict: latest.verdict, ai: latest.ai,
      html: renderHtml(input), textBody: renderText(input), csv: renderCsv(input),
    };
  }

  private async failed(orgId: string, p: Payload, reason: string): Promise<ReportRecord | null> {
    const c = await this.deps.changes.read(orgId, p.changeId);
    if (!c || c.status !== 'evaluating' || c.evaluateAt !== p.evaluateAt) return null;
    return { ...collectionFailedReport(c, reason), version: p.version, createdAt: this.deps.clock.now().toISOString() };
  }

  /** Everything the verdict and the report read, frozen now. */
  async gather(c: Change, settings: EvidenceSettings): Promise<Evidence> {
    const { db } = this.deps;
    const window = evidenceWindow(c);
    const scope = await readChangeScope(db, c.id);
    const components = new Set(c.components.map((x) => x.key));
    const services: ServiceRef[] = (scope?.services ?? []).map((s) => ({ key: s.key, name: s.name, role: components.has(s.key) ? 'component' : 'neighbour' }));
    const sources = await listEvidenceSources(db, c.orgId, { enabledOnly: true, sealer: this.deps.sealer });
    // A service of the catalogue may carry its own label value or queries (attrs.prometheus).
    const templates = await withServiceOverrides(db, c.orgId, settings.redTemplates, services);
    const [alerts, metrics, logs, registeredBy, validation, captures] = await Promise.all([
      this.alerts(c, window, components),
      Promise.all(sources.filter((s) => s.kind === 'prometheus').map((s) => this.metrics(s, services, window, templates))),
      Promise.all(sources.filter((s) => s.kind !== 'prometheus').map((s) => this.logs(c.orgId, s, services, window))),
      this.registeredBy(c),
      readValidation(db, c),
      listCaptures(db, c.id),
    ]);
    return {
      schema: 1, collectedAt: this.deps.clock.now().toISOString(),
      change: {
        id: c.id, displayId: c.displayId, title: c.title, kind: c.kind, outcome: c.outcome,
        components: c.components.map((x) => ({ key: x.key, name: x.name, kind: x.kind })), registeredBy,
        ticket: c.ticket ? { key: c.ticket.key, url: c.ticket.url ?? null } : null, link: this.deps.link(c),
      },
      window, thresholds: settings.thresholds, services, alerts, metrics, logs, mailConfigured: this.deps.mailConfigured,
      validation: validationPart(validation), governance: governancePart(c, captures),
    };
  }

  private async alerts(c: Change, window: EvidenceWindow, components: Set<string>): Promise<AlertsPart> {
    try {
      if (!(await hasAlertSource(this.deps.db, c.orgId, window.end))) return { source: ALERTS_SOURCE, status: 'not_measured', reason: NO_ALERT_SOURCE };
      const ev = await alertEvidence(this.deps.db, c.orgId, { ...c, startedAt: window.start, end: window.end }, this.deps.clock.now());
      return { source: ALERTS_SOURCE, status: 'measured', value: { subjects: subjectHealth(ev, components, window), truncated: ev.truncated } };
    } catch (err) {
      return { source: ALERTS_SOURCE, status: 'not_measured', reason: `the alert history could not be read: ${why(err)}` };
    }
  }

  private async metrics(s: ReadySource, services: ServiceRef[], window: EvidenceWindow, templates: Parameters<typeof collectMetrics>[4]): Promise<MetricsPart> {
    const source: SourceRef = { id: s.id, kind: 'prometheus', name: s.name };
    if (s.authProblem) return { source, status: 'not_measured', reason: s.authProblem };
    try {
      return await collectMetrics({ outbound: this.deps.outbound }, asPrometheus(s), services, window, templates);
    } catch (err) {
      return { source, status: 'not_measured', reason: why(err) };
    }
  }

  private async logs(orgId: string, s: ReadySource, services: ServiceRef[], window: EvidenceWindow): Promise<LogsPart> {
    const source: SourceRef = { id: s.id, kind: s.kind as SourceRef['kind'], name: s.name };
    if (s.authProblem) return { source, status: 'not_measured', reason: s.authProblem };
    try {
      return await collectLogs({ db: this.deps.db, outbound: this.deps.outbound }, asLogSource(s), orgId, services, window);
    } catch (err) {
      return { source, status: 'not_measured', reason: why(err) };
    }
  }

  /** The owner, and the token it came through (revoked since or not), by name. */
  private async registeredBy(c: Change): Promise<RegisteredBy> {
    const token = c.viaTokenId ? await findTokenName(this.deps.db, c.orgId, c.viaTokenId) : null;
    return { user: { email: c.owner.email, name: c.owner.name || null }, token: token ? { id: token.id, name: token.name } : null };
  }
}

/** A stored body the renderers can take again: evidence (schema 1), not the summary of a report that measured nothing. */
function isStoredEvidence(body: Record<string, unknown>): body is Record<string, unknown> & Evidence {
  return body.schema === 1 && typeof body.change === 'object' && body.change !== null && typeof body.window === 'object';
}
