import type { Clock } from '../../platform/clock.js';
import type { AuditContext } from '../ledger/index.js';
import { openOrNull, type Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Queryable, Tx } from '../../platform/db/database.js';
import { scheduleJob } from '../../platform/jobs/job-queue.js';
import type { Job, JobHandler } from '../../platform/jobs/job.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { cutText, scrubSecrets } from '../../platform/scrub.js';
import { LIMITS, PULL_KINDS, type IntakeCounts, type Parsed, type PullDeps, type PullWindow } from './observed-types.js';
import { capNote, nextPullAt, scheduledWindow } from './pull-window.js';
import { PULL_ADAPTERS } from './sources/index.js';
import { pullableSources, readObservedSettings, readSourceById, writeMarker, writePullResult, type MarkerName, type SealedSource } from './source-store.js';

/**
 * Scheduled pulls on the durable job table: one job per connection and due time. Its perform
 * reads the source's API (outside any transaction); its commit records what was read, moves the
 * 'scheduled' marker and schedules the next run, all in the transaction that marks the job done,
 * so a crash in between repeats the read (dedupe makes it free) and never loses the marker.
 */

export const PULL_JOB = 'observed.pull';
/** A slow pull: up to 1,500 items over pages of a few APIs, each call up to the outbound client's 10 s. */
export const PULL_LEASE_MS = 15 * 60_000;
/** Who a scheduled pull's audit events name. */
export const PULL_AUDIT_CONTEXT: AuditContext = { actor: { kind: 'system', id: null, name: 'changeledger scheduled pull' }, source: 'scheduler' };

/** The intake's recording in the caller's transaction: IntakeService.recordIn, plugged in by compose. */
export type PullIntake = {
  recordIn(tx: Tx, ctx: AuditContext, sourceId: string, parsed: Parsed, via: 'pull' | 'manual'): Promise<{ counts: IntakeCounts; capReached: boolean }>;
};

export type PullDepsAll = { db: Database; clock: Clock; sealer: Sealer; outbound: OutboundClient; intake: PullIntake };

/** Why a connection is not pulled on schedule, or null when it is. */
export function notScheduledBecause(s: Pick<SealedSource, 'kind' | 'credentialSealed' | 'pullEnabled'>, intervalSeconds: number): string | null {
  if (!PULL_KINDS.includes(s.kind)) return `a ${s.kind} connection has no API to pull: its sender pushes`;
  if (!s.credentialSealed) return 'it has no credential to read the source\'s API with';
  if (!s.pullEnabled) return 'it opted out of the scheduled pull';
  if (intervalSeconds === 0) return 'the organisation turned scheduled pulls off (interval 0)';
  return null;
}

/** The outbound guard lets loopback through only in tests: the CloudTrail SDK's endpoint is judged the same way. */
export function pullDeps(outbound: OutboundClient): PullDeps {
  return { outbound, allowLoopback: outbound.judgeLiteral('http://127.0.0.1/', false).verdict !== 'refused' };
}

/** A pull's failure as a person reads it, scrubbed (an API's answer may echo a token) and short. */
export function failureWords(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  return cutText(scrubSecrets(raw.trim() || 'the pull failed without saying why'), 500);
}

/**
 * Schedules a connection's next pull when it is due to be pulled at all; one job per connection and
 * due time (the dedupe key), so every caller may ask again.
 */
export async function schedulePull(tx: Tx, clock: Clock, sourceId: string): Promise<boolean> {
  const s = await readSourceById(tx, sourceId);
  if (!s) return false;
  const { pullIntervalSeconds } = await readObservedSettings(tx, s.orgId);
  if (notScheduledBecause(s, pullIntervalSeconds) !== null) return false;
  const runAt = nextPullAt(s.id, clock.now(), pullIntervalSeconds);
  await scheduleJob(tx, clock, { kind: PULL_JOB, orgId: s.orgId, runAt, payload: { sourceId: s.id }, dedupeKey: `${PULL_JOB}:${s.id}:${runAt.toISOString()}`, maxAttempts: 5 });
  return true;
}

