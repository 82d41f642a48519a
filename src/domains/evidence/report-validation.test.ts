import { describe, expect, it } from 'vitest';
import { emptyEvidence, evidence } from '../../../test/support/evidence-sample.js';
import type { Evidence, GovernancePart, ValidationItemPart, ValidationPart } from './evidence-types.js';
import { CSV_HEADER, renderCsv } from './report-csv.js';
import { renderHtml } from './report-html.js';
import { renderText } from './report-text.js';
import { judge } from './verdict.js';

const CHECKED = '2026-03-01T10:30:30.000Z';
const DUE = '2026-03-01T10:30:30.000Z';

const health = (row: ValidationItemPart['row']): ValidationItemPart => ({
  id: 'checkout-health', target: 'Checkout API', check: 'http', read: 'https://checkout.acme.dev/healthz', expected: { op: '==', value: 200 }, row,
});
const errors = (row: ValidationItemPart['row']): ValidationItemPart => ({
  id: 'error-ratio', target: 'Checkout API', check: 'promql', read: 'sum(rate(http_errors_total[5m])) / sum(rate(http_requests_total[5m]))',
  expected: { op: '<', value: 0.01 }, row,
});
const pass200 = { state: 'pass' as const, observed: '200', detail: 'observed status 200, expected == 200', checkedAt: CHECKED };

const CLEARED: ValidationPart = { result: 'cleared', reason: 'cleared: the one item of the plan passed', checkedAt: CHECKED, dueAt: DUE, items: [health(pass200)] };
const STILL_PRESENT: ValidationPart = {
  result: 'still_present', reason: 'still present: 1 item failed (error-ratio)', checkedAt: CHECKED, dueAt: DUE,
  items: [health(pass200), errors({ state: 'fail', observed: '0.042', detail: 'observed 0.042, expected < 0.01', checkedAt: CHECKED })],
};
const UNCERTAIN: ValidationPart = {
  result: 'uncertain', reason: 'uncertain: 1 item was not observed (error-ratio); 1 of 2 passed', checkedAt: CHECKED, dueAt: DUE,
  items: [health(pass200), errors({ state: 'not_observed', observed: null, detail: 'not observed: no Prometheus evidence source is configured', checkedAt: CHECKED })],
};
const NOT_CHECKED: ValidationPart = { result: null, reason: null, checkedAt: null, dueAt: DUE, items: [health(null)] };

const NO_GOVERNANCE: GovernancePart = {
  beforeState: { digest: null, captures: [] },
  rollback: { state: null, requestedAt: null, completedAt: null, releasedBy: [], decision: null },
};
const SWEEP_REQUESTED: GovernancePart = {
  beforeState: {
    digest: 'sha256:3f0c1d2e4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
    captures: [
      { method: 'previous_version', reference: '2.3.9', completeness: 'partial', prestateStatus: 'present', restorable: true, sizeBytes: 0, sha256: 'a'.repeat(64), capturedAt: '2026-03-01T09:58:00.000Z', capturedBy: 'github-deploy' },
      { method: 'artifact', reference: 'values.yaml', completeness: 'complete', prestateStatus: 'present', restorable: true, sizeBytes: 812, sha256: 'b'.repeat(64), capturedAt: '2026-03-01T09:58:00.000Z', capturedBy: 'github-deploy' },
    ],
  },
  rollback: {
    state: 'requested', requestedAt: '2026-03-01T10:41:00.000Z', completedAt: null,
    releasedBy: [{ kind: 'sweep', email: null, at: '2026-03-01T10:41:00.000Z' }],
    decision: { decision: 'execute', reason: 'execute: it failed (verdict outage) and it is a standard change at L2, so it asks the pipeline to redeploy the previous version', at: '2026-03-01T10:41:00.000Z' },
  },
};
const ROLLED_BACK_BY_PEOPLE: GovernancePart = {
  ...SWEEP_REQUESTED,
  rollback: {
    state: 'rolled_back', requestedAt: '2026-03-01T10:41:00.000Z', completedAt: '2026-03-01T10:44:00.000Z',
    releasedBy: [{ kind: 'person', email: 'rita@acme.dev', at: '2026-03-01T10:40:00.000Z' }, { kind: 'person', email: 'sam@acme.dev', at: '2026-03-01T10:41:00.000Z' }],
    decision: null,
  },
};

const input = (e: Evidence) => ({ version: 2, createdAt: '2026-03-01T11:00:06.000Z', evidence: e, verdict: judge(e), ai: { status: 'no_provider' as const } });
/** What a reader of the HTML sees: its text, tags dropped, entities decoded, spaces collapsed. */
const seen = (h: string) => h.replace(/<style>[\s\S]*<\/style>/, '').replace(/<[^>]+>/g, ' ').replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
  .replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, ' ');
