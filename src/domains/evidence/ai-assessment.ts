import type { Queryable } from '../../platform/db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import type { AiAssessment, Evidence, Verdict } from './evidence-types.js';

/** What assess needs: the store, the time, the sealer for the provider's key, the one outbound client. */
export type AiDeps = { db: Queryable; clock: Clock; sealer: Sealer; outbound: OutboundClient };

/** The spec's "about two minutes": the report and its e-mail never wait longer for the model. */
export const AI_BUDGET_MS = 120_000;

/**
 * The AI assessment of one report version, beside the verdict (never changing it). Never throws:
 * a failure is {status: 'unavailable', reason}. (Stub: filled in next.)
 */
export async function assess(
  _deps: AiDeps, _orgId: string, _change: { id: string; version: number }, _evidence: Evidence, _verdict: Verdict, _budgetMs: number = AI_BUDGET_MS,
): Promise<AiAssessment> {
  return Promise.resolve({ status: 'no_provider' });
}
