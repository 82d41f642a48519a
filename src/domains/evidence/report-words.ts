/**
 * The words every form of the report shares (HTML, text, CSV, the e-mail, the verdict's reasons):
 * one place for how a figure, a signal and a time are written, so the forms never disagree.
 */
import type { AiAssessment, CapturePart, Figure, GovernancePart, RedSignal, ReviewPart, Span, ValidationItemPart, ValidationPart, ValidationState, Verdict } from './evidence-types.js';

/** What the report prints where nobody measured: never 0. */
export const NOT_MEASURED = '—';

export const SIGNAL_NAMES: Record<RedSignal, string> = { rate: 'request rate', errorRatio: 'error ratio', p95: 'p95 latency' };
export const SIGNALS: readonly RedSignal[] = ['rate', 'errorRatio', 'p95'];

const trim = (n: number, digits: number) => Number(n.toFixed(digits)).toString();

/** A RED figure in its unit: req/s, %, ms (s from a second up). */
export function figure(signal: RedSignal, v: Figure): string {
  if (v === null || !Number.isFinite(v)) return NOT_MEASURED;
  switch (signal) {
    case 'rate':
      return `${trim(v, v >= 100 ? 0 : 2)} req/s`;
    case 'errorRatio':
      return `${trim(v * 100, 2)} %`;
    case 'p95':
      return v >= 1 ? `${trim(v, 2)} s` : `${trim(v * 1000, 0)} ms`;
  }
}

/** A count, or "—". */
export const count = (v: Figure): string => (v === null || !Number.isFinite(v) ? NOT_MEASURED : String(v));

/** An instant to the minute, UTC. */
export const at = (iso: string | null | undefined): string => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : NOT_MEASURED);
/** An instant to the second, UTC (transitions). */
export const atSecond = (iso: string | null | undefined): string => (iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : NOT_MEASURED);
export const span = (s: Span): string => `${at(s.start)} – ${at(s.end)}`;

const AI_OFF = 'AI assessment is off for this organisation';
export const NO_AI_PROVIDER = 'No AI provider is assigned to change assessment';

/** One line on the AI assessment, whatever its state. */
export function aiLine(ai: AiAssessment): string {
  switch (ai.status) {
    case 'done':
      return `AI ${ai.tier} (confidence ${Math.round(ai.confidence * 100)} %, ${ai.provider.model}): ${ai.summary}`;
    case 'off':
      return AI_OFF;
    case 'no_provider':
      return NO_AI_PROVIDER;
    case 'unavailable':
      return `AI assessment unavailable (${ai.reason})`;
  }
}

/** The report's one-line answer: the rules' impact and reason, and the AI's tier when it gave one. */
export function summaryLine(verdict: Verdict, ai: AiAssessment): string {
  const rules = `Impact ${verdict.impact}: ${verdict.reason}`;
  return ai.status === 'done' ? `${rules} AI: ${ai.tier}.` : rules;
}

/** "Rules significant · AI minor" when the AI gave a tier other than the rules'; else null. */
export function disagreement(verdict: Verdict, ai: AiAssessment): string | null {
  return ai.status === 'done' && ai.tier !== verdict.impact ? `Rules ${verdict.impact} · AI ${ai.tier}` : null;
}

/** Who registered the change: the token and its owner, or the person. */
export function registeredByLine(r: { user: { email: string; name: string | null }; token: { id: string; name: string } | null }): string {
  const who = r.user.name && r.user.name !== r.user.email ? `${r.user.name} <${r.user.email}>` : r.user.email;
  return r.token ? `Registered by token “${r.token.name}” of ${who}` : `Registered by ${who}`;
}

const STATE_WORDS: Record<ValidationState, string> = { pass: 'pass', fail: 'fail', not_observed: 'not observed' };
/** A validation row's state in words; an item without a row was not checked yet. */
export const stateWords = (s: ValidationState | null | undefined): string => (s ? STATE_WORDS[s] ?? s : 'not checked yet');

