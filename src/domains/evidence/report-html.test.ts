import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  alert, alertsMeasured, cmp, compared, emptyEvidence, evidence, fingerprint, fired, largeEvidence, logsMeasured, metricsMeasured, red, resolved, subject,
} from '../../../test/support/evidence-sample.js';
import type { AiAssessment, Evidence } from './evidence-types.js';
import { reportCsp } from '../changes/report-csp.js';
import { renderHtml } from './report-html.js';
import { judge } from './verdict.js';

const AI_MINOR: AiAssessment = {
  status: 'done', provider: { kind: 'anthropic', model: 'claude-sonnet-4' }, tier: 'minor', confidence: 0.72, summary: 'Errors rose briefly on Checkout API.',
  findings: [{ tag: 'impact', text: 'Checkout API errors rose for 4 minutes.' }, { tag: 'noise', text: 'Payments latency is its usual evening bump.' }],
  recommendations: ['Watch Checkout API for another hour.'],
};

const measured = (): Evidence => evidence({
  alerts: alertsMeasured([
    subject({ enteredError: 1, firedAndRecovered: true, transitions: [fired('fp-1', '2026-03-01T10:05:00.000Z'), resolved('fp-1', '2026-03-01T10:09:30.000Z')] }),
    subject({ key: 'svc:search', label: 'Search', role: 'neighbour', preExisting: true, openAtEnd: true, alerts: [alert({ fingerprint: 'fp-s', label: 'Search · Down · prom-main' })] }),
  ]),
  metrics: [metricsMeasured([
    red('svc:checkout', 'Checkout API', 'component', { errorRatio: cmp(0.04, 0.003, 0.004), series: { rate: compared(20), errorRatio: compared(0.003, 0.04), p95: compared(0.12) } }),
    red('svc:payments', 'Payments', 'neighbour', { p95: cmp(null, 0.2, 0.2), series: null }),
  ])],
  logs: [logsMeasured([fingerprint('payment <n> refused: card <hex>', true, 9), fingerprint('order <n> placed', false)])],
});

const html = (e: Evidence, ai: AiAssessment = { status: 'no_provider' }, version = 2) => renderHtml({ version, createdAt: '2026-03-01T11:00:06.000Z', evidence: e, verdict: judge(e), ai });
const text = (h: string) => h.replace(/<style>[\s\S]*<\/style>/, '').replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, ' ');

describe('report.html', () => {
  it('says the verdict, its rule, what matched and the window, by name', () => {
    const h = html(measured());
    const t = text(h);
    expect(t).toContain('Deploy checkout 2.4');
    expect(t).toContain('CHG-01234567 · deploy · outcome success');
    expect(t).toContain('significant Checkout API (component): error ratio 4 % against 0.3 % the hour before and 0.4 % a week earlier (prom-main) (and 1 more).');
    expect(t).toContain('Rule: a component moved against every baseline.');
    expect(t).toContain('Checkout API (component): an alert fired in the window and recovered.');
    expect(t).toContain('The window 2026-03-01 10:00 UTC – 2026-03-01 11:00 UTC finished 2026-03-01 10:30 UTC, then a horizon of 30 min');
    expect(t).toContain('The hour before 2026-03-01 09:00 UTC – 2026-03-01 10:00 UTC');
    expect(t).toContain('A week earlier 2026-02-22 10:00 UTC – 2026-02-22 11:00 UTC');
    expect(t).toContain('Registered by token “github-deploy” of Rita Owner <ci-owner@acme.dev>');
    expect(t).toContain('2026-03-01 10:05:00 UTC firing · Checkout API · HighErrorRate · prom-main');
    expect(t).toContain('Pre-existing: Search was already in error when the window started: a caveat, not counted.');
    expect(h).not.toMatch(/svc:|fp-1/);
  });

  it('draws a sparkline per signal of each service with series, and prints "—" where nothing was measured', () => {
    const h = html(measured());
    expect(h.match(/<svg /g)).toHaveLength(3);
    expect(h).toContain('<title>error ratio: the window against the hour before and a week earlier, 0 to 4.33 %</title>');
    const payments = h.slice(h.indexOf('<strong>Payments</strong>'));
    expect(text(payments.slice(0, payments.indexOf('</tr>', payments.indexOf('p95 latency'))))).toMatch(/p95 latency — 200 ms 200 ms —/);
    expect(h).toContain('class="num worse">4 %');
    expect(text(h)).toContain('payment <n> refused: card <hex> new');
  });

  it('is standalone: no script, no style attribute, nothing loaded; the CSP hash allows its one style block', () => {
    const h = html(largeEvidence(20), AI_MINOR);
    expect(h).not.toMatch(/<script|javascript:|\sstyle=|\ssrc=|<link|<img|<iframe|url\(|@import/i);
    expect(h.match(/<style>/g)).toHaveLength(1);
    const style = /<style>([\s\S]*?)<\/style>/.exec(h)![1]!;
    expect(reportCsp(h)).toBe(`default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(h.startsWith('<!doctype html>')).toBe(true);
  });

  it('shows the AI assessment beside the verdict, and a "Rules … · AI …" line when they disagree', () => {
    const t = text(html(measured(), AI_MINOR));
    expect(t).toContain('Rules significant · AI minor');
    expect(t).toContain('minor confidence 72 % · anthropic claude-sonnet-4');
    expect(t).toContain('impact Checkout API errors rose for 4 minutes.');
    expect(t).toContain('Watch Checkout API for another hour.');
    expect(text(html(measured(), { ...AI_MINOR, tier: 'significant' }))).not.toContain('Rules significant · AI');
  });

  it.each<[AiAssessment, string]>([
    [{ status: 'no_provider' }, 'No AI provider is assigned to change assessment.'],
    [{ status: 'unavailable', reason: 'the hourly cap of 30 assessments is reached' }, 'AI assessment unavailable (the hourly cap of 30 assessments is reached).'],
    [{ status: 'off' }, 'AI assessment is off for this organisation.'],
  ])('says what became of the AI assessment: %j', (ai, words) => {
    expect(text(html(measured(), ai))).toContain(words);
  });

  it('says when the server has no SMTP, and what was not measured and why', () => {
    const e = { ...emptyEvidence(), mailConfigured: false, metrics: [{ source: { id: 's', kind: 'prometheus' as const, name: 'prom-main' }, status: 'not_measured' as const, reason: 'connect ECONNREFUSED' }] };
    const t = text(html(e));
    expect(t).toContain('This server has no SMTP configured: this report was not mailed.');
    expect(t).toContain('unknown Nothing was measured');
    expect(t).toContain('Alerts: not measured (no alert source is configured).');
    expect(t).toContain('RED metrics: not measured (connect ECONNREFUSED).');
    expect(t).toContain('Logs: not measured (no log source).');
    expect(text(html(measured()))).not.toContain('no SMTP');
  });

  it('is deterministic: a re-render of the stored evidence gives the same bytes', () => {
    const e = measured();
    expect(html(JSON.parse(JSON.stringify(e)) as Evidence, AI_MINOR)).toBe(html(e, AI_MINOR));
  });
});
