/**
 * The words every form of the report shares (HTML, text, CSV, the e-mail, the verdict's reasons):
 * one place for how a figure, a signal and a time are written, so the forms never disagree.
 */
import type { AiAssessment, Figure, RedSignal, Span, Verdict } from './evidence-types.js';

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
