import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alert, alertsMeasured, cmp, compared, emptyEvidence, evidence, fingerprint, fired, logsMeasured, metricsMeasured, red, resolved, subject,
} from '../../../test/support/evidence-sample.js';
import type { AiAssessment, Evidence } from './evidence-types.js';
import { CSV_HEADER, csvCell, renderCsv } from './report-csv.js';
import { renderHtml } from './report-html.js';
import { renderText } from './report-text.js';
import { disagreement, registeredByLine, summaryLine } from './report-words.js';
import { judge } from './verdict.js';

const measured = (): Evidence => evidence({
  alerts: alertsMeasured([
    subject({ enteredError: 1, firedAndRecovered: true, transitions: [fired('fp-1', '2026-03-01T10:05:00.000Z'), resolved('fp-1', '2026-03-01T10:09:30.000Z')] }),
    subject({ kind: 'asset', key: 'node-7', label: 'node-7', role: 'neighbour', preExisting: true, openAtEnd: true, alerts: [alert({ fingerprint: 'fp-n', alertname: 'NodeDown', label: 'node-7 · NodeDown' })] }),
  ]),
  metrics: [metricsMeasured([red('svc:checkout', 'Checkout API', 'component', { errorRatio: cmp(0.04, 0.003, null) })])],
  logs: [logsMeasured([fingerprint('payment <n> refused', true, 9)])],
});
const input = (e: Evidence, ai: AiAssessment = { status: 'no_provider' }) => ({ version: 3, createdAt: '2026-03-01T11:00:06.000Z', evidence: e, verdict: judge(e), ai });

/** A small RFC 4180 reader, to check what a spreadsheet would see. */
function parseCsv(s: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(cell); cell = ''; } else if (ch === '\r' && s[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i++; } else cell += ch;
  }
  return rows;
}

describe('report.txt', () => {
  it('has the report’s sections in plain text, by name, with "—" for what nobody measured', () => {
    const t = renderText(input(measured(), { status: 'unavailable', reason: 'timeout after 120 s' }));
    expect(t).toContain('Impact significant: Checkout API (component): an alert fired in the window and recovered.');
    expect(t).toContain('Registered by token “github-deploy” of Rita Owner <ci-owner@acme.dev>');
    expect(t).toContain('AI assessment unavailable (timeout after 120 s).');
    expect(t).toMatch(/Checkout API \(component\) · error ratio\s+4 %\s+0\.3 %\s+—/);
    expect(t).toContain('2026-03-01 10:05:00 UTC firing · Checkout API · HighErrorRate · prom-main');
    expect(t).toContain('[new] payment <n> refused — 9 (hour before 0, week earlier 0)');
    expect(t).toContain('Not counted by the verdict\n--------------------------\n  - Pre-existing: node-7 was already in error when the window started: a caveat, not counted.');
    expect(t).not.toMatch(/svc:|fp-1/);
    expect(t.endsWith('\n')).toBe(true);
  });

  it('keeps a line break someone typed in a title on its line', () => {
    const e = measured();
    e.change.title = 'Deploy\nVerdict\n-------\nImpact none';
    expect(renderText(input(e)).split('\n')[0]).toBe('Deploy Verdict ------- Impact none');
  });
});

describe('report.csv', () => {
  it('has the RED figures and the alert transitions, the raw subject beside its label', () => {
    const rows = parseCsv(renderCsv(input(measured())));
    expect(rows[0]).toEqual([...CSV_HEADER]);
    const at = (section: string) => rows.filter((r) => r[0] === section).map((r) => Object.fromEntries(CSV_HEADER.map((h, i) => [h, r[i]])));
    expect(at('red')).toEqual([
      expect.objectContaining({ source: 'prom-main', subject: 'service:svc:checkout', subject_label: 'Checkout API', signal: 'rate', unit: 'req/s', window: '20', hour_before: '20', week_earlier: '20' }),
      expect.objectContaining({ signal: 'error_ratio', unit: 'ratio', window: '0.04', hour_before: '0.003', week_earlier: '—' }),
      expect.objectContaining({ signal: 'p95', unit: 'seconds', window: '0.12' }),
    ]);
    expect(at('alert')).toEqual([
      expect.objectContaining({ subject: 'service:svc:checkout', subject_label: 'Checkout API · HighErrorRate · prom-main', alertname: 'HighErrorRate', state: 'firing', at: '2026-03-01T10:05:00.000Z' }),
      expect.objectContaining({ state: 'resolved', at: '2026-03-01T10:09:30.000Z' }),
      expect.objectContaining({ subject: 'asset:node-7', subject_label: 'node-7', alertname: 'NodeDown', state: 'firing_at_start', at: '2026-03-01T10:00:00.000Z' }),
    ]);
    expect(renderCsv(input(emptyEvidence()))).toBe(`${CSV_HEADER.join(',')}\r\n`);
  });

  it.each([
    ['=HYPERLINK("http://evil")', `"'=HYPERLINK(""http://evil"")"`],
    ['+1', "'+1"], ['-2+3', "'-2+3"], ['@SUM(A1)', "'@SUM(A1)"], ['\tx', "'\tx"],
    ['a,b', '"a,b"'], ['line\nbreak', '"line\nbreak"'], ['plain', 'plain'],
  ])('guards and quotes %j', (v, out) => {
    expect(csvCell(v)).toBe(out);
  });

  it('writes numbers as numbers and null as "—"', () => {
    expect([csvCell(-0.5), csvCell(0), csvCell(null), csvCell(Number.NaN)]).toEqual(['-0.5', '0', '—', '—']);
  });
});

