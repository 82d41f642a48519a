import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Queryable, Tx } from '../../platform/db/database.js';
import { retryDelayMs, type Job, type JobHandler } from '../../platform/jobs/job.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import { displayId, readChangeScope, type Change, type ChangeEvent, type ChangeNotifier, type Suppression } from '../changes/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { AlertmanagerError, matcherText, type AlertmanagerClient, type AlertmanagerTarget } from './alertmanager-client.js';
import { ALERTMANAGER_ALLOW_PRIVATE, openAlertmanagerAuth } from './alert-settings.js';
import { listAlertmanagers, readAlertmanagerAuth, readHoldSettings } from './alert-settings-store.js';
import { listHeldAlerts } from './alert-store.js';
import type { AlertRecord, IncomingAlert } from './alert-types.js';
import { labelSetFingerprint } from './fingerprint.js';
import { decideRelease, type AlertmanagerAnswer } from './hold-release.js';
import * as store from './hold-store.js';
import { SILENCE_CREATED_BY, silenceComment, silencesFor } from './silence-matchers.js';

/** The spec's five minutes between a change's finish and the end of its hold. */
export const HOLD_RELEASE_DELAY_MS = 5 * 60_000;
/** How often silence mode reads what Alertmanager holds for a change. */
export const SILENCE_POLL_MS = 30_000;

export const SILENCE_JOB = 'alerts.silence';
export const POLL_JOB = 'alerts.silence_poll';
export const RELEASE_JOB = 'alerts.hold_release';

/** The hold's events are the hold's (target alert_hold, id = the change's id), beside the change's own timeline. */
const SYSTEM: AuditContext = { actor: { kind: 'system', id: null, name: 'changeledger holds' }, source: 'scheduler' };

/** What the release sends through relay: each still-failing held alert once, with the change's prefix. */
export type HoldRelay = { resend(tx: Tx, orgId: string, change: { id: string; displayId: string; title: string; link: string }, alerts: AlertRecord[]): Promise<void> };
/** What silence mode records of the alerts Alertmanager silenced for a change (intake's AlertService). */
export type HeldRecorder = { recordHeld(tx: Tx | null, orgId: string, via: 'silence', incoming: IncomingAlert[], source: string): Promise<unknown> };

type SilenceResult = { label: string; silenceId: string | null; error: string | null };
type SilencePerformed = { skip: true } | { skip: false; alertmanager: string; results: SilenceResult[]; fatal: string | null };
type Seen = { alertmanager: string; alerts: IncomingAlert[] };
type ReleasePerformed = { skip: true } | { skip: false; answer: AlertmanagerAnswer | null; seen: Seen[]; expired: string[]; problems: string[] };

const notInPlace = (reason: string) => `hold not in place: ${reason}`;

/**
 * The hold a running change puts on the alerts of its blast radius: started with the change, in its
 * transaction; extended with its window; released five minutes after it finished by a durable job
 * that re-sends each still-failing held alert once. Silence mode keeps the hold as silences on each
 * Alertmanager, retried with backoff and polled for what they hold.
 */
export class HoldService implements ChangeNotifier {
  constructor(private readonly deps: {
    db: Database; clock: Clock; sealer: Sealer; alertmanager: AlertmanagerClient; recorder: HeldRecorder;
    /** Re-sends at a release; compose plugs relay in with setRelay once both exist. */
    relay?: HoldRelay;
    /** The change page's address, for silence comments and release notices. */
    link: (c: { id: string }) => string;
    /** Test-only shortening of the five minutes (ComposeOptions.holdReleaseDelayMs). */
    releaseDelayMs?: number;
    logger?: Logger;
  }) {}

  setRelay(relay: HoldRelay): void {
    this.deps.relay = relay;
  }

  private get delayMs(): number {
    return this.deps.releaseDelayMs ?? HOLD_RELEASE_DELAY_MS;
  }

