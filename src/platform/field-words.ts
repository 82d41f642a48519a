/**
 * The one way a refused field is worded for a person: "<label> <problem>", where the label is the
 * field as a form labels it. Labels come from the request schema (a `title` on the property, or on
 * an array's items for "Recipient 1"); without one, a field's name is turned into words
 * (`maxDurationMinutes` → "Max duration minutes", `documents.2` → "Document 3"). The dotted field
 * itself stays in the answer's `field` for programs. No domain words here.
 */

type Schema = Record<string, unknown>;

/** What was wrong with one field: `problem` reads after the label ("is not an e-mail address"). */
export type FieldProblem = { field: string; problem: string; value?: unknown };

/** Words a name spells differently from how we write them. */
const ACRONYMS: Record<string, string> = { email: 'e-mail', url: 'URL', urls: 'URLs', id: 'ID', ids: 'IDs', api: 'API', sdk: 'SDK', sha: 'SHA', http: 'HTTP', yaml: 'YAML', json: 'JSON', gid: 'GID' };

/** `maxDurationMinutes` → "Max duration minutes", `callbackUrl` → "Callback URL". */
export function nameToWords(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').trim().split(/\s+/);
  const text = words.map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase()).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One of a list named by its plural: "Recipients" → "Recipient", "Entries" → "Entry". */
function singular(label: string): string {
  if (/ies$/i.test(label)) return label.replace(/ies$/i, 'y');
  if (/(ss|us)$/i.test(label)) return label;
  return label.replace(/s$/i, '');
}

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The branches a value may take: the schema itself and those of its unions and intersections. */
function branches(s: Schema): Schema[] {
  const out = [s];
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[k])) out.push(...(s[k] as unknown[]).filter(isSchema).flatMap(branches));
  return out;
}

function child(s: Schema | undefined, segment: string): Schema | undefined {
  if (!s) return undefined;
  for (const b of branches(s)) {
    if (/^\d+$/.test(segment) && isSchema(b.items)) return b.items;
    if (isSchema(b.properties) && isSchema(b.properties[segment])) return b.properties[segment];
  }
  return undefined;
}

/** A title on the schema, or on a branch of it (a nullable enum carries its title inside). */
const titleOf = (s: Schema | undefined): string | undefined => (s ? branches(s).map((b) => b.title).find((t): t is string => typeof t === 'string') : undefined);

/** Whether the schema names this field at all (so the handler knows which part of a request it is in). */
export function schemaHas(schema: unknown, field: string): boolean {
  let at: Schema | undefined = isSchema(schema) ? schema : undefined;
  for (const segment of field.split('.')) at = child(at, segment);
  return at !== undefined;
}

/** The field as a person reads it: a list item as its own label and number ("Recipient 1", never "Recipients 0"). */
export function fieldLabel(field: string, schema?: unknown): string {
  // A part is kept when it says something: a titled container, or a list item ("Component 2 › Key").
  // An untitled object only groups its fields (`ticketing.secret` reads "Signing secret").
  const parts: Array<{ text: string; keep: boolean }> = [];
  let at: Schema | undefined = isSchema(schema) ? schema : undefined;
  for (const segment of field.split('.')) {
    const next = child(at, segment);
    if (/^\d+$/.test(segment)) {
      const list = parts.pop()?.text ?? 'Item';
      parts.push({ text: `${titleOf(next) ?? singular(list)} ${Number(segment) + 1}`, keep: true });
    } else {
      if (parts.length && !parts.at(-1)!.keep) parts.pop();
      const title = titleOf(next);
      parts.push({ text: title ?? nameToWords(segment), keep: title !== undefined });
    }
    at = next;
  }
  return parts.map((p) => p.text).join(' › ');
}

/** A list item's label is only a number, so a short text value says which one it is. */
function shown(field: string, value: unknown): string {
  if (!/\.\d+$/.test(field) || typeof value !== 'string' || value === '' || value.length > 60) return '';
  return ` (${value})`;
}

/** "Recipient 1 (bob@) is not an e-mail address", "Title is required". */
export function fieldSentence(p: FieldProblem, schema?: unknown): string {
  const gap = p.problem.startsWith(':') ? '' : ' ';
  return `${fieldLabel(p.field, schema)}${shown(p.field, p.value)}${gap}${p.problem}`;
}

/** JSON Schema types in a person's words. */
const TYPE_WORDS: Record<string, string> = {
  string: 'text', integer: 'a whole number', number: 'a number', boolean: 'true or false', object: 'an object', array: 'a list', null: 'null',
};
export const typeWords = (type: unknown): string => String(type).split(',').map((t) => TYPE_WORDS[t] ?? t).join(' or ');

const FORMAT_WORDS: Record<string, string> = {
  email: 'is not an e-mail address', 'date-time': 'must be a date and time such as 2026-01-31T09:00:00Z', date: 'must be a date such as 2026-01-31',
  uri: 'is not a URL', url: 'is not a URL', uuid: 'is not a UUID',
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The problem an Ajv issue reports, in words that read after the field's label. */
export function schemaProblem(keyword: string | undefined, params: Record<string, unknown> | undefined, message: string | undefined): string {
  const limit = Number(params?.limit);
  switch (keyword) {
    case 'required': return 'is required';
    // An empty text is a field left blank.
    case 'minLength': return limit <= 1 ? 'is required' : `must be at least ${plural(limit, 'character', 'characters')}`;
    case 'maxLength': return `must be at most ${plural(limit, 'character', 'characters')}`;
    case 'minimum': return `must be at least ${limit}`;
    case 'maximum': return `must be at most ${limit}`;
    case 'exclusiveMinimum': return `must be more than ${limit}`;
    case 'exclusiveMaximum': return `must be less than ${limit}`;
    case 'minItems': return `must have at least ${plural(limit, 'entry', 'entries')}`;
    case 'maxItems': return `must have at most ${plural(limit, 'entry', 'entries')}`;
    case 'uniqueItems': return 'must not list the same entry twice';
    case 'type': return `must be ${typeWords(params?.type)}`;
    case 'finite': return 'must be a finite number';
    case 'format': return FORMAT_WORDS[String(params?.format)] ?? `must be a ${String(params?.format)}`;
    case 'pattern': return 'is not in the expected form';
    case 'enum': return Array.isArray(params?.allowedValues) ? `must be one of: ${params.allowedValues.join(', ')}` : 'is not one of the allowed values';
    case 'const': return `must be ${JSON.stringify(params?.allowedValue)}`;
    default: return message ?? 'is invalid';
  }
}

/**
 * A place in an imported file: its list item counted as a person counts ("Document 3"), then the
 * file's own keys as written there (`metadata.name`), which is what its author searches for.
 */
export function filePlace(field: string): string {
  const m = /^([^.]+)\.(\d+)(?:\.(.+))?$/.exec(field);
  if (!m) return field;
  const item = fieldLabel(`${m[1]}.${m[2]}`);
  return m[3] ? `${item}: ${m[3]}` : item;
}
