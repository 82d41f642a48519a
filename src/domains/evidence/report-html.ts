/**
 * The report as one standalone HTML document: served as report.html under
 * `Content-Security-Policy: default-src 'none'` and mailed as the Reported e-mail's body. So it
 * holds no script and references nothing outside itself; its look is one fixed <style> block
 * (allowed by its hash: changes' reportCsp) and table layout, which mail clients render alike. Nothing
 * uses a style attribute (a CSP would block it). Pure and deterministic: the same input, the
 * same bytes. Every text that came from outside is escaped; every null prints "—".
 */
import { escapeHtml as esc } from '../../platform/mail/render.js';
import type {
  AiAssessment, AlertsPart, Evidence, GovernancePart, LogsPart, MetricsPart, NotCountedKind, ReviewPart, SubjectHealth, Thresholds, ValidationPart, Verdict,
} from './evidence-types.js';
import { moved } from './movement.js';
import type { ReportInput } from './report-input.js';
import { sparkline, SPARK_LINES } from './report-sparkline.js';
import {
  aiLine, at, atSecond, beforeStateLine, captureLine, count, disagreement, expectedWords, figure, NOT_MEASURED, registeredByLine, rollbackLines,
  SIGNAL_NAMES, SIGNALS, span, stateWords, validationLine, reviewLine, followUpLine,
} from './report-words.js';

export type { ReportInput };

const STYLE = [
  'body{margin:0;padding:24px;background:#f5f6f8;color:#1d232b;font:14px/1.45 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}',
  '.page{width:100%;max-width:980px;margin:0 auto;background:#fff;border:1px solid #dde1e6;border-radius:6px}',
  '.page>tbody>tr>td{padding:24px 28px}',
  'h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid #e3e6ea}h3{font-size:14px;margin:16px 0 6px}',
  'p{margin:0 0 8px}.muted{color:#5f6b7a}.small{font-size:12px}ul{margin:4px 0 8px;padding-left:20px}',
  'table.grid{border-collapse:collapse;width:100%;margin:4px 0 12px}',
  '.grid th,.grid td{border-bottom:1px solid #e9ecef;padding:4px 8px;text-align:left;vertical-align:middle}',
  '.grid th{background:#f1f3f5;font-weight:600;font-size:12px;color:#3d4752}.grid td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}',
  '.chip{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff;background:#6b7280}',
  '.impact-outage{background:#b3261e}.impact-significant{background:#c25e00}.impact-minor{background:#a67c00}.impact-none{background:#2e7d32}.impact-unknown{background:#6b7280}',
  '.verdict{font-size:15px;margin:12px 0}.disagree{background:#fff4e5;border:1px solid #f0c48a;padding:6px 10px;border-radius:4px}',
  '.box{border:1px solid #e3e6ea;border-radius:4px;padding:10px 12px;margin:8px 0}.worse{color:#b3261e;font-weight:600}.better{color:#2e7d32}',
  '.new{display:inline-block;padding:0 6px;border-radius:8px;background:#fde7e9;color:#9b1c1c;font-size:11px;font-weight:600}',
  '.tag{display:inline-block;padding:0 6px;border-radius:8px;background:#e8eef7;color:#1f3a5f;font-size:11px;font-weight:600}',
  'code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#f1f3f5;padding:0 3px;border-radius:3px}',
  '.legend{font-size:12px;color:#5f6b7a}.key{display:inline-block;width:18px;border-top-width:2px;vertical-align:middle;margin:0 4px 0 10px}',
  '.k-window{border-top:2px solid #1f3a5f}.k-hourBefore{border-top:2px dotted #6fa8dc}.k-weekEarlier{border-top:2px dashed #9aa3ad}',
].join('\n');

const RULE_WORDS: Record<Verdict['rule'], string> = {
  component_error_open: 'a component still in error at the end',
  component_down: 'a component down for long enough',
  component_moved: 'a component moved against every baseline',
  alert_fired_recovered: 'an alert that fired and recovered',
  neighbour_error_open: 'a neighbour still in error at the end',
  minor: 'minor: something moved, or an exception made it minor',
  nothing_moved: 'measured, and nothing moved',
  nothing_measured: 'nothing measured',
};
export const ruleWords = (r: Verdict['rule']): string => RULE_WORDS[r] ?? r;

