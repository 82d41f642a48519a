import type { Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/sealed.js';
import type { Database } from '../../platform/db/database.js';
import { forbidden, invalid, notFound } from '../../platform/errors.js';
import type { OutboundClient } from '../../platform/net/outbound.js';
import { checkUrl } from '../alerts/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import { AI_ALLOW_PRIVATE, KEY_UNREADABLE, targetOf } from './ai-assessment.js';
import { AiCallError, askProvider, endpointUrl, type AiProviderKind } from './ai-clients.js';
import { AI_BUDGET_MS, DEFAULT_AI_URLS } from './ai-limits.js';
import { deleteAiProvider, readAiProvider, upsertAiProvider, type AiProviderRecord } from './ai-provider-store.js';

/**
 * Settings → AI provider: the one provider of the organisation's change assessment. Owners and
 * admins write and test, members read; every write and test is audited in its transaction; the
 * key is sealed and never answered (hasKey says whether one is kept).
 */

type Manager = { org: { id: string }; role: string };

export type AiProviderInput = { kind: AiProviderKind; url?: string | null; model: string; key?: string | null };
export type AiProviderView = { kind: AiProviderKind; url: string; endpoint: string; model: string; hasKey: boolean; createdAt: string; updatedAt: string };
export type AiProviderTest = { ok: boolean; model: string | null; durationMs: number | null; problem: string | null };

const manage = (m: Manager, what: string) => {
  if (m.role !== 'owner' && m.role !== 'admin') throw forbidden(`only owners and admins ${what}`);
};

const view = (p: AiProviderRecord): AiProviderView => ({
  kind: p.kind, url: p.url, endpoint: endpointUrl(p.kind, p.url), model: p.model, hasKey: p.keySealed !== null, createdAt: p.createdAt, updatedAt: p.updatedAt,
});

/** The Test button's question: small, and answered in the assessment's own JSON words. */
const TEST_PROMPT = {
  system: 'You are being tested by changeledger. Answer with one JSON object and nothing else.',
  user: 'Answer {"ok": true} as JSON.',
};

export class AiProviderService {
  constructor(private readonly deps: { db: Database; clock: Clock; sealer: Sealer; outbound: OutboundClient; budgetMs?: number }) {}

  async get(orgId: string): Promise<AiProviderView | null> {
    const p = await readAiProvider(this.deps.db, orgId);
    return p ? view(p) : null;
  }

  private checkModel(raw: string): string {
    const model = raw.trim();
    if (!model) throw invalid('model', 'is required: the model’s name as the provider knows it (gpt-4o-mini, claude-sonnet-4-5)');
    if (/[\u0000-\u001f\u007f]/.test(model)) throw invalid('model', 'must not contain control characters');
    return model;
  }

  async put(ctx: AuditContext, m: Manager, input: AiProviderInput): Promise<AiProviderView> {
    manage(m, 'set the AI provider');
    const model = this.checkModel(input.model);
    const rawUrl = input.url?.trim() || DEFAULT_AI_URLS[input.kind];
    checkUrl('url', rawUrl, (u) => this.deps.outbound.judgeLiteral(u, AI_ALLOW_PRIVATE));
    const url = rawUrl.replace(/\/+$/, '');
    if (typeof input.key === 'string' && !input.key.trim()) throw invalid('key', 'must not be empty: leave it out to keep the stored key, or send null to remove it');
    if (typeof input.key === 'string' && /\s/.test(input.key.trim())) throw invalid('key', 'must not contain spaces or new lines');
    return this.deps.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ai-provider:${m.org.id}`]);
      const before = await readAiProvider(tx, m.org.id, true);
      let keySealed: string | null;
      if (input.key === null) keySealed = null;
      else if (input.key !== undefined) keySealed = this.deps.sealer.seal(input.key.trim());
      else keySealed = before?.keySealed ?? null;
      // Anthropic's API refuses every request without a key; an OpenAI-compatible server on the
      // organisation's own network may need none.
      if (input.kind === 'anthropic' && keySealed === null) throw invalid('key', 'is required for the Anthropic Messages API');
      const at = this.deps.clock.now().toISOString();
      await upsertAiProvider(tx, { orgId: m.org.id, kind: input.kind, url, model, keySealed, at });
      const changed: string[] = [];
      if (!before) changed.push('kind', 'url', 'model');
      else {
        if (before.kind !== input.kind) changed.push('kind');
        if (before.url !== url) changed.push('url');
        if (before.model !== model) changed.push('model');
      }
      if (input.key !== undefined && (input.key !== null || before?.keySealed)) changed.push('key');
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: m.org.id, action: 'ai_provider.set', target: { type: 'ai_provider', id: m.org.id },
        data: { kind: input.kind, url, model, hasKey: keySealed !== null, changed },
      });
      return view((await readAiProvider(tx, m.org.id))!);
    });
  }

  async remove(ctx: AuditContext, m: Manager): Promise<void> {
    manage(m, 'remove the AI provider');
    await this.deps.db.transaction(async (tx) => {
      const before = await readAiProvider(tx, m.org.id, true);
      if (!before) throw notFound('no AI provider is assigned to change assessment');
      await deleteAiProvider(tx, m.org.id);
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: m.org.id, action: 'ai_provider.deleted', target: { type: 'ai_provider', id: m.org.id }, data: { kind: before.kind, url: before.url, model: before.model },
      });
    });
  }

  /** Asks the provider a small question within the assessment's budget; the answer in words. Audited. Not counted by the hourly cap. */
  async test(ctx: AuditContext, m: Manager): Promise<AiProviderTest> {
    manage(m, 'test the AI provider');
    const p = await readAiProvider(this.deps.db, m.org.id);
    if (!p) throw notFound('no AI provider is assigned to change assessment');
    const target = targetOf(this.deps.sealer, p);
    let result: AiProviderTest;
    if (!target) result = { ok: false, model: null, durationMs: null, problem: KEY_UNREADABLE };
    else {
      try {
        const reply = await askProvider(this.deps.outbound, target, TEST_PROMPT, this.deps.budgetMs ?? AI_BUDGET_MS);
        result = { ok: true, model: reply.model, durationMs: reply.durationMs, problem: null };
      } catch (err) {
        result = { ok: false, model: null, durationMs: null, problem: err instanceof AiCallError ? err.message : String(err) };
      }
    }
    await this.deps.db.transaction((tx) => appendAtCommit(tx, this.deps.clock, ctx, {
      orgId: m.org.id, action: 'ai_provider.tested', target: { type: 'ai_provider', id: m.org.id },
      data: { kind: p.kind, url: p.url, model: p.model, ok: result.ok, problem: result.problem },
    }));
    return result;
  }
}