/** The lines of one section of report.txt, heading and underline dropped. */
function section(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  expect(start, `no section ${title}`).toBeGreaterThan(-1);
  const out: string[] = [];
  for (const l of lines.slice(start + 2)) {
    if (l === '') break;
    out.push(l);
  }
  return out;
}

describe('the Validation section', () => {
  it.each<[string, ValidationPart, string[], string[]]>([
    ['cleared', CLEARED,
      ['Result cleared: the one item of the plan passed; checked 2026-03-01 10:30:30 UTC.',
        '  - checkout-health · Checkout API · http https://checkout.acme.dev/healthz · expected status == 200: pass (observed status 200, expected == 200)'],
      ['Result cleared: the one item of the plan passed; checked 2026-03-01 10:30:30 UTC.',
        'checkout-health Checkout API http https://checkout.acme.dev/healthz status == 200 pass observed status 200, expected == 200']],
    ['still present', STILL_PRESENT,
      ['Result still present: 1 item failed (error-ratio); checked 2026-03-01 10:30:30 UTC.',
        '  - checkout-health · Checkout API · http https://checkout.acme.dev/healthz · expected status == 200: pass (observed status 200, expected == 200)',
        '  - error-ratio · Checkout API · promql sum(rate(http_errors_total[5m])) / sum(rate(http_requests_total[5m])) · expected value < 0.01: fail (observed 0.042, expected < 0.01)'],
      ['Result still present: 1 item failed (error-ratio)', 'error-ratio Checkout API promql sum(rate(http_errors_total[5m])) / sum(rate(http_requests_total[5m])) value < 0.01 fail observed 0.042, expected < 0.01']],
    ['uncertain', UNCERTAIN,
      ['Result uncertain: 1 item was not observed (error-ratio); 1 of 2 passed; checked 2026-03-01 10:30:30 UTC.',
        '  - checkout-health · Checkout API · http https://checkout.acme.dev/healthz · expected status == 200: pass (observed status 200, expected == 200)',
        '  - error-ratio · Checkout API · promql sum(rate(http_errors_total[5m])) / sum(rate(http_requests_total[5m])) · expected value < 0.01: not observed (not observed: no Prometheus evidence source is configured)'],
      ['not observed not observed: no Prometheus evidence source is configured']],
    ['not checked yet', NOT_CHECKED,
      ['Not checked yet: due 2026-03-01 10:30:30 UTC.',
        '  - checkout-health · Checkout API · http https://checkout.acme.dev/healthz · expected status == 200: not checked yet'],
      ['Not checked yet: due 2026-03-01 10:30:30 UTC.', 'checkout-health Checkout API http https://checkout.acme.dev/healthz status == 200 not checked yet —']],
  ])('%s: the result and its reason, then each item with its target, check, expectation, state and detail', (_name, validation, textLines, htmlPhrases) => {
    const e = evidence({ validation });
    expect(section(renderText(input(e)), 'Validation')).toEqual(textLines);
    const h = seen(renderHtml(input(e)));
    for (const phrase of htmlPhrases) expect(h).toContain(phrase);
  });

  it('says when the change had no validation plan, and shows no section at all for a report stored before validation existed', () => {
    const none = evidence({ validation: null });
    expect(section(renderText(input(none)), 'Validation')).toEqual(['No validation plan was registered for this change.']);
    expect(seen(renderHtml(input(none)))).toContain('Validation No validation plan was registered for this change.');
    const old = emptyEvidence();
    expect('validation' in old || 'governance' in old).toBe(false);
    expect(renderText(input(old))).not.toMatch(/^Validation$|^Before-state and rollback$/m);
    expect(renderHtml(input(old))).not.toMatch(/<h2>(Validation|Before-state and rollback)<\/h2>/);
  });

  it('escapes an item that came from outside: its URL stays text in the HTML, its line breaks stay on their line in the text', () => {
    const evil = { ...health(null), id: 'x', target: 'A\nVerdict\n-------', read: 'https://x.dev/<script>alert(1)</script>' };
    const e = evidence({ validation: { ...NOT_CHECKED, items: [evil] } });
    const h = renderHtml(input(e));
    expect(h).not.toContain('<script>');
    expect(section(renderText(input(e)), 'Validation')[1]).toBe('  - x · A Verdict ------- · http https://x.dev/<script>alert(1)</script> · expected status == 200: not checked yet');
  });

  it('lists the items in the CSV under section "validation": state, when checked, observed value (a number stays a number), expectation and detail', () => {
    const rows = renderCsv(input(evidence({ validation: STILL_PRESENT }))).split('\r\n').filter((r) => r.startsWith('validation,'));
    const head = CSV_HEADER.join(',');
    expect(head.endsWith(',observed,expected,detail')).toBe(true);
    expect(rows).toEqual([
      `validation,validation plan,item:checkout-health,Checkout API,,http,,,,,,pass,${CHECKED},200,status == 200,"observed status 200, expected == 200"`,
      `validation,validation plan,item:error-ratio,Checkout API,,promql,,,,,,fail,${CHECKED},0.042,value < 0.01,"observed 0.042, expected < 0.01"`,
    ]);
    const notYet = renderCsv(input(evidence({ validation: NOT_CHECKED }))).split('\r\n').filter((r) => r.startsWith('validation,'));
    expect(notYet).toEqual(['validation,validation plan,item:checkout-health,Checkout API,,http,,,,,,not_checked,,,status == 200,']);
    const notObserved = renderCsv(input(evidence({ validation: UNCERTAIN }))).split('\r\n').find((r) => r.includes('item:error-ratio'));
    expect(notObserved).toBe(`validation,validation plan,item:error-ratio,Checkout API,,promql,,,,,,not_observed,${CHECKED},—,value < 0.01,not observed: no Prometheus evidence source is configured`);
    expect(renderCsv(input(evidence({ validation: null })))).toBe(`${head}\r\n`);
  });
});

