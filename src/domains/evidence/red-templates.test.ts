import { describe, expect, it } from 'vitest';
import { checkRedTemplates, checkServiceOverride, fillTemplate, RED_PRESETS, templatesOf } from './red-templates.js';

describe('RED query templates', () => {
  it('fill the span, the week-earlier offset after every range selector, and the service label', () => {
    const q = fillTemplate(RED_PRESETS.otel.queries.errorRatio, { range: '4500s', offset: '1w', by: 'job' });
    expect(q).not.toMatch(/\$/);
    expect(q.match(/\[4500s\] offset 1w/g)).toHaveLength(3);
    expect(q).toContain('sum by (job) (rate(http_server_request_duration_seconds_count{http_response_status_code=~"5.."}[4500s] offset 1w))');
    expect(fillTemplate(RED_PRESETS.classic.queries.p95, { range: '3600s', offset: null, by: 'job' }))
      .toBe('histogram_quantile(0.95, sum by (job, le) (rate(http_request_duration_seconds_bucket[3600s] )))');
  });

  it('have the OpenTelemetry HTTP semantic conventions as the default and the classic client libraries as the other preset, both by job', () => {
    expect(templatesOf(null)).toBe(RED_PRESETS.otel);
    expect(RED_PRESETS.otel.queries.p95).toContain('http_server_request_duration_seconds_bucket');
    expect(RED_PRESETS.classic.queries.errorRatio).toContain('http_requests_total{code=~"5.."}');
    expect([RED_PRESETS.otel.serviceLabel, RED_PRESETS.classic.serviceLabel]).toEqual(['job', 'job']);
    expect(templatesOf({ preset: 'classic' })).toBe(RED_PRESETS.classic);
  });

  it('take an organisation\'s own queries with their service label', () => {
    const own = { serviceLabel: 'service', rate: 'sum by ($by) (rate(a[$range] $offset))', errorRatio: 'sum by ($by) (rate(b[$range] $offset))', p95: 'max by ($by) (c[$range] $offset)' };
    const c = checkRedTemplates(own);
    expect(c).toEqual({ ok: true, value: own });
    expect(c.ok && templatesOf(c.value)).toEqual({ name: 'custom', serviceLabel: 'service', queries: { rate: own.rate, errorRatio: own.errorRatio, p95: own.p95 } });
  });

  const good = { rate: 'sum by ($by) (rate(a[$range] $offset))', errorRatio: 'sum by ($by) (rate(b[$range] $offset))', p95: 'max by ($by) (c[$range] $offset)' };
  it.each([
    ['a list', [], '', /preset/],
    ['an unknown preset', { preset: 'datadog' }, 'preset', /"otel" or "classic"/],
    ['a preset with queries', { preset: 'otel', rate: 'x' }, 'preset', /alone/],
    ['no $range', { ...good, rate: 'sum by ($by) (rate(a[5m] $offset))' }, 'rate', /\$range/],
    ['no $offset', { ...good, errorRatio: 'sum by ($by) (rate(b[$range]))' }, 'errorRatio', /\$offset/],
    ['no $by', { ...good, p95: 'max(c[$range] $offset)' }, 'p95', /\$by.*one query answers every service/],
    ['a missing query', { rate: good.rate, errorRatio: good.errorRatio }, 'p95', /PromQL query/],
    ['a bad label', { ...good, serviceLabel: 'service-name' }, 'serviceLabel', /label name/],
    ['an unknown field', { ...good, latency: 'x' }, 'latency', /not a known field/],
    ['a huge query', { ...good, rate: `${good.rate} + ${'x'.repeat(2000)}` }, 'rate', /at most 2000/],
  ])('refuse %s, naming the field', (_what, raw, field, words) => {
    const c = checkRedTemplates(raw);
    expect(c.ok).toBe(false);
    if (!c.ok) {
      expect(c.field).toBe(field);
      expect(c.problem).toMatch(words);
    }
  });

  it('read a catalogue service\'s override: another label value, or its own queries without $by', () => {
    expect(checkServiceOverride({ label: ' billing-api ' })).toEqual({ ok: true, value: { label: 'billing-api' } });
    const own = { rate: 'sum(rate(a[$range] $offset))', errorRatio: 'sum(rate(b[$range] $offset))', p95: 'max(c[$range] $offset)' };
    expect(checkServiceOverride(own)).toEqual({ ok: true, value: { queries: own } });
    expect(checkServiceOverride({ ...own, rate: good.rate })).toMatchObject({ ok: false, field: 'attrs.prometheus.rate', problem: expect.stringMatching(/must not use \$by/) });
    expect(checkServiceOverride({ label: 'x', rate: 'y' })).toMatchObject({ ok: false, field: 'attrs.prometheus' });
    expect(checkServiceOverride('billing')).toMatchObject({ ok: false });
  });
});