export const NOT_COUNTED_TITLES: Record<NotCountedKind, string> = { flapping: 'Flapping', pre_existing: 'Pre-existing', rule_defect: 'Rule defect' };

/** A link only to an http(s) address: a stored URL that says javascript: stays text. */
const link = (url: string | null, label: string) => (url && /^https?:\/\//i.test(url) ? `<a href="${esc(url)}">${esc(label)}</a>` : esc(label));
const chip = (impact: string) => `<span class="chip impact-${esc(impact)}">${esc(impact)}</span>`;
const cell = (s: string, cls = '') => `<td${cls ? ` class="${cls}"` : ''}>${esc(s)}</td>`;
const grid = (head: string[], rows: string[]) => `<table class="grid"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
const notMeasured = (what: string, reason: string) => `<p class="muted">${esc(what)}: not measured (${esc(reason)}).</p>`;

function aiBlock(ai: AiAssessment, verdict: Verdict): string {
  const line = disagreement(verdict, ai);
  const head = line ? `<p class="disagree">${esc(line)}</p>` : '';
  if (ai.status !== 'done') return `${head}<div class="box"><p class="muted">${esc(aiLine(ai))}.</p></div>`;
  const findings = ai.findings.length ? `<ul>${ai.findings.map((f) => `<li><span class="tag">${esc(f.tag)}</span> ${esc(f.text)}</li>`).join('')}</ul>` : '';
  const recs = ai.recommendations.length ? `<h3>Recommendations</h3><ul>${ai.recommendations.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>` : '';
  return `${head}<div class="box"><p>${chip(ai.tier)} <span class="muted">confidence ${Math.round(ai.confidence * 100)} % · ${esc(ai.provider.kind)} ${esc(ai.provider.model)}</span></p>`
    + `<p>${esc(ai.summary)}</p>${findings}${recs}<p class="muted small">The AI assessment sits beside the verdict; it never changes it.</p></div>`;
}

function verdictBlock(v: Verdict): string {
  const matched = v.matched.length ? `<ul>${v.matched.map((m) => `<li>${esc(m.text)}</li>`).join('')}</ul>` : '';
  return `<p class="verdict">${chip(v.impact)} ${esc(v.reason)}</p><p class="muted">Rule: ${esc(ruleWords(v.rule))}.</p>${matched}`;
}

function windowBlock(e: Evidence): string {
  const w = e.window;
  const rows = [
    ['The window', `${at(w.start)} – ${at(w.end)}`, `finished ${at(w.finish)}, then a horizon of ${w.evidenceMinutes} min`],
    ['The hour before', span(w.hourBefore), 'baseline'],
    ['A week earlier', span(w.weekEarlier), 'baseline (the same span, offset 1w)'],
  ].map((r) => `<tr>${r.map((c) => cell(c)).join('')}</tr>`);
  return grid(['Span', 'From – to', ''], rows);
}

function metricsBlock(parts: MetricsPart[], t: Thresholds): string {
  if (parts.length === 0) return notMeasured('RED metrics', 'no metrics source');
  const legend = `<p class="legend">Charts:${SPARK_LINES.map((l) => `<span class="key k-${l.key}"></span>${esc(l.label)}`).join('')}</p>`;
  return legend + parts.map((p) => {
    const title = `<h3>${esc(p.source.name)}</h3>`;
    if (p.status !== 'measured') return title + notMeasured('RED metrics', p.reason);
    const rows = p.value.services.flatMap((s) => SIGNALS.map((k, i) => {
      const c = s[k];
      const mv = moved(c, k, t) ?? '';
      const name = i === 0 ? `<td rowspan="3"><strong>${esc(s.name)}</strong><br><span class="muted small">${esc(s.role)}</span></td>` : '';
      const chart = s.series ? sparkline(s.series[k], k) : `<span class="muted">${NOT_MEASURED}</span>`;
      return `<tr>${name}${cell(SIGNAL_NAMES[k])}${cell(figure(k, c.window), `num${mv ? ` ${mv}` : ''}`)}${cell(figure(k, c.hourBefore), 'num')}${cell(figure(k, c.weekEarlier), 'num')}<td>${chart}</td></tr>`;
    }));
    return `${title}<p class="muted small">Templates: ${esc(p.value.templates)} · ${p.value.queries} PromQL queries.</p>`
      + grid(['Service', 'Signal', 'Window', 'Hour before', 'Week earlier', 'Chart'], rows);
  }).join('');
}

function transitionsOf(s: SubjectHealth): string {
  if (s.transitions.length === 0) return `<span class="muted">${s.preExisting ? 'in error since before the window' : NOT_MEASURED}</span>`;
  const names = new Map(s.alerts.map((a) => [a.fingerprint, a.label]));
  return s.transitions.map((t) => `${esc(atSecond(t.at))} ${esc(t.state)} · ${esc(names.get(t.fingerprint) ?? `${s.label} · ${t.alertname}`)}`).join('<br>');
}

function alertsBlock(part: AlertsPart): string {
  if (part.status !== 'measured') return notMeasured('Alerts', part.reason);
  const subjects = part.value.subjects;
  if (subjects.length === 0) return '<p class="muted">No alert of the blast radius fired or recovered in the window.</p>';
  const rows = subjects.map((s) => `<tr><td><strong>${esc(s.label)}</strong><br><span class="muted small">${esc(s.role)}</span></td>`
    + `${cell(String(s.enteredError), 'num')}${cell(s.openAtEnd ? 'yes' : 'no')}${cell(`${Math.round(s.downMinutes)} min`, 'num')}${cell(s.preExisting ? 'yes' : 'no')}<td class="small">${transitionsOf(s)}</td></tr>`);
  return grid(['Subject', 'Entered error', 'Open at end', 'Down', 'Pre-existing', 'Transitions'], rows)
    + (part.value.truncated ? '<p class="muted small">The window held more transitions than the report keeps; the first ones are shown.</p>' : '');
}

function logsBlock(parts: LogsPart[]): string {
  if (parts.length === 0) return notMeasured('Logs', 'no log source');
  return parts.map((p) => {
    const title = `<h3>${esc(p.source.name)}</h3>`;
    if (p.status !== 'measured') return title + notMeasured('Logs', p.reason);
    const v = p.value;
    const volume = grid(['Records', 'Window', 'Hour before', 'Week earlier'], [
      `<tr>${cell('all levels')}${cell(count(v.volume.window), 'num')}${cell(count(v.volume.hourBefore), 'num')}${cell(count(v.volume.weekEarlier), 'num')}</tr>`,
      `<tr>${cell('errors')}${cell(count(v.errors.window), 'num')}${cell(count(v.errors.hourBefore), 'num')}${cell(count(v.errors.weekEarlier), 'num')}</tr>`,
    ]);
    const fps = v.fingerprints.length === 0 ? '<p class="muted">No error messages in the window.</p>' : grid(['Error message (masked)', 'Window', 'Hour before', 'Week earlier', 'Sample'],
      v.fingerprints.map((f) => `<tr><td><code>${esc(f.template)}</code>${f.isNew ? ' <span class="new">new</span>' : ''}${f.services.length ? `<br><span class="muted small">${esc(f.services.join(', '))}</span>` : ''}</td>`
        + `${cell(count(f.counts.window), 'num')}${cell(count(f.counts.hourBefore), 'num')}${cell(count(f.counts.weekEarlier), 'num')}<td class="small">${esc(f.sample)}</td></tr>`));
    return title + volume + fps;
  }).join('');
}

function notCountedBlock(v: Verdict): string {
  if (v.notCounted.length === 0) return '<p class="muted">Nothing: no flapping, pre-existing or rule-defect subject.</p>';
  return `<ul>${v.notCounted.map((n) => `<li><strong>${esc(NOT_COUNTED_TITLES[n.kind])}:</strong> ${esc(n.text)}</li>`).join('')}</ul>`;
}

export const NO_VALIDATION_PLAN = 'No validation plan was registered for this change.';
const STATE_CLASS = { pass: 'better', fail: 'worse', not_observed: 'muted' } as const;

function validationBlock(v: ValidationPart | null): string {
  if (v === null) return `<p class="muted">${NO_VALIDATION_PLAN}</p>`;
  const rows = v.items.map((i) => `<tr><td><strong>${esc(i.id)}</strong></td>${cell(i.target)}<td>${esc(i.check)}<br><code>${esc(i.read)}</code></td>${cell(expectedWords(i))}`
    + `${cell(stateWords(i.row?.state), i.row ? STATE_CLASS[i.row.state] ?? '' : 'muted')}${cell(i.row?.detail ?? NOT_MEASURED, 'small')}</tr>`);
  return `<p class="verdict">${esc(validationLine(v))}</p>${grid(['Item', 'Target', 'Check', 'Expected', 'State', 'Detail'], rows)}`;
}

function governanceBlock(g: GovernancePart): string {
  const captures = g.beforeState.captures.length ? `<ul>${g.beforeState.captures.map((c) => `<li>${esc(captureLine(c))}</li>`).join('')}</ul>` : '';
  return `<p>${esc(beforeStateLine(g.beforeState))}</p>${captures}${rollbackLines(g.rollback).map((l) => `<p>${esc(l)}</p>`).join('')}`;
}

function reviewBlock(r: ReviewPart): string {
  const line = `<p${r.review ? '' : ' class="muted"'}>${esc(reviewLine(r))}</p>`;
  if (!r.review) return line;
  const v = r.review;
  const para = (title: string, text: string) => (text ? `<p><strong>${esc(title)}:</strong> ${esc(text)}</p>` : '');
  const followUps = v.followUps.length
    ? `<p><strong>Follow-ups:</strong></p><ul>${v.followUps.map((f) => `<li>${esc(followUpLine(f))}</li>`).join('')}</ul>`
    : '<p class="muted">No follow-ups.</p>';
  return `${line}${para('What happened', v.summary)}${para('Cause', v.cause)}${para('What went well', v.whatWentWell)}${followUps}`;
}

/** One report version as HTML: the same input, the same bytes. */
export function renderHtml({ version, createdAt, evidence: e, verdict, ai }: ReportInput): string {
  const c = e.change;
  const ticket = c.ticket ? ` · ticket ${link(c.ticket.url, c.ticket.key)}` : '';
  const components = c.components.map((x) => x.name).join(', ') || NOT_MEASURED;
  const mail = e.mailConfigured ? '' : '<p class="disagree">This server has no SMTP configured: this report was not mailed.</p>';
  const body = [
    `<h1>${esc(c.title)}</h1>`,
    `<p class="muted">${esc(c.displayId)} · ${esc(c.kind)} · outcome ${esc(c.outcome ?? NOT_MEASURED)}${ticket} · report version ${version} · ${esc(at(createdAt))}</p>`,
    `<p class="muted">${esc(registeredByLine(c.registeredBy))} · components: ${esc(components)}</p>`,
    mail,
    '<h2>Verdict</h2>', verdictBlock(verdict),
    '<h2>AI assessment</h2>', aiBlock(ai, verdict),
    // Reports collected before validation and rollbacks existed have neither part: no section.
    ...(e.validation === undefined ? [] : ['<h2>Validation</h2>', validationBlock(e.validation)]),
    ...(e.governance === undefined ? [] : ['<h2>Before-state and rollback</h2>', governanceBlock(e.governance)]),
    ...(e.review === undefined ? [] : ['<h2>Post-implementation review</h2>', reviewBlock(e.review)]),
    '<h2>Window and baselines</h2>', windowBlock(e),
    '<h2>RED metrics</h2>', metricsBlock(e.metrics, e.thresholds),
    '<h2>Alerts and transitions</h2>', alertsBlock(e.alerts),
    '<h2>Logs</h2>', logsBlock(e.logs),
    '<h2>Not counted by the verdict</h2>', notCountedBlock(verdict),
    `<p class="muted small">Evidence collected ${esc(at(e.collectedAt))}. ${link(c.link, 'View the report in changeledger')}.</p>`,
  ].join('\n');
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${esc(`${c.displayId} · ${c.title} · report v${version}`)}</title><style>${STYLE}</style></head>`
    + `<body><table class="page" role="presentation" cellpadding="0" cellspacing="0"><tbody><tr><td>\n${body}\n</td></tr></tbody></table></body></html>\n`;
}