describe('the Before-state and rollback section', () => {
  it.each<[string, GovernancePart, string[]]>([
    ['a rollback the sweep requested', SWEEP_REQUESTED, [
      'Before-state: 2 captures, digest sha256:3f0c1d2e4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0.',
      '  - previous version 2.3.9: partial, existed before, restorable; captured 2026-03-01 09:58 UTC by github-deploy',
      '  - artifact values.yaml (812 bytes): complete, existed before, restorable; captured 2026-03-01 09:58 UTC by github-deploy',
      'Rollback requested 2026-03-01 10:41 UTC by the rollback sweep; not completed when the evidence was collected.',
      'Rollback sweep: execute: it failed (verdict outage) and it is a standard change at L2, so it asks the pipeline to redeploy the previous version (2026-03-01 10:41 UTC).',
    ]],
    ['a rollback two people released, done', ROLLED_BACK_BY_PEOPLE, [
      'Before-state: 2 captures, digest sha256:3f0c1d2e4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0.',
      '  - previous version 2.3.9: partial, existed before, restorable; captured 2026-03-01 09:58 UTC by github-deploy',
      '  - artifact values.yaml (812 bytes): complete, existed before, restorable; captured 2026-03-01 09:58 UTC by github-deploy',
      'Rolled back 2026-03-01 10:44 UTC (requested 2026-03-01 10:41 UTC by rita@acme.dev and sam@acme.dev).',
    ]],
    ['no before-state and no rollback', NO_GOVERNANCE, ['No before-state was captured.', 'No rollback was requested.']],
    ['a sweep decision whose reason does not name it', { ...NO_GOVERNANCE, rollback: { ...NO_GOVERNANCE.rollback, decision: { decision: 'skip', reason: 'no rollback path is known', at: '2026-03-01T10:35:00.000Z' } } },
      ['No before-state was captured.', 'No rollback was requested.', 'Rollback sweep: skip: no rollback path is known (2026-03-01 10:35 UTC).']],
    ['a failed rollback and a sweep that escalated', {
      ...NO_GOVERNANCE,
      rollback: {
        state: 'failed', requestedAt: '2026-03-01T10:41:00.000Z', completedAt: '2026-03-01T10:50:00.000Z', releasedBy: [{ kind: 'person', email: 'rita@acme.dev', at: '2026-03-01T10:41:00.000Z' }],
        decision: { decision: 'escalate', reason: 'escalate: it failed (outcome partial), but redeploying the previous version of a normal change is left to a person', at: '2026-03-01T10:35:00.000Z' },
      },
    }, [
      'No before-state was captured.',
      'Rollback failed 2026-03-01 10:50 UTC (requested 2026-03-01 10:41 UTC by rita@acme.dev).',
      'Rollback sweep: escalate: it failed (outcome partial), but redeploying the previous version of a normal change is left to a person (2026-03-01 10:35 UTC).',
    ]],
  ])('%s', (_name, governance, lines) => {
    const e = evidence({ governance });
    expect(section(renderText(input(e)), 'Before-state and rollback')).toEqual(lines);
    const h = seen(renderHtml(input(e)));
    expect(h).toContain('Before-state and rollback');
    for (const l of lines) expect(h).toContain(l.replace(/^ {2}- /, ''));
  });

  it('is deterministic: a re-render of the stored evidence gives the same bytes', () => {
    const e = evidence({ validation: STILL_PRESENT, governance: SWEEP_REQUESTED });
    const again = JSON.parse(JSON.stringify(e)) as Evidence;
    expect([renderHtml(input(again)), renderText(input(again)), renderCsv(input(again))]).toEqual([renderHtml(input(e)), renderText(input(e)), renderCsv(input(e))]);
  });
});
