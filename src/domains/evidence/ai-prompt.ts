import { AI_MAX_FINGERPRINTS, AI_MAX_SAMPLE_CHARS } from './ai-limits.js';
import type { Compared, Evidence, LogsPart, MetricsPart, AlertsPart, Verdict } from './evidence-types.js';
import { scrubSecrets } from '../../platform/scrub.js';

/**
 * What the model is shown: the evidence of one report version, compacted, and the rules' verdict —
 * nothing else. Left out on purpose: who registered the change (a person's e-mail), the ticket,
 * links, the series behind the sparklines (the window and baseline figures say the same in far
 * fewer tokens) and the alerts' raw labels. Log text is scrubbed again here, whatever the
 * collector did: this is the last place before it leaves the server. Pure.
 */

export type AiPrompt = { system: string; user: string };

const scrub = (text: string, max: number) => {
  const s = scrubSecrets(text);
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

const figures = (c: Compared) => ({ window: c.window, hourBefore: c.hourBefore, weekEarlier: c.weekEarlier });

function compactAlerts(p: AlertsPart) {
  if (p.status !== 'measured') return { source: p.source.name, notMeasured: p.reason };
  return {
    source: p.source.name,
    truncated: p.value.truncated,
    subjects: p.value.subjects.map((s) => ({
      subject: s.label, kind: s.kind, role: s.role, preExisting: s.preExisting, enteredError: s.enteredError, openAtEnd: s.openAtEnd,
      longestErrorMinutes: s.longestErrorMinutes, downMinutes: s.downMinutes, firedAndRecovered: s.firedAndRecovered,
      alerts: s.alerts.map((a) => ({ alert: a.label, severity: a.severity, down: a.down, latencyThresholdZero: a.latencyThresholdZero, clusterScope: a.clusterScope })),
    })),
  };
}

function compactMetrics(p: MetricsPart) {
  if (p.status !== 'measured') return { source: p.source.name, notMeasured: p.reason };
  return {
    source: p.source.name,
    templates: p.value.templates,
    services: p.value.services.map((s) => ({
      service: s.name, role: s.role, requestsPerSecond: figures(s.rate), errorRatio: figures(s.errorRatio), p95Seconds: figures(s.p95),
    })),
  };
}

function compactLogs(p: LogsPart) {
  if (p.status !== 'measured') return { source: p.source.name, notMeasured: p.reason };
  return {
    source: p.source.name,
    volume: figures(p.value.volume),
    errors: figures(p.value.errors),
    fingerprints: p.value.fingerprints.slice(0, AI_MAX_FINGERPRINTS).map((f) => ({
      template: scrub(f.template, AI_MAX_SAMPLE_CHARS), counts: figures(f.counts), isNew: f.isNew,
      sample: scrub(f.sample, AI_MAX_SAMPLE_CHARS), services: f.services,
    })),
  };
}

/** The evidence as the model reads it: names, figures, flags. null is "not measured", never 0. */
export function compactEvidence(e: Evidence) {
  return {
    change: { title: e.change.title, kind: e.change.kind, outcome: e.change.outcome, components: e.change.components.map((c) => `${c.name} (${c.kind})`) },
    window: { start: e.window.start, finish: e.window.finish, end: e.window.end, evidenceMinutes: e.window.evidenceMinutes, hourBefore: e.window.hourBefore, weekEarlier: e.window.weekEarlier },
    thresholds: e.thresholds,
    services: e.services.map((s) => ({ service: s.name, role: s.role })),
    alerts: compactAlerts(e.alerts),
    metrics: e.metrics.map(compactMetrics),
    logs: e.logs.map(compactLogs),
  };
}

const compactVerdict = (v: Verdict) => ({
  impact: v.impact, rule: v.rule, reason: v.reason,
  matched: v.matched.map((m) => ({ subject: m.subject, text: m.text })),
  notCounted: v.notCounted.map((n) => ({ kind: n.kind, subject: n.subject, text: n.text })),
});

const SYSTEM = [
  'You review the evidence collected after a production change and judge its impact, as a second opinion beside a rule-based verdict.',
  'Tiers: outage (a component broken and still failing at the end, or down for minutes), significant (a component clearly worse than both baselines,',
  'an alert that fired and recovered, a neighbour still failing at the end), minor (something moved but not against every baseline, or flapping),',
  'none (measured and nothing moved), unknown (nothing was measured).',
  'A null figure was not measured: never read it as 0. The window is compared with the hour before and the same span a week earlier.',
  'Answer with one JSON object and nothing else, of this shape:',
  '{"tier": "outage|significant|minor|none|unknown", "confidence": <number from 0 to 1>, "summary": "<two or three sentences>",',
  ' "findings": [{"tag": "impact|noise|pre-existing|rule defect", "text": "<one finding>"}], "recommendations": ["<one action>"]}.',
  'Tag a finding impact when the change caused it, noise when it is unrelated variation, pre-existing when it was failing before the window,',
  'rule defect when an alert rule itself is wrong (for example a latency alarm at threshold 0). Name services and alerts by the names given.',
].join(' ');

export function buildPrompt(evidence: Evidence, verdict: Verdict): AiPrompt {
  const user = [
    'The evidence of the change (JSON):',
    JSON.stringify(compactEvidence(evidence)),
    'The rules’ verdict (JSON):',
    JSON.stringify(compactVerdict(verdict)),
    'Give your own assessment as the JSON object described.',
  ].join('\n');
  return { system: SYSTEM, user };
}
