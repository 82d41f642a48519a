import { describe, expect, it } from 'vitest';
import { parseAnswer } from './ai-answer.js';

const good = {
  tier: 'minor', confidence: 0.7, summary: 'Checkout API latency rose a little after the deploy.',
  findings: [{ tag: 'impact', text: 'p95 of Checkout API up 30 %' }, { tag: 'rule defect', text: 'latency alarm at threshold 0' }],
  recommendations: ['Raise the latency alarm threshold of Checkout API'],
};

describe('the model’s answer', () => {
  it('takes the assessment asked for, and drops fields nobody asked for', () => {
    const r = parseAnswer(JSON.stringify({ ...good, extra: 'ignored', findings: [{ ...good.findings[0], weight: 3 }] }));
    expect(r).toEqual({ ok: true, answer: { ...good, findings: [good.findings[0]] } });
  });

  it('takes it inside one ```json fence (Anthropic has no JSON mode), reads a percentage confidence and a capitalised tier', () => {
    const r = parseAnswer(`\`\`\`json\n${JSON.stringify({ ...good, tier: 'Minor', confidence: 70 })}\n\`\`\``);
    expect(r).toEqual({ ok: true, answer: good });
  });

  it.each([
    ['prose', 'The change looks fine to me.', 'the model’s answer was not JSON'],
    ['a list', '[1, 2]', 'the model’s answer was not a JSON object'],
    ['a missing field', JSON.stringify({ ...good, summary: undefined }), 'the model’s answer was not the assessment asked for: summary is missing'],
    ['an unknown tier', JSON.stringify({ ...good, tier: 'catastrophic' }), 'the model’s answer was not the assessment asked for: tier must be one of outage, significant, minor, none, unknown'],
    ['a confidence over 100', JSON.stringify({ ...good, confidence: 250 }), 'the model’s answer was not the assessment asked for: confidence must be a number from 0 to 1'],
    ['an unknown finding tag', JSON.stringify({ ...good, findings: [{ tag: 'cause', text: 'x' }] }), 'the model’s answer was not the assessment asked for: findings 1 tag must be one of impact, noise, pre-existing, rule defect'],
    ['an empty finding', JSON.stringify({ ...good, findings: [good.findings[0], { tag: 'noise', text: '' }] }), 'the model’s answer was not the assessment asked for: findings 2 text must be a text of 1 to 1000 characters'],
    ['recommendations as text', JSON.stringify({ ...good, recommendations: 'roll back' }), 'the model’s answer was not the assessment asked for: recommendations must be a list'],
  ])('refuses %s in words', (_what, text, reason) => {
    const r = parseAnswer(text);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toContain(reason);
  });
});
