/**
 * The AI assessment's limits, named once with the spec's numbers: the report and its e-mail never
 * wait longer than the budget for a model, and an organisation asks at most the cap an hour.
 */

/** The spec's "about two minutes": the whole ask, name resolution to the last byte of the answer. */
export const AI_BUDGET_MS = 120_000;

/** Assessments per organisation per rolling hour (counted in ai_assessments). */
export const AI_HOURLY_CAP = 30;
export const AI_CAP_WINDOW_MS = 3_600_000;

/** What the model may write back: enough for a summary, a few findings and recommendations. */
export const AI_MAX_ANSWER_TOKENS = 1_500;

/** The prompt's log part: the most frequent fingerprints of each source, their samples cut short. */
export const AI_MAX_FINGERPRINTS = 20;
export const AI_MAX_SAMPLE_CHARS = 500;

/** The answer's own bounds, so one model cannot fill a report page. */
export const AI_MAX_SUMMARY_CHARS = 2_000;
export const AI_MAX_FINDINGS = 20;
export const AI_MAX_RECOMMENDATIONS = 10;
export const AI_MAX_ITEM_CHARS = 1_000;

/** Where each kind of provider is when the URL is left out. */
export const DEFAULT_AI_URLS = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' } as const;

/** The Messages API version we speak (the header every request must carry). */
export const ANTHROPIC_VERSION = '2023-06-01';