  /** The poll follows a shortened release delay, so a test's hold is read before it ends. */
  private get pollMs(): number {
    return Math.min(SILENCE_POLL_MS, Math.max(250, Math.floor(this.delayMs / 2)));
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  /** The SuppressionReader ChangeService, /status and callbacks read through. */
  readonly suppression = (db: Queryable, changeId: string): Promise<Suppression> => store.readSuppression(db, changeId);

  async notify(tx: Tx, change: Change, event: ChangeEvent): Promise<void> {
    if (event === 'started') await this.start(tx, change);
    else if (event === 'completed') await this.complete(tx, change);
    else if (event === 'window_extended') await this.extend(tx, change);
  }

  // ── the hold's life, in the change's transaction ─────────────────────────────────────────────

  private async start(tx: Tx, c: Change): Promise<void> {
    const now = this.now();
    const settings = await readHoldSettings(tx, c.orgId);
    const until = new Date(new Date(c.windowEnd).getTime() + this.delayMs).toISOString();
    const since = c.startedAt ?? now.toISOString();
    const created = await store.insertHold(tx, { changeId: c.id, orgId: c.orgId, mode: settings.holdMode, since, until, releaseHeld: c.releaseHeld, now: now.toISOString() });
    if (!created) return;
    const scope = await readChangeScope(tx, c.id);
    const subjects = [
      ...(scope?.services ?? []).map((s) => ({ kind: 'service' as const, key: s.key })),
      ...(scope?.assets ?? []).map((a) => ({ kind: 'asset' as const, key: a.key })),
      ...(scope?.sourceIds ?? []).map((id) => ({ kind: 'source' as const, key: id })),
    ];
    await store.insertSubjects(tx, c.orgId, c.id, subjects);
    let silences = 0;
    let alertmanagers = 0;
    if (settings.holdMode === 'silence') {
      const ams = await listAlertmanagers(tx, c.orgId);
      alertmanagers = ams.length;
      const specs = silencesFor({ services: scope?.services ?? [], assets: scope?.assets ?? [], sources: await store.sourceNames(tx, c.orgId, scope?.sourceIds ?? []) }, settings.labelMapping);
      if (ams.length === 0) await store.setProblem(tx, c.id, notInPlace('no Alertmanager is configured (the Alert sources page)'), now.toISOString());
      for (const am of ams) {
        await store.planSilences(tx, c.id, am.id, specs, until, now.toISOString());
        if (specs.length) await this.scheduleSilence(tx, c, am.id, until, 1, now);
      }
      silences = specs.length * ams.length;
      if (silences) await this.schedulePoll(tx, c, 1, new Date(now.getTime() + this.pollMs));
    }
    await appendAtCommit(tx, this.deps.clock, SYSTEM, {
      orgId: c.orgId, action: 'alerts.hold_started', target: { type: 'alert_hold', id: c.id },
      data: {
        mode: settings.holdMode, since, until, releaseHeld: c.releaseHeld,
        subjects: { services: scope?.services.length ?? 0, assets: scope?.assets.length ?? 0, sources: scope?.sourceIds.length ?? 0 },
        ...(settings.holdMode === 'silence' ? { alertmanagers, silences } : {}),
      },
    });
  }

  private async complete(tx: Tx, c: Change): Promise<void> {
    const hold = await store.readHold(tx, c.id, true);
    if (!hold || hold.state !== 'active') return;
    const now = this.now();
    const finished = c.finishedAt ? new Date(c.finishedAt) : now;
    const releaseAt = new Date(finished.getTime() + this.delayMs);
    await store.markReleasing(tx, c.id, releaseAt.toISOString(), now.toISOString());
    await this.moveSilences(tx, c, hold.mode, releaseAt.toISOString(), now);
    await scheduleJob(tx, this.deps.clock, { kind: RELEASE_JOB, orgId: c.orgId, runAt: releaseAt, payload: { changeId: c.id }, dedupeKey: `${RELEASE_JOB}:${c.id}` });
  }

  /** The window grew: the hold's end and every silence's endsAt follow. */
  private async extend(tx: Tx, c: Change): Promise<void> {
    const hold = await store.readHold(tx, c.id, true);
    if (!hold || hold.state !== 'active') return;
    const now = this.now();
    const until = new Date(new Date(c.windowEnd).getTime() + this.delayMs).toISOString();
    await store.setUntil(tx, c.id, until, now.toISOString());
    await this.moveSilences(tx, c, hold.mode, until, now);
  }

  private async moveSilences(tx: Tx, c: Change, mode: store.HoldMode, endsAt: string, now: Date): Promise<void> {
    if (mode !== 'silence') return;
    await store.setSilencesEnd(tx, c.id, endsAt, now.toISOString());
    const ams = new Set((await store.listSilences(tx, c.id)).filter((s) => s.state !== 'expired').map((s) => s.alertmanagerId));
    for (const id of ams) await this.scheduleSilence(tx, c, id, endsAt, 1, now);
  }

  private async scheduleSilence(tx: Tx, c: Pick<Change, 'id' | 'orgId'>, alertmanagerId: string, endsAt: string, attempt: number, at: Date): Promise<void> {
    await scheduleJob(tx, this.deps.clock, {
      kind: SILENCE_JOB, orgId: c.orgId, runAt: at, payload: { changeId: c.id, alertmanagerId, endsAt, attempt },
      dedupeKey: `${SILENCE_JOB}:${c.id}:${alertmanagerId}:${endsAt}:${attempt}`, maxAttempts: 3,
    });
  }

  private async schedulePoll(tx: Tx, c: Pick<Change, 'id' | 'orgId'>, n: number, at: Date): Promise<void> {
    await scheduleJob(tx, this.deps.clock, { kind: POLL_JOB, orgId: c.orgId, runAt: at, payload: { changeId: c.id, n }, dedupeKey: `${POLL_JOB}:${c.id}:${n}` });
  }

  private async target(orgId: string, alertmanagerId: string): Promise<{ name: string; target: AlertmanagerTarget } | { name: string; problem: string } | null> {
    const am = await readAlertmanagerAuth(this.deps.db, orgId, alertmanagerId);
    if (!am) return null;
    const auth = openAlertmanagerAuth(this.deps.sealer, am);
    if (!auth) return { name: am.name, problem: 'its credentials cannot be opened with this server’s data key: enter them again on the Alert sources page' };
    return { name: am.name, target: { url: am.url, auth, allowPrivate: ALERTMANAGER_ALLOW_PRIVATE } };
  }

  // ── jobs ─────────────────────────────────────────────────────────────────────────────────────

  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {
      [SILENCE_JOB]: { perform: (job) => this.performSilence(job), commit: (tx, job, p) => this.commitSilence(tx, job, p as SilencePerformed) },
      [POLL_JOB]: { perform: (job) => this.performPoll(job), commit: (tx, job, p) => this.commitPoll(tx, job, p as Seen[] | null) },
      [RELEASE_JOB]: { perform: (job) => this.performRelease(job), commit: (tx, job, p) => this.commitRelease(tx, job, p as ReleasePerformed) },
    };
  }

