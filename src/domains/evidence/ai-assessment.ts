import type { Clock } from '../../platform/clock.js';
import { openOrNull, type Sealer } from '../../platform/crypto/sealed.js';
import type { Database } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { parseAnswer } from './ai-answer.js';
import { AiCallError, askProvider, type AiTarget } from './ai-clients.js';
import { AI_BUDGET_MS, AI_CAP_WINDOW_MS, AI_HOURLY_CAP } from './ai-limits.js';
import { buildPrompt } from './ai-prompt.js';
import { countAssessmentsSince, finishAssessment, lockAiCap, readAiProvider, reserveAssessment } from './ai-provider-store.js';
import { readEvidenceSettings } from './evidence-settings-store.js';
import type { AiAssessment, Evidence, Verdict } from './evidence-types.js';

export { AI_BUDGET_MS };

/** What assess needs: the store, the time, the sealer for the provider's key, the one outbound client. */
export type AiDeps = { db: Database; clock: Clock; sealer: Sealer; outbound: OutboundClient };

/**
 * Self-hosted models (an OpenAI-compatible server on the organisation's network) are a provider the
 * spec names: private addresses may be reached. Loopback, link-local and metadata stay refused.
 */
export const AI_ALLOW_PRIVATE = true;

export const CAP_REASON = `the hourly limit of ${AI_HOURLY_CAP} assessments is reached`;
export const KEY_UNREADABLE = 'the provider’s key cannot be opened with this server’s data key: enter it again';

/** The provider as the client needs it, its key opened; null when a stored key cannot be opened. */
export function targetOf(sealer: Sealer, p: { kind: AiTarget['kind']; url: string; model: string; keySealed: string | null }): AiTarget | null {
  const key = p.keySealed === null ? null : openOrNull(sealer, p.keySealed);
  if (p.keySealed !== null && key === null) return null;
  return { kind: p.kind, url: p.url, model: p.model, key, allowPrivate: AI_ALLOW_PRIVATE };
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The AI assessment of one report version, beside the verdict: it reads the verdict and never
 * changes it. Never throws — a failure is {status: 'unavailable', reason}, so the report and its
 * e-mail go out whatever the model does, at most budgetMs later. Each ask sent is recorded in
 * ai_assessments (the hourly cap counts those); off, no provider and the cap send nothing.
 */
export async function assess(
  deps: AiDeps, orgId: string, change: { id: string; version: number }, evidence: Evidence, verdict: Verdict, budgetMs: number = AI_BUDGET_MS,
): Promise<AiAssessment> {
  const started = performance.now();
  let reservation: string | null = null;
  try {
    const settings = await readEvidenceSettings(deps.db, orgId);
    if (!settings.aiEnabled) return { status: 'off' };
    const provider = await readAiProvider(deps.db, orgId);
    if (!provider) return { status: 'no_provider' };
    const target = targetOf(deps.sealer, provider);
    if (!target) return { status: 'unavailable', reason: KEY_UNREADABLE };

    const id = newId('aia');
    const reserved = await deps.db.transaction(async (tx) => {
      await lockAiCap(tx, orgId);
      const now = deps.clock.now();
      const since = new Date(now.getTime() - AI_CAP_WINDOW_MS).toISOString();
      if (await countAssessmentsSince(tx, orgId, since) >= AI_HOURLY_CAP) return false;
      await reserveAssessment(tx, { id, orgId, changeId: change.id, version: change.version, at: now.toISOString() });
      return true;
    });
    if (!reserved) return { status: 'unavailable', reason: CAP_REASON };
    reservation = id;

    // The budget covers the whole assessment, the reads above included.
    const left = Math.max(1, Math.round(budgetMs - (performance.now() - started)));
    const reply = await askProvider(deps.outbound, target, buildPrompt(evidence, verdict), left);
    const parsed = parseAnswer(reply.text);
    if (!parsed.ok) {
      await finishAssessment(deps.db, id, 'unavailable', parsed.reason);
      return { status: 'unavailable', reason: parsed.reason };
    }
    await finishAssessment(deps.db, id, 'done', null);
    const a = parsed.answer;
    return {
      status: 'done', provider: { kind: target.kind, model: target.model },
      tier: a.tier, confidence: a.confidence, summary: a.summary, findings: a.findings, recommendations: a.recommendations,
    };
  } catch (err) {
    const reason = err instanceof AiCallError ? err.message : `the assessment failed: ${describe(err)}`;
    if (reservation) await finishAssessment(deps.db, reservation, 'unavailable', reason).catch(() => undefined);
    return { status: 'unavailable', reason };
  }
}
