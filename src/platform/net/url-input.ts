import { invalid } from '../errors.js';
import type { LiteralJudgement } from './outbound.js';

/**
 * An http(s) URL that can ever be reached, by the judgement given (a destination's, an
 * Alertmanager's, a change source's API). In platform so that domains of one level (alerts,
 * observed) share the one rule instead of each keeping a copy.
 */
export function checkUrl(field: string, raw: string, judge: (url: string) => LiteralJudgement): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalid(field, 'is not a URL', raw);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid(field, 'must be an http or https URL', raw);
  const j = judge(raw);
  if (j.verdict === 'refused') throw invalid(field, `can never be reached: ${j.what}`);
  return u;
}