  /** Creates or updates the silences of one Alertmanager to end at the hold's current end. Idempotent: an update keeps the id. */
  private async performSilence(job: Job): Promise<SilencePerformed> {
    const { changeId, alertmanagerId } = job.payload as { changeId: string; alertmanagerId: string };
    const hold = await store.readHold(this.deps.db, changeId);
    if (!hold || hold.state === 'released') return { skip: true };
    const t = await this.target(hold.orgId, alertmanagerId);
    if (!t) return { skip: true };
    if ('problem' in t) return { skip: false, alertmanager: t.name, results: [], fatal: t.problem };
    const title = (await store.changeTitle(this.deps.db, changeId)) ?? '';
    const comment = silenceComment(displayId(changeId), title, this.deps.link({ id: changeId }));
    const results: SilenceResult[] = [];
    for (const s of await store.listSilences(this.deps.db, changeId, alertmanagerId)) {
      if (s.state === 'expired') continue;
      try {
        // An active silence keeps its id only with the same startsAt and matchers (research §1).
        const existing = s.silenceId ? await this.deps.alertmanager.getSilence(t.target, s.silenceId) : null;
        const live = existing && existing.status.state !== 'expired' ? existing : null;
        const id = await this.deps.alertmanager.postSilence(t.target, {
          ...(live ? { id: live.id } : {}), matchers: s.matchers, startsAt: live?.startsAt ?? this.now().toISOString(), endsAt: hold.until,
          createdBy: SILENCE_CREATED_BY, comment,
        });
        results.push({ label: s.label, silenceId: id, error: null });
      } catch (err) {
        results.push({ label: s.label, silenceId: null, error: err instanceof AlertmanagerError ? err.message : String(err) });
      }
    }
    return { skip: false, alertmanager: t.name, results, fatal: null };
  }

