/**
 * The report as plain text: the same sections as report.html, for report.txt and the e-mail's
 * text alternative. Pure and deterministic; every null prints "—".
 */
import type { AiAssessment, AlertsPart, Evidence, GovernancePart, LogsPart, MetricsPart, ReviewPart, SubjectHealth, ValidationPart, Verdict } from './evidence-types.js';
import { NO_VALIDATION_PLAN, NOT_COUNTED_TITLES, ruleWords } from './report-html.js';
import type { ReportInput } from './report-input.js';
import {
  aiLine, at, atSecond, beforeStateLine, captureLine, count, disagreement, expectedWords, figure, NOT_MEASURED, registeredByLine, rollbackLines,
  SIGNAL_NAMES, SIGNALS, span, stateWords, validationLine, reviewLine, followUpLine,
} from './report-words.js';

/** Text that came from outside stays on its line: a newline in a title must not forge a section. */
const one = (s: string) => s.replace(/[\r\n\u2028\u2029]+/g, ' ');
const heading = (s: string) => ['', s, '-'.repeat(s.length)];
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

function verdictLines(v: Verdict, ai: AiAssessment): string[] {
  const out = [`Impact ${v.impact}: ${one(v.reason)}`, `Rule: ${ruleWords(v.rule)}.`, ...v.matched.map((m) => `  - ${one(m.text)}`)];
  const line = disagreement(v, ai);
  if (line) out.push('', line);
  return out;
}

function aiLines(ai: AiAssessment): string[] {
  if (ai.status !== 'done') return [`${one(aiLine(ai))}.`];
  return [
    `AI ${ai.tier}, confidence ${Math.round(ai.confidence * 100)} % (${ai.provider.kind} ${one(ai.provider.model)})`,
    one(ai.summary),
    ...ai.findings.map((f) => `  - [${f.tag}] ${one(f.text)}`),
    ...(ai.recommendations.length ? ['Recommendations:', ...ai.recommendations.map((r) => `  - ${one(r)}`)] : []),
    'The AI assessment sits beside the verdict; it never changes it.',
  ];
}

function metricsLines(parts: MetricsPart[]): string[] {
  if (parts.length === 0) return ['RED metrics: not measured (no metrics source).'];
  return parts.flatMap((p) => {
    if (p.status !== 'measured') return [`${one(p.source.name)}: not measured (${one(p.reason)}).`];
    return [`${one(p.source.name)} (templates ${one(p.value.templates)}, ${p.value.queries} queries)`, `  ${pad('service · signal', 40)} ${pad('window', 12)} ${pad('hour before', 12)} week earlier`,
      ...p.value.services.flatMap((s) => SIGNALS.map((k) => `  ${pad(`${one(s.name)} (${s.role}) · ${SIGNAL_NAMES[k]}`, 40)} ${pad(figure(k, s[k].window), 12)} ${pad(figure(k, s[k].hourBefore), 12)} ${figure(k, s[k].weekEarlier)}`))];
  });
}

function subjectLines(s: SubjectHealth): string[] {
  const names = new Map(s.alerts.map((a) => [a.fingerprint, a.label]));
  const head = `${one(s.label)} (${s.role}): entered error ${s.enteredError}×, open at end ${s.openAtEnd ? 'yes' : 'no'}, down ${Math.round(s.downMinutes)} min${s.preExisting ? ', pre-existing' : ''}`;
  return [head, ...s.transitions.map((t) => `    ${atSecond(t.at)} ${t.state} · ${one(names.get(t.fingerprint) ?? `${s.label} · ${t.alertname}`)}`)];
}

function alertsLines(part: AlertsPart): string[] {
  if (part.status !== 'measured') return [`Alerts: not measured (${one(part.reason)}).`];
  if (part.value.subjects.length === 0) return ['No alert of the blast radius fired or recovered in the window.'];
  return [...part.value.subjects.flatMap(subjectLines), ...(part.value.truncated ? ['(more transitions than the report keeps; the first ones are shown)'] : [])];
}

