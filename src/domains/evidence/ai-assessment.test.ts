import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AI_PEER_KEY, assessedEvidence, GOOD_ANSWER, PLANTED_SECRETS, startAnthropicPeer, startOpenAiPeer, type AiPeer,
} from '../../../test/support/ai-peers.js';
import { describeEachEngine } from '../../../test/support/engines.js';
import { signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { createSealer } from '../../platform/crypto/sealed.js';
import { createOutboundClient } from '../../platform/net/outbound.js';
import { assess, CAP_REASON, type AiDeps } from './ai-assessment.js';
import { AI_BUDGET_MS, AI_HOURLY_CAP } from './ai-limits.js';
import { judge } from './verdict.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('AI assessment of a report (loopback OpenAI and Anthropic peers)', (engine) => {
  let t: TestApp;
  let deps: AiDeps;
  let openai: AiPeer;
  let anthropic: AiPeer;
  const evidence = assessedEvidence();
  const verdict = judge(evidence);

  const api = (who: SignedIn, method: 'PUT' | 'DELETE' | 'POST', url: string, payload?: unknown) =>
    t.main.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const useProvider = async (who: SignedIn, body: Json) => {
    const res = await api(who, 'PUT', '/api/ai-provider', body);
    expect(res.statusCode, res.body).toBe(200);
  };
  async function orgWithChange(name: string): Promise<{ who: SignedIn; change: { id: string; version: number } }> {
    const who = await signedInOwner(t, name);
    const reg = await t.main.inject({ method: 'POST', url: '/api/changes', headers: who.headers, payload: { title: 'Deploy checkout 2.4', components: [{ key: 'svc:checkout' }] } });
    expect(reg.statusCode, reg.body).toBe(201);
    return { who, change: { id: (reg.json() as { change: { id: string } }).change.id, version: 1 } };
  }
  const asked = async (orgId: string) => (await engine.db().query<{ status: string; reason: string | null; change_id: string; report_version: number }>(
    'SELECT status, reason, change_id, report_version FROM ai_assessments WHERE org_id = $1 ORDER BY asked_at, id', [orgId],
  )).rows;

  beforeAll(async () => {
    t = await testApp(engine.db());
    deps = { db: engine.db(), clock: t.clock, sealer: createSealer(t.dataKey), outbound: createOutboundClient({ testOnlyAllowLoopback: true }) };
    openai = await startOpenAiPeer(AI_PEER_KEY, JSON.stringify(GOOD_ANSWER));
    anthropic = await startAnthropicPeer(AI_PEER_KEY, JSON.stringify(GOOD_ANSWER));
  });
  afterAll(async () => {
    await t.close();
    await openai.close();
    await anthropic.close();
  });

  it('asks an OpenAI-compatible endpoint in its documented shape, with the evidence and no secret, and gives the model’s assessment', async () => {
    const { who, change } = await orgWithChange('AI openai');
    await useProvider(who, { kind: 'openai', url: openai.baseUrl, model: 'gpt-4o-mini', key: AI_PEER_KEY });
    const before = structuredClone(verdict);
    const n = openai.requests.length;

    const a = await assess(deps, who.org.id, change, evidence, verdict);

    expect(a).toEqual({ status: 'done', provider: { kind: 'openai', model: 'gpt-4o-mini' }, ...GOOD_ANSWER });
    expect(verdict).toEqual(before);
    const r = openai.requests[n]!;
    expect([r.method, r.path, r.headers.authorization, r.headers['content-type']]).toEqual(['POST', '/v1/chat/completions', `Bearer ${AI_PEER_KEY}`, 'application/json']);
    const body = r.body as Json;
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect((body.messages as Json[]).map((m) => m.role)).toEqual(['system', 'user']);
    const prompt = openai.promptOf(n);
    expect(prompt).toContain('"service":"Checkout API"');
    expect(prompt).toContain(`"rule":"${verdict.rule}"`);
    for (const s of PLANTED_SECRETS) expect(r.raw).not.toContain(s);
    expect(await asked(who.org.id)).toEqual([{ status: 'done', reason: null, change_id: change.id, report_version: 1 }]);
  });

  it('asks the Anthropic Messages API with x-api-key, anthropic-version and max_tokens, and gives the model’s assessment', async () => {
    const { who, change } = await orgWithChange('AI anthropic');
    await useProvider(who, { kind: 'anthropic', url: anthropic.baseUrl, model: 'claude-sonnet-4-5', key: AI_PEER_KEY });
    const n = anthropic.requests.length;
    anthropic.answerNext(`\`\`\`json\n${JSON.stringify(GOOD_ANSWER)}\n\`\`\``);

    const a = await assess(deps, who.org.id, change, evidence, verdict);

    expect(a).toEqual({ status: 'done', provider: { kind: 'anthropic', model: 'claude-sonnet-4-5' }, ...GOOD_ANSWER });
    const r = anthropic.requests[n]!;
    expect([r.method, r.path, r.headers['x-api-key'], r.headers['anthropic-version'], r.headers.authorization]).toEqual(['POST', '/v1/messages', AI_PEER_KEY, '2023-06-01', undefined]);
    const body = r.body as Json;
    expect([body.model, typeof body.max_tokens, typeof body.system]).toEqual(['claude-sonnet-4-5', 'number', 'string']);
    expect((body.messages as Json[]).map((m) => m.role)).toEqual(['user']);
    expect(anthropic.promptOf(n)).toContain('"service":"Checkout API"');
    for (const s of PLANTED_SECRETS) expect(r.raw).not.toContain(s);
    expect((await asked(who.org.id)).map((x) => x.status)).toEqual(['done']);
  });

  it('asks a server that refuses JSON mode once more without it, within the same budget', async () => {
    const { who, change } = await orgWithChange('AI no JSON mode');
    const strict = await startOpenAiPeer(AI_PEER_KEY, JSON.stringify(GOOD_ANSWER), { refuseJsonMode: true });
    try {
      await useProvider(who, { kind: 'openai', url: strict.baseUrl, model: 'qwen2.5-7b-instruct', key: AI_PEER_KEY });
      expect(await assess(deps, who.org.id, change, evidence, verdict)).toMatchObject({ status: 'done', tier: GOOD_ANSWER.tier });
      expect(strict.requests.map((r) => (r.body as Json).response_format ?? null)).toEqual([{ type: 'json_object' }, null]);
      expect((await asked(who.org.id)).map((x) => x.status)).toEqual(['done']);
    } finally {
      await strict.close();
    }
  });

  it('is unavailable, in words, when the model answers something that is not the assessment, and records the ask', async () => {
    const { who, change } = await orgWithChange('AI malformed');
    await useProvider(who, { kind: 'openai', url: openai.baseUrl, model: 'gpt-4o-mini', key: AI_PEER_KEY });
    openai.answerNext('I think the change went fine.');
    expect(await assess(deps, who.org.id, change, evidence, verdict)).toEqual({ status: 'unavailable', reason: 'the model’s answer was not JSON' });
    openai.answerNext(JSON.stringify({ ...GOOD_ANSWER, tier: 'catastrophic' }));
    expect(await assess(deps, who.org.id, change, evidence, verdict)).toEqual({
      status: 'unavailable', reason: 'the model’s answer was not the assessment asked for: tier must be one of outage, significant, minor, none, unknown',
    });
    openai.answerNext(JSON.stringify(GOOD_ANSWER));
    expect((await asked(who.org.id)).map((x) => [x.status, x.reason])).toEqual([
      ['unavailable', 'the model’s answer was not JSON'],
      ['unavailable', 'the model’s answer was not the assessment asked for: tier must be one of outage, significant, minor, none, unknown'],
    ]);
  });

  it('is unavailable with the provider’s own words on an HTTP 500, and never shows the key on a 401', async () => {
    const { who, change } = await orgWithChange('AI errors');
    await useProvider(who, { kind: 'anthropic', url: anthropic.baseUrl, model: 'claude-sonnet-4-5', key: AI_PEER_KEY });
    anthropic.failNext(500);
    expect(await assess(deps, who.org.id, change, evidence, verdict)).toEqual({ status: 'unavailable', reason: 'the provider answered 500: Internal server error' });
    await useProvider(who, { kind: 'openai', url: openai.baseUrl, model: 'gpt-4o-mini', key: 'sk-wrong-key-0000000000' });
    const a = await assess(deps, who.org.id, change, evidence, verdict);
    expect(a.status).toBe('unavailable');
    expect(a.status === 'unavailable' ? a.reason : '').toMatch(/^the provider answered 401: Incorrect API key provided/);
    expect(JSON.stringify(a)).not.toContain('sk-wrong-key-0000000000');
    expect((await asked(who.org.id)).map((x) => x.status)).toEqual(['unavailable', 'unavailable']);
  });

  it('gives up when the model does not answer within the budget, so the report is not held back', async () => {
    const { who, change } = await orgWithChange('AI timeout');
    await useProvider(who, { kind: 'openai', url: openai.baseUrl, model: 'gpt-4o-mini', key: AI_PEER_KEY });
    expect(AI_BUDGET_MS).toBe(120_000);
    openai.hangNext();
    const started = performance.now();
    const a = await assess(deps, who.org.id, change, evidence, verdict, 400);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(a).toEqual({ status: 'unavailable', reason: expect.stringMatching(/^no answer within 0\.\d s$/) as string });
    expect((await asked(who.org.id)).map((x) => [x.status, x.reason])).toEqual([['unavailable', (a as { reason: string }).reason]]);
  });

  it(`asks at most ${AI_HOURLY_CAP} times an hour per organisation: the next is unavailable and sends nothing, until the hour has passed`, async () => {
    const { who, change } = await orgWithChange('AI cap');
    const other = await orgWithChange('AI cap neighbour');
    await useProvider(who, { kind: 'openai', url: openai.baseUrl, model: 'gpt-4o-mini', key: AI_PEER_KEY });
    await useProvider(other.who, { kind: 'openai', url: openai.baseUrl, model: 'gpt-4o-mini', key: AI_PEER_KEY });
    for (let i = 0; i < AI_HOURLY_CAP; i += 1) expect((await assess(deps, who.org.id, change, evidence, verdict)).status).toBe('done');
    const n = openai.requests.length;

    expect(await assess(deps, who.org.id, change, evidence, verdict)).toEqual({ status: 'unavailable', reason: 'the hourly limit of 30 assessments is reached' });
    expect(CAP_REASON).toBe('the hourly limit of 30 assessments is reached');
    expect(openai.requests.length).toBe(n);
    expect((await asked(who.org.id)).length).toBe(AI_HOURLY_CAP);
    // Another organisation has its own 30.
    expect((await assess(deps, other.who.org.id, other.change, evidence, verdict)).status).toBe('done');

    t.clock.advance(61 * 60_000);
    expect((await assess(deps, who.org.id, change, evidence, verdict)).status).toBe('done');
  });

  it('lets only one of two reports assessed at once take the last place under the cap', async () => {
    const { who, change } = await orgWithChange('AI cap race');
    await useProvider(who, { kind: 'openai', url: openai.baseUrl, model: 'gpt-4o-mini', key: AI_PEER_KEY });
    const at = t.clock.now().toISOString();
    for (let i = 0; i < AI_HOURLY_CAP - 1; i += 1) {
      await engine.db().query(
        `INSERT INTO ai_assessments (id, org_id, change_id, report_version, status, reason, asked_at) VALUES ($1, $2, $3, 1, 'done', NULL, $4)`,
        [`aia_race_${who.org.id}_${i}`, who.org.id, change.id, at],
      );
    }
    const both = await Promise.all([assess(deps, who.org.id, change, evidence, verdict), assess(deps, who.org.id, change, evidence, verdict)]);
    expect(both.map((a) => a.status).sort()).toEqual(['done', 'unavailable']);
    expect(both.find((a) => a.status === 'unavailable')).toEqual({ status: 'unavailable', reason: CAP_REASON });
    expect((await asked(who.org.id)).length).toBe(AI_HOURLY_CAP);
  });

  it('sends nothing and says so when no provider is assigned, or when the organisation switched the assessment off', async () => {
    const { who, change } = await orgWithChange('AI none');
    const calls = openai.requests.length + anthropic.requests.length;
    expect(await assess(deps, who.org.id, change, evidence, verdict)).toEqual({ status: 'no_provider' });

    await useProvider(who, { kind: 'openai', url: openai.baseUrl, model: 'gpt-4o-mini', key: AI_PEER_KEY });
    await engine.db().query('INSERT INTO evidence_settings (org_id, ai_enabled, updated_at) VALUES ($1, false, now())', [who.org.id]);
    expect(await assess(deps, who.org.id, change, evidence, verdict)).toEqual({ status: 'off' });

    expect(openai.requests.length + anthropic.requests.length).toBe(calls);
    expect(await asked(who.org.id)).toEqual([]);
  });

  describe('never throws', () => {
    it('answers unavailable when the provider cannot be reached at all', async () => {
      const { who, change } = await orgWithChange('AI unreachable');
      const gone = await startOpenAiPeer();
      const url = gone.baseUrl;
      await gone.close();
      await useProvider(who, { kind: 'openai', url, model: 'gpt-4o-mini' });
      expect(await assess(deps, who.org.id, change, evidence, verdict)).toEqual({ status: 'unavailable', reason: 'connection refused' });
    });
  });
});