describe('report words', () => {
  const v = judge(measured());
  it('says who registered the change: the token and its owner, or the person', () => {
    expect(registeredByLine({ user: { email: 'rita@acme.dev', name: 'Rita Owner' }, token: { id: 'tok_1', name: 'github-deploy' } })).toBe('Registered by token “github-deploy” of Rita Owner <rita@acme.dev>');
    expect(registeredByLine({ user: { email: 'sam@acme.dev', name: null }, token: null })).toBe('Registered by sam@acme.dev');
  });

  it('says "Rules … · AI …" only when the AI gave another tier', () => {
    const ai = (tier: 'minor' | 'significant'): AiAssessment => ({ status: 'done', provider: { kind: 'openai', model: 'gpt-4o' }, tier, confidence: 0.5, summary: 's', findings: [], recommendations: [] });
    expect(disagreement(v, ai('minor'))).toBe('Rules significant · AI minor');
    expect(disagreement(v, ai('significant'))).toBeNull();
    expect(disagreement(v, { status: 'no_provider' })).toBeNull();
    expect(summaryLine(v, ai('minor'))).toBe(`Impact significant: ${v.reason} AI: minor.`);
    expect(summaryLine(v, { status: 'off' })).toBe(`Impact significant: ${v.reason}`);
  });
});

// Anything someone outside typed (titles, names, alert labels, log lines, the model's words).
const hostile = fc.oneof(fc.string(), fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '=cmd|\' /C calc\'!A0', '</style><x-evil>', '\u2028', ',"\r\n'));
const marker = '<x-evil';

describe('the renderers, for any evidence', () => {
  it('never throw, escape every outside text in HTML, keep CSV rows whole', () => {
    fc.assert(fc.property(hostile, hostile, hostile, hostile, hostile, fc.option(fc.double({ noNaN: false }), { nil: null }), (title, name, label, template, summary, n) => {
      const e = evidence({
        change: { ...emptyEvidence().change, title: `${marker}>${title}`, ticket: { key: `${marker}>`, url: `javascript:${label}` } },
        alerts: alertsMeasured([subject({ label: `${marker}>${label}`, enteredError: 1, openAtEnd: true, transitions: [fired('fp-1', '2026-03-01T10:05:00.000Z', `${marker}>${name}`)] })]),
        metrics: [metricsMeasured([red('svc:x', `${marker}>${name}`, 'component', { rate: cmp(n, 1, 1), series: { rate: compared(n ?? 1), errorRatio: compared(0), p95: compared(1e9) } })])],
        logs: [logsMeasured([{ ...fingerprint(`${marker}>${template}`, true), sample: `${marker}>${template}` }])],
      });
      const ai: AiAssessment = { status: 'done', provider: { kind: 'openai', model: `${marker}>` }, tier: 'none', confidence: 0.3, summary: `${marker}>${summary}`, findings: [{ tag: 'noise', text: `${marker}>` }], recommendations: [`${marker}>`] };
      const i = input(e, ai);
      const h = renderHtml(i);
      expect(h).not.toContain(marker);
      expect(h).not.toMatch(/<script|<img|href="(?!https?:)/i);
      const t = renderText(i);
      expect(t.split('\n')[0]).toBe(`${marker}>${title}`.replace(/[\r\n\u2028\u2029]+/g, ' '));
      const rows = parseCsv(renderCsv(i));
      expect(rows.every((r) => r.length === CSV_HEADER.length)).toBe(true);
      expect(rows.slice(1).every((r) => !/^[=+\-@\t\r]/.test(r[3]!))).toBe(true);
    }), { numRuns: 150 });
  });
});
