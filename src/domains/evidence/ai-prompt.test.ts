import { describe, expect, it } from 'vitest';
import { assessedEvidence, PLANTED_SECRETS } from '../../../test/support/ai-peers.js';
import { buildPrompt } from './ai-prompt.js';
import { judge } from './verdict.js';

describe('the prompt', () => {
  const e = assessedEvidence();
  const v = judge(e);
  const p = buildPrompt(e, v);
  const all = `${p.system}\n${p.user}`;

  it('holds the evidence (names and figures) and the rules’ verdict', () => {
    expect(p.user).toContain('"service":"Checkout API"');
    expect(p.user).toContain('"errorRatio":{"window":0.09,"hourBefore":0.002,"weekEarlier":0.003}');
    expect(p.user).toContain('login failed for user <n>');
    expect(p.user).toContain(`"impact":"${v.impact}","rule":"${v.rule}"`);
    expect(p.system).toMatch(/"tier": "outage\|significant\|minor\|none\|unknown"/);
  });

  it('sends no secret from a log sample, even one the collector left in', () => {
    for (const s of PLANTED_SECRETS) expect(all).not.toContain(s);
    expect(p.user).toContain('login failed for user 42 password=');
  });

  it('sends nothing but the evidence: no person’s e-mail, no token, no link, no keys, no series', () => {
    expect(all).not.toContain('ci-owner@acme.dev');
    expect(all).not.toContain('github-deploy');
    expect(all).not.toContain('https://cl.acme.dev');
    expect(all).not.toContain('svc:checkout');
    expect(all).not.toContain('stepSeconds');
  });
});