/** What an item expects: the HTTP status for an http item, the value for a PromQL one. */
export function expectedWords(i: Pick<ValidationItemPart, 'check' | 'expected'>): string {
  const v = typeof i.expected.value === 'string' ? JSON.stringify(i.expected.value) : String(i.expected.value);
  return `${i.check === 'http' ? 'status' : 'value'} ${i.expected.op} ${v}`;
}

/** The plan's result in one line, or that it was not checked yet and when it is due. */
export function validationLine(v: ValidationPart): string {
  if (!v.checkedAt) return `Not checked yet: ${v.dueAt ? `due ${atSecond(v.dueAt)}` : 'due 30 s after the change finishes'}.`;
  return `Result ${v.reason ?? v.result ?? NOT_MEASURED}; checked ${atSecond(v.checkedAt)}.`;
}

const METHOD_WORDS: Record<CapturePart['method'], string> = { previous_version: 'previous version', previous_commit: 'previous commit', base_commit: 'base commit', artifact: 'artifact' };
const PRESTATE_WORDS: Record<CapturePart['prestateStatus'], string> = { present: 'existed before', absent: 'did not exist before', unknown: 'whether it existed before is unknown' };

/** One capture: what it names, how complete, whether it can be put back, when and by whom. */
export function captureLine(c: CapturePart): string {
  const what = `${METHOD_WORDS[c.method] ?? c.method}${c.reference ? ` ${c.reference}` : ''}${c.method === 'artifact' ? ` (${c.sizeBytes} bytes)` : ''}`;
  return `${what}: ${c.completeness}, ${PRESTATE_WORDS[c.prestateStatus] ?? c.prestateStatus}, ${c.restorable ? 'restorable' : 'not restorable'}; captured ${at(c.capturedAt)} by ${c.capturedBy}`;
}

/** The before-state in one line: how many captures, and the digest the approvals bound. */
export function beforeStateLine(b: GovernancePart['beforeState']): string {
  if (b.captures.length === 0) return 'No before-state was captured.';
  return `Before-state: ${b.captures.length} ${b.captures.length === 1 ? 'capture' : 'captures'}, digest ${b.digest ?? NOT_MEASURED}.`;
}

const releasedWords = (r: GovernancePart['rollback']['releasedBy']): string =>
  r.length ? ` by ${r.map((x) => (x.kind === 'sweep' ? 'the rollback sweep' : x.email ?? 'a person')).join(' and ')}` : '';

/** What became of the rollback at collection, and the sweep's decision when it made one. */
export function rollbackLines(r: GovernancePart['rollback']): string[] {
  const requested = `requested ${at(r.requestedAt)}${releasedWords(r.releasedBy)}`;
  const state = r.state === 'requested' ? `Rollback ${requested}; not completed when the evidence was collected.`
    : r.state === 'rolled_back' ? `Rolled back ${at(r.completedAt)} (${requested}).`
      : r.state === 'failed' ? `Rollback failed ${at(r.completedAt)} (${requested}).`
        : 'No rollback was requested.';
  if (!r.decision) return [state];
  // The sweep's reason starts with its decision ("escalate: …"); an older one may not.
  const { decision, reason } = r.decision;
  return [state, `Rollback sweep: ${reason.startsWith(`${decision}:`) ? reason : `${decision}: ${reason}`} (${at(r.decision.at)}).`];
}

/** Whether a review is needed and whether one is written, in one line. */
export function reviewLine(r: ReviewPart): string {
  const why = r.required ? `A review is required (${r.reasons.join('; ')})` : 'No review is required';
  if (!r.review) return r.required ? `${why}, and none has been written yet.` : `${why}, and none was written.`;
  return `${why}. Version ${r.review.version}, written by ${r.review.author} ${at(r.review.createdAt)}.`;
}

/** One follow-up: what, who, by when. */
export const followUpLine = (f: { text: string; owner: string; due: string }): string => `${f.text} (owner ${f.owner}, due ${f.due})`;