/** At start and after a change of the organisation's interval: every pullable connection has its next pull. */
export async function scheduleAllPulls(tx: Tx, clock: Clock, orgId?: string): Promise<number> {
  let n = 0;
  for (const s of await pullableSources(tx)) if ((orgId === undefined || s.orgId === orgId) && (await schedulePull(tx, clock, s.id))) n += 1;
  return n;
}

export type PullRead = { window: PullWindow; parsed: Parsed } | { window: PullWindow; error: string };

/** Reads one window of a connection through its pull adapter; a failure comes back in words, never thrown. */
export async function readWindow(deps: Omit<PullDepsAll, 'intake' | 'db'>, db: Queryable, s: SealedSource, window: PullWindow): Promise<PullRead> {
  const adapter = PULL_ADAPTERS[s.kind];
  if (!adapter) return { window, error: `a ${s.kind} connection has no API to pull` };
  if (!s.credentialSealed) return { window, error: 'the connection has no credential to read the API with: add one' };
  const credential = openOrNull(deps.sealer, s.credentialSealed);
  if (credential === null) return { window, error: 'the credential cannot be opened (it was sealed under another data key): enter it again' };
  const { ciNamespaces } = await readObservedSettings(db, s.orgId);
  try {
    const parsed = await adapter.pull(pullDeps(deps.outbound), { sourceId: s.id, config: s.config, ciNamespaces, now: deps.clock.now(), credential }, window);
    return { window, parsed };
  } catch (err) {
    return { window, error: failureWords(err) };
  }
}

/** How many raw items a pull read: what the 1,500 a tick bounds. */
export const rawRead = (p: Parsed) => p.events.length + p.ignored + p.noise + p.rejected.length;

/** Records a read and moves its marker in the caller's transaction. */
export async function commitRead(tx: Tx, ctx: AuditContext, deps: Pick<PullDepsAll, 'clock' | 'intake'>, s: SealedSource, read: { window: PullWindow; parsed: Parsed }, marker: MarkerName): Promise<IntakeCounts> {
  const { counts, capReached } = await deps.intake.recordIn(tx, ctx, s.id, read.parsed, marker === 'scheduled' ? 'pull' : 'manual');
  const notes = [capNote(rawRead(read.parsed), read.window), capReached ? `${counts.capped} item${counts.capped === 1 ? ' was' : 's were'} counted capped: one pull records at most ${LIMITS.rowsPerTick} rows` : null].filter((n) => n !== null);
  await writeMarker(tx, s.id, marker, read.window.until, notes.length ? notes.join('; ') : null, deps.clock.now());
  return counts;
}

type Performed = { skip: true } | { skip: false; read: PullRead };

export function pullJobHandlers(deps: PullDepsAll): Record<string, JobHandler<unknown>> {
  const handler: JobHandler<Performed> = {
    leaseMs: PULL_LEASE_MS,
    async perform(job: Job): Promise<Performed> {
      const s = await readSourceById(deps.db, String(job.payload.sourceId));
      if (!s) return { skip: true };
      const { pullIntervalSeconds } = await readObservedSettings(deps.db, s.orgId);
      if (notScheduledBecause(s, pullIntervalSeconds) !== null) return { skip: true };
      const marker = s.markers.scheduled ? new Date(s.markers.scheduled.position) : null;
      return { skip: false, read: await readWindow(deps, deps.db, s, scheduledWindow(marker, deps.clock.now(), pullIntervalSeconds)) };
    },
    async commit(tx: Tx, job: Job, performed: Performed | undefined): Promise<void> {
      // Locked: a manual pull or an edit of the connection waits for this one's transaction.
      const s = await readSourceById(tx, String(job.payload.sourceId), true);
      if (!s || !performed || performed.skip) return;
      const now = deps.clock.now();
      if ('error' in performed.read) {
        // Kept for the Settings page; the marker stays, so the next run reads this window again.
        await writePullResult(tx, s.id, now, performed.read.error);
      } else {
        await commitRead(tx, PULL_AUDIT_CONTEXT, deps, s, performed.read, 'scheduled');
        await writePullResult(tx, s.id, now, null);
      }
      await schedulePull(tx, deps.clock, s.id);
    },
  };
  return { [PULL_JOB]: handler as JobHandler<unknown> };
}
