import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { AiFindingTag, Impact } from './evidence-types.js';
import { AI_MAX_FINDINGS, AI_MAX_ITEM_CHARS, AI_MAX_RECOMMENDATIONS, AI_MAX_SUMMARY_CHARS } from './ai-limits.js';

/**
 * The model's answer, checked before anything of it reaches a report: the tiers are the verdict's
 * words, the finding tags the spec's four. A model writes text, so anything else (prose, a partial
 * object, an unknown tier) is refused in words, and the assessment becomes "unavailable".
 */

const TIERS: readonly Impact[] = ['outage', 'significant', 'minor', 'none', 'unknown'];
const TAGS: readonly AiFindingTag[] = ['impact', 'noise', 'pre-existing', 'rule defect'];

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
export const AiAnswerSchema = Type.Object({
  tier: Type.Union(TIERS.map((t) => Type.Literal(t))),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  summary: Text(AI_MAX_SUMMARY_CHARS),
  findings: Type.Array(Type.Object({ tag: Type.Union(TAGS.map((t) => Type.Literal(t))), text: Text(AI_MAX_ITEM_CHARS) }), { maxItems: AI_MAX_FINDINGS }),
  recommendations: Type.Array(Text(AI_MAX_ITEM_CHARS), { maxItems: AI_MAX_RECOMMENDATIONS }),
});
export type AiAnswer = Static<typeof AiAnswerSchema>;

export type ParsedAnswer = { ok: true; answer: AiAnswer } | { ok: false; reason: string };

/**
 * Models asked for JSON still often wrap it in a ```json fence (Anthropic has no JSON mode): one
 * fence around the whole answer is taken off. Nothing else is repaired.
 */
function unfenced(text: string): string {
  const t = text.trim();
  const m = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(t);
  return m ? m[1]!.trim() : t;
}

/** A path such as /findings/0/tag in words: "findings 1 tag". */
const where = (path: string) => path.split('/').filter(Boolean).map((p) => (/^\d+$/.test(p) ? String(Number(p) + 1) : p)).join(' ');

/** What each field must be, in words (TypeBox's own messages speak of schemas, not of the answer). */
const EXPECTED: Record<string, string> = {
  tier: `must be one of ${TIERS.join(', ')}`,
  confidence: 'must be a number from 0 to 1',
  summary: `must be a text of 1 to ${AI_MAX_SUMMARY_CHARS} characters`,
  findings: `must be a list of at most ${AI_MAX_FINDINGS} findings {tag, text}`,
  tag: `must be one of ${TAGS.join(', ')}`,
  text: `must be a text of 1 to ${AI_MAX_ITEM_CHARS} characters`,
  recommendations: `must be a list of at most ${AI_MAX_RECOMMENDATIONS} texts of 1 to ${AI_MAX_ITEM_CHARS} characters`,
};

function problemOf(o: Record<string, unknown>): string {
  for (const key of ['tier', 'confidence', 'summary', 'findings', 'recommendations']) if (!(key in o)) return `${key} is missing`;
  const first = [...Value.Errors(AiAnswerSchema, o)][0];
  const path = first?.instancePath ?? '';
  const segments = path.split('/').filter(Boolean);
  const last = [...segments].reverse().find((p) => !/^\d+$/.test(p)) ?? '';
  const expected = EXPECTED[last] ?? (first?.message ?? 'does not match');
  return `${where(path) || 'the answer'} ${expected}`;
}

export function parseAnswer(text: string): ParsedAnswer {
  let value: unknown;
  try {
    value = JSON.parse(unfenced(text));
  } catch {
    return { ok: false, reason: 'the model’s answer was not JSON' };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'the model’s answer was not a JSON object' };
  const o = value as Record<string, unknown>;
  // A confidence given as a percentage (85) is common: read it as 0.85 rather than refuse it.
  if (typeof o.confidence === 'number' && o.confidence > 1 && o.confidence <= 100) o.confidence = o.confidence / 100;
  if (typeof o.tier === 'string') o.tier = o.tier.trim().toLowerCase();
  if (!Value.Check(AiAnswerSchema, o)) return { ok: false, reason: `the model’s answer was not the assessment asked for: ${problemOf(o)}` };
  const answer = Value.Clean(AiAnswerSchema, Value.Clone(o)) as AiAnswer;
  return { ok: true, answer };
}
