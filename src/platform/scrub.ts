/**
 * Secrets out of text written by someone else's program before we store or show it: log lines in
 * a report or an AI prompt, the diffs and request parameters of observed changes. We cannot know
 * the text's format, so each rule below matches a
 * shape a credential takes in the wild and keeps what tells a reader what happened (the key's
 * name, the URL's host, the scheme) while the value becomes REDACTED. Pure; no I/O.
 */

export const REDACTED = '[redacted]';

/** Names whose value is a secret in `name=value`, `name: value` and `"name": "value"` forms. */
const SECRET_NAMES = String.raw`(?:[A-Za-z0-9]+[_.-])*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_.-]?key|apikey|access[_.-]?key(?:[_.-]?id)?|secret[_.-]?key|private[_.-]?key|client[_.-]?secret|auth(?:orization)?|credentials?|session(?:[_.-]?id)?|cookie|signature|sig)`;

type Rule = { name: string; pattern: RegExp; replace: (m: string, ...groups: string[]) => string };

/**
 * The order matters: the whole-value shapes (a PEM block, an Authorization header) go first, so
 * that the key=value rule does not stop half way through them.
 */
const RULES: Rule[] = [
  {
    name: 'pem private key',
    pattern: /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g,
    replace: () => `-----BEGIN PRIVATE KEY----- ${REDACTED} -----END PRIVATE KEY-----`,
  },
  {
    // Our own API tokens: clt_<8-character id>_<43-character secret> (platform/crypto/tokens.ts).
    name: 'changeledger token',
    pattern: /\bclt_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    replace: () => `clt_${REDACTED}`,
  },
  {
    // Our callback secrets: cs_<43-character secret> (changes' change-service.ts).
    name: 'changeledger callback secret',
    pattern: /\bcs_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    replace: () => `cs_${REDACTED}`,
  },
  {
    // header.payload.signature, base64url; the header of every JWT starts {" → eyJ.
    name: 'jwt',
    pattern: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
    replace: () => `${REDACTED}(jwt)`,
  },
  {
    // A credential after its scheme; "Basic validation failed" is not one, so the value must
    // hold a digit or be long, as generated credentials do.
    name: 'authorization scheme',
    pattern: /\b(Bearer|Basic|Token|Digest|Negotiate|ApiKey)(\s+)(?:(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{6,}|[A-Za-z0-9._~+/=-]{20,})/gi,
    replace: (_m, scheme: string, space: string) => `${scheme}${space}${REDACTED}`,
  },
  {
    // scheme://user:password@host — the password goes, the user and host stay.
    name: 'password in url',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:@/]*):([^\s@/]+)@/gi,
    replace: (_m, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`,
  },
  {
    // AWS access key ids (AKIA long-term, ASIA temporary, and the other documented prefixes).
    name: 'aws access key id',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA)[A-Z0-9]{16}\b/g,
    replace: () => `${REDACTED}(aws-key)`,
  },
  {
    // Provider keys that read as one word: GitHub, Slack, OpenAI / Anthropic, Google.
    name: 'provider key',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abposr]-[A-Za-z0-9-]{10,}|sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}|AIza[A-Za-z0-9_-]{35})/g,
    replace: () => REDACTED,
  },
  {
    // "password": "value" in JSON, or 'password': 'value'.
    name: 'quoted key value',
    pattern: new RegExp(String.raw`(["'])(${SECRET_NAMES})\1(\s*:\s*)(["'])(?:\\.|(?!\4).)*\4`, 'gi'),
    replace: (_m, q: string, key: string, sep: string, vq: string) => `${q}${key}${q}${sep}${vq}${REDACTED}${vq}`,
  },
  {
    // password=value, api_key: value, X-Api-Key=value, aws_secret_access_key = value, token="value".
    name: 'key value',
    pattern: new RegExp(String.raw`\b(${SECRET_NAMES})(\s*[=:]\s*)(?![^\s,;&"'}\])]*\[redacted|(?:Bearer|Basic|Token|Digest|Negotiate|ApiKey)\s+\[redacted\])("[^"]*"|'[^']*'|[^\s,;&"'}\])]+)`, 'gi'),
    replace: (_m, key: string, sep: string, value: string) => {
      const q = value.startsWith('"') || value.startsWith("'") ? value[0]! : '';
      return `${key}${sep}${q}${REDACTED}${q}`;
    },
  },
];

/** The text with every credential-shaped value replaced by [redacted]. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const r of RULES) out = out.replace(r.pattern, r.replace as (m: string, ...g: unknown[]) => string);
  return out;
}

/** What ends a text that was cut to its limit. */
export const CUT_MARK = '…(cut)';

/** The text as is when it fits in max characters, else its start and CUT_MARK, max in all. */
export function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - CUT_MARK.length))}${CUT_MARK}`;
}

const SECRET_KEY = new RegExp(`^${SECRET_NAMES}$`, 'i');

/**
 * A JSON value (request parameters) with every string scrubbed, and the string or number under a
 * secret-named key replaced whole: `{"password": "x"}` has no `password=` shape for the text rules.
 */
export function scrubJson(value: unknown): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (Array.isArray(value)) return value.map(scrubJson);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) && (typeof v === 'string' || typeof v === 'number') && v !== '' ? REDACTED : scrubJson(v);
  }
  return out;
}