  private async commitSilence(tx: Tx, job: Job, p: SilencePerformed): Promise<void> {
    if (p.skip) return;
    const { changeId, alertmanagerId, endsAt, attempt } = job.payload as { changeId: string; alertmanagerId: string; endsAt: string; attempt: number };
    const hold = await store.readHold(tx, changeId, true);
    if (!hold || hold.state === 'released') return;
    const now = this.now().toISOString();
    const failures = p.fatal ? [{ label: '*', error: p.fatal }] : p.results.filter((r) => r.error !== null).map((r) => ({ label: r.label, error: r.error! }));
    for (const r of p.results) {
      await store.recordSilence(tx, { changeId, alertmanagerId, label: r.label, silenceId: r.silenceId, state: r.error ? 'failed' : 'active', problem: r.error ? `${p.alertmanager}: ${r.error}` : null, now });
    }
    if (p.fatal) {
      for (const s of await store.listSilences(tx, changeId, alertmanagerId)) {
        if (s.state !== 'expired') await store.recordSilence(tx, { changeId, alertmanagerId, label: s.label, silenceId: null, state: 'failed', problem: `${p.alertmanager}: ${p.fatal}`, now });
      }
    }
    await this.refreshProblem(tx, changeId, now);
    const target = { type: 'alert_hold', id: changeId };
    if (failures.length) {
      const retryAt = new Date(this.now().getTime() + retryDelayMs(attempt, `${changeId}:${alertmanagerId}`));
      await appendAtCommit(tx, this.deps.clock, SYSTEM, {
        orgId: hold.orgId, action: 'alerts.silence_failed', target,
        data: { alertmanager: p.alertmanager, attempt, reason: failures[0]!.error, labels: failures.map((f) => f.label), retryAt: retryAt.toISOString() },
      });
      // Retried with backoff for as long as the hold lasts (a person may fix the URL or the credentials
      // meanwhile); a newer end (an extension, the finish) has its own job, which takes over.
      if (endsAt === hold.until && retryAt < new Date(hold.until)) await this.scheduleSilence(tx, { id: changeId, orgId: hold.orgId }, alertmanagerId, endsAt, attempt + 1, retryAt);
      return;
    }
    await appendAtCommit(tx, this.deps.clock, SYSTEM, {
      orgId: hold.orgId, action: 'alerts.silence_set', target,
      data: { alertmanager: p.alertmanager, endsAt: hold.until, silences: p.results.map((r) => ({ label: r.label, id: r.silenceId })) },
    });
  }

  /** alert_holds.problem is the first failing silence's, so the change page names one reason. */
  private async refreshProblem(tx: Tx, changeId: string, now: string): Promise<void> {
    const failed = (await store.listSilences(tx, changeId)).find((s) => s.state === 'failed');
    await store.setProblem(tx, changeId, failed ? notInPlace(failed.problem ?? `${failed.alertmanagerName}: the silence could not be set`) : null, now);
  }