function logsLines(parts: LogsPart[]): string[] {
  if (parts.length === 0) return ['Logs: not measured (no log source).'];
  return parts.flatMap((p) => {
    if (p.status !== 'measured') return [`${one(p.source.name)}: not measured (${one(p.reason)}).`];
    const v = p.value;
    return [
      `${one(p.source.name)}: records ${count(v.volume.window)} (hour before ${count(v.volume.hourBefore)}, week earlier ${count(v.volume.weekEarlier)}); errors ${count(v.errors.window)} (hour before ${count(v.errors.hourBefore)}, week earlier ${count(v.errors.weekEarlier)})`,
      ...v.fingerprints.map((f) => `  ${f.isNew ? '[new] ' : ''}${one(f.template)} — ${count(f.counts.window)} (hour before ${count(f.counts.hourBefore)}, week earlier ${count(f.counts.weekEarlier)}); e.g. ${one(f.sample)}`),
    ];
  });
}

function validationLines(v: ValidationPart | null): string[] {
  if (v === null) return [NO_VALIDATION_PLAN];
  return [one(validationLine(v)), ...v.items.map((i) => `  - ${one(i.id)} · ${one(i.target)} · ${i.check} ${one(i.read)} · expected ${one(expectedWords(i))}: ${stateWords(i.row?.state)}${i.row ? ` (${one(i.row.detail)})` : ''}`)];
}

function governanceLines(g: GovernancePart): string[] {
  return [
    one(beforeStateLine(g.beforeState)), ...g.beforeState.captures.map((c) => `  - ${one(captureLine(c))}`),
    ...rollbackLines(g.rollback).map(one),
  ];
}

function reviewLines(r: ReviewPart): string[] {
  const v = r.review;
  if (!v) return [one(reviewLine(r))];
  return [
    one(reviewLine(r)), `What happened: ${one(v.summary)}`,
    ...(v.cause ? [`Cause: ${one(v.cause)}`] : []), ...(v.whatWentWell ? [`What went well: ${one(v.whatWentWell)}`] : []),
    ...(v.followUps.length ? ['Follow-ups:', ...v.followUps.map((f) => `  - ${one(followUpLine(f))}`)] : ['No follow-ups.']),
  ];
}

function windowLines(e: Evidence): string[] {
  const w = e.window;
  return [`The window: ${at(w.start)} – ${at(w.end)} (finished ${at(w.finish)}, horizon ${w.evidenceMinutes} min)`, `The hour before: ${span(w.hourBefore)}`, `A week earlier: ${span(w.weekEarlier)}`];
}

/** One report version as text, lines ending in \n. */
export function renderText({ version, createdAt, evidence: e, verdict, ai }: ReportInput): string {
  const c = e.change;
  const lines = [
    `${one(c.title)}`,
    `${one(c.displayId)} · ${one(c.kind)} · outcome ${one(c.outcome ?? NOT_MEASURED)}${c.ticket ? ` · ticket ${one(c.ticket.key)}` : ''} · report version ${version} · ${at(createdAt)}`,
    one(registeredByLine(c.registeredBy)),
    `Components: ${c.components.map((x) => one(x.name)).join(', ') || NOT_MEASURED}`,
    ...(e.mailConfigured ? [] : ['', 'This server has no SMTP configured: this report was not mailed.']),
    ...heading('Verdict'), ...verdictLines(verdict, ai),
    ...heading('AI assessment'), ...aiLines(ai),
    ...(e.validation === undefined ? [] : [...heading('Validation'), ...validationLines(e.validation)]),
    ...(e.governance === undefined ? [] : [...heading('Before-state and rollback'), ...governanceLines(e.governance)]),
    ...(e.review === undefined ? [] : [...heading('Post-implementation review'), ...reviewLines(e.review)]),
    ...heading('Window and baselines'), ...windowLines(e),
    ...heading('RED metrics'), ...metricsLines(e.metrics),
    ...heading('Alerts and transitions'), ...alertsLines(e.alerts),
    ...heading('Logs'), ...logsLines(e.logs),
    ...heading('Not counted by the verdict'),
    ...(verdict.notCounted.length ? verdict.notCounted.map((n) => `  - ${NOT_COUNTED_TITLES[n.kind]}: ${one(n.text)}`) : ['Nothing: no flapping, pre-existing or rule-defect subject.']),
    '', `Evidence collected ${at(e.collectedAt)}.`, `View the report: ${one(c.link)}`,
  ];
  return `${lines.join('\n')}\n`;
}
