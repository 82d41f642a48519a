import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { Database, Tx } from '../../platform/db/database.js';
import type { JobHandler } from '../../platform/jobs/job.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import type { AlertRecord } from './alert-types.js';

/** One alert of an intake batch: held by a change (then never relayed), and whether its state changed. */
export type RelayBatchItem = { alert: AlertRecord; heldBy: string | null; changed: boolean };
/** The change whose hold ended, as the release notice names it. */
export type HeldChange = { id: string; displayId: string; title: string; link: string };

/** The seam intake's AlertService calls inside its transaction. */
export type AlertRelay = {
  afterIntake(tx: Tx, orgId: string, batch: RelayBatchItem[]): Promise<void>;
  resend(tx: Tx, orgId: string, change: HeldChange, alerts: AlertRecord[]): Promise<void>;
};

/**
 * Relay mode: forwards the alerts it receives to the organisation's destinations and skips the
 * held ones; at a release it re-sends the still-failing held alerts with the change's prefix.
 * Everything is written as jobs in the caller's transaction and sent by the worker.
 */
export class RelayService implements AlertRelay {
  constructor(private readonly deps: { db: Database; clock: Clock; sealer: Sealer; client: OutboundClient; logger?: Logger; publicUrl?: () => string }) {}

  async afterIntake(_tx: Tx, _orgId: string, _batch: RelayBatchItem[]): Promise<void> {
    // TODO(relay): queue the not-held alerts per enabled destination (next commit).
  }

  async resend(_tx: Tx, _orgId: string, _change: HeldChange, _alerts: AlertRecord[]): Promise<void> {
    // TODO(relay): queue the prefixed notices per destination (next commit).
  }

  jobHandlers(): Record<string, JobHandler<unknown>> {
    return {};
  }
}