  /**
   * What each Alertmanager silences with our silence ids right now (`seen`), and every alert its
   * matchers still find firing (`firing`): at release a silence may already have run out at its
   * endsAt, and what it held is then firing unsilenced — still failing all the same.
   */
  private async readSilenced(changeId: string, orgId: string, atRelease: boolean): Promise<{ seen: Seen[]; firing: Set<string>; problems: string[] }> {
    const seen: Seen[] = [];
    const firing = new Set<string>();
    const problems: string[] = [];
    const byAm = new Map<string, store.HoldSilence[]>();
    for (const s of await store.listSilences(this.deps.db, changeId)) {
      if (s.silenceId && s.state === 'active') byAm.set(s.alertmanagerId, [...(byAm.get(s.alertmanagerId) ?? []), s]);
    }
    for (const [amId, silences] of byAm) {
      const t = await this.target(orgId, amId);
      if (!t) continue;
      if ('problem' in t) {
        problems.push(`${t.name}: ${t.problem}`);
        continue;
      }
      const ours = new Set(silences.map((s) => s.silenceId!));
      const alerts = new Map<string, IncomingAlert>();
      try {
        for (const s of silences) {
          for (const a of await this.deps.alertmanager.listAlerts(t.target, { silenced: true, active: atRelease, inhibited: true, filter: s.matchers.map(matcherText) })) {
            const fingerprint = labelSetFingerprint(a.labels);
            firing.add(fingerprint);
            if (!a.status.silencedBy.some((id) => ours.has(id))) continue;
            alerts.set(fingerprint, { fingerprint, labels: a.labels, annotations: a.annotations ?? {}, state: 'firing', startsAt: a.startsAt, endsAt: a.endsAt || null, generatorURL: a.generatorURL || null });
          }
        }
      } catch (err) {
        problems.push(`${t.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
      seen.push({ alertmanager: t.name, alerts: [...alerts.values()] });
    }
    return { seen, firing, problems };
  }

  private async performPoll(job: Job): Promise<Seen[] | null> {
    const { changeId } = job.payload as { changeId: string };
    const hold = await store.readHold(this.deps.db, changeId);
    if (!hold || hold.state === 'released' || hold.mode !== 'silence') return null;
    return (await this.readSilenced(changeId, hold.orgId, false)).seen;
  }

  private async commitPoll(tx: Tx, job: Job, seen: Seen[] | null): Promise<void> {
    if (seen === null) return;
    const { changeId, n } = job.payload as { changeId: string; n: number };
    const hold = await store.readHold(tx, changeId);
    if (!hold || hold.state === 'released') return;
    for (const s of seen) if (s.alerts.length) await this.deps.recorder.recordHeld(tx, hold.orgId, 'silence', s.alerts, s.alertmanager);
    await this.schedulePoll(tx, { id: changeId, orgId: hold.orgId }, n + 1, new Date(this.now().getTime() + this.pollMs));
  }

  /** Before the commit: in silence mode, ask Alertmanager what still fires, then expire our silences. */
  private async performRelease(job: Job): Promise<ReleasePerformed> {
    const { changeId } = job.payload as { changeId: string };
    const hold = await store.readHold(this.deps.db, changeId);
    if (!hold || hold.state !== 'releasing') return { skip: true };
    if (hold.mode !== 'silence') return { skip: false, answer: null, seen: [], expired: [], problems: [] };
    const read = await this.readSilenced(changeId, hold.orgId, true);
    const expired: string[] = [];
    const problems = [...read.problems];
    for (const s of await store.listSilences(this.deps.db, changeId)) {
      if (!s.silenceId || s.state === 'expired') continue;
      const t = await this.target(hold.orgId, s.alertmanagerId);
      if (!t || 'problem' in t) continue;
      try {
        await this.deps.alertmanager.expireSilence(t.target, s.silenceId);
        if (!expired.includes(s.alertmanagerId)) expired.push(s.alertmanagerId);
      } catch (err) {
        // It ends by itself at its endsAt, which is the release time: say so, do not hold the release back.
        problems.push(`${t.name}: the silence ${s.silenceId} could not be expired (${err instanceof Error ? err.message : String(err)}); it ends at its endsAt`);
      }
    }
    const answer: AlertmanagerAnswer = read.problems.length ? { unreadable: read.problems.join('; ') } : { firing: read.firing };
    return { skip: false, answer, seen: read.seen, expired, problems };
  }

  private async commitRelease(tx: Tx, job: Job, p: ReleasePerformed): Promise<void> {
    if (p.skip) return;
    const { changeId } = job.payload as { changeId: string };
    // The row lock and the state check: a second process holding another copy of this job finds it released.
    const hold = await store.readHold(tx, changeId, true);
    if (!hold || hold.state !== 'releasing') return;
    const now = this.now();
    for (const s of p.seen) if (s.alerts.length) await this.deps.recorder.recordHeld(tx, hold.orgId, 'silence', s.alerts, s.alertmanager);
    const title = (await store.changeTitle(tx, changeId)) ?? '';
    const change = { id: changeId, displayId: displayId(changeId), title, link: this.deps.link({ id: changeId }) };
    const held = (await listHeldAlerts(tx, changeId)).filter((h) => h.outcome === 'held');
    const plan = decideRelease({ held: held.map((h) => h.alert), releaseHeld: hold.releaseHeld, alertmanager: p.answer, now });
    const resend = new Set(plan.decisions.filter((d) => d.outcome === 'resent').map((d) => d.fingerprint));
    const alerts = held.map((h) => h.alert).filter((a) => resend.has(a.fingerprint));
    if (alerts.length) {
      // Never a silent drop: without relay the release fails and is retried until it is plugged in.
      if (!this.deps.relay) throw new Error('the alert relay is not plugged into HoldService (compose.ts)');
      await this.deps.relay.resend(tx, hold.orgId, change, alerts);
    }
    const at = now.toISOString();
    await store.setOutcomes(tx, changeId, plan.decisions, at);
    await store.markReleased(tx, changeId, plan.counts, at);
    await store.deleteSubjects(tx, changeId);
    if (hold.mode === 'silence') {
      const all = [...new Set((await store.listSilences(tx, changeId)).map((s) => s.alertmanagerId))];
      await store.expireSilences(tx, changeId, all, at);
    }
    await appendAtCommit(tx, this.deps.clock, SYSTEM, {
      orgId: hold.orgId, action: 'alerts.hold_released', target: { type: 'alert_hold', id: changeId },
      data: {
        mode: hold.mode, releaseHeld: hold.releaseHeld, ...plan.counts,
        ...(hold.mode === 'silence' ? { alertmanagerNotifies: 'from now on, for what still fires: its silences are expired', expired: p.expired.length, problems: p.problems } : {}),
      },
    });
  }
}
