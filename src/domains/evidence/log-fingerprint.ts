import { scrubSecrets } from '../../platform/scrub.js';

/**
 * A log message's template: the message with what changes from one occurrence to the next
 * (numbers, UUIDs, hex ids, addresses, quoted values, timestamps) masked, so that one error
 * logged ten thousand times with ten thousand order ids counts as one fingerprint. Secrets are
 * scrubbed first: a template is stored, shown in the report and given to the AI assessment, and
 * "token=<value>" would otherwise make one template per token. Pure.
 */

/** The longest template we keep: a stack trace's first lines say what it is. */
export const MAX_TEMPLATE_LENGTH = 300;

/** Mask tokens, each a word a reader understands in the report. */
export const MASKS = { timestamp: '<ts>', uuid: '<uuid>', ip: '<ip>', hex: '<hex>', number: '<n>', quoted: '<q>', email: '<email>', url: '<url>' } as const;

type Rule = [RegExp, string];

/**
 * In order: the wide shapes first (a timestamp holds numbers, a UUID holds hex, a URL holds all
 * of them), so that each is masked whole and not in pieces.
 */
const RULES: Rule[] = [
  // ISO 8601 / RFC 3339 and the common "2024-05-01 12:00:00,123" form, with an optional zone.
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, MASKS.timestamp],
  // Syslog / nginx / Apache: "May  1 12:00:00", "01/May/2024:12:00:00 +0000".
  [/\b\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2}(?: [+-]\d{4})?/g, MASKS.timestamp],
  [/\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} \d{2}:\d{2}:\d{2}\b/g, MASKS.timestamp],
  [/\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, MASKS.timestamp],
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, MASKS.url],
  [/\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g, MASKS.email],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, MASKS.uuid],
  // IPv4 with an optional port, and IPv6 written with :: or in full (so that "12:30" stays a time).
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b/g, MASKS.ip],
  [/(?<![\w:])(?=[0-9a-f:]*::|(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4})[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?![\w:])/gi, MASKS.ip],
  // "quoted values" and 'quoted values': what a message quotes is data, not its template.
  [/"(?:[^"\\]|\\.)*"/g, MASKS.quoted],
  [/(?<![A-Za-z0-9])'(?:[^'\\]|\\.)*'(?![A-Za-z0-9])/g, MASKS.quoted],
  // 0x-prefixed hex, and hex ids of 6+ digits that hold at least one digit (trace ids, hashes, commits).
  [/\b0x[0-9a-f]+\b/gi, MASKS.hex],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}\b/gi, MASKS.hex],
  // Numbers, also inside ids such as order-12345 or pod-7f9c (what remains after hex), with units kept: 250ms → <n>ms.
  [/(?<![A-Za-z])[-+]?\d+(?:\.\d+)?/g, MASKS.number],
];

/** The message template of one log message. */
export function maskMessage(text: string): string {
  let out = scrubSecrets(text.length > MAX_TEMPLATE_LENGTH * 4 ? text.slice(0, MAX_TEMPLATE_LENGTH * 4) : text);
  for (const [re, mask] of RULES) out = out.replace(re, mask);
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > MAX_TEMPLATE_LENGTH ? `${out.slice(0, MAX_TEMPLATE_LENGTH)}…` : out;
}
