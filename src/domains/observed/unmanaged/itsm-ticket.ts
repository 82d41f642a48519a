/**
 * Change tickets as ServiceNow and Jira post them, read into one Ticket. Pure: no clock, no I/O.
 * Anything we cannot read is a 400 naming the field as the sending tool spells it (`start_date`,
 * `issue.fields.customfield_10015`), since that is the name its administrator searches for.
 */
import { badRequest, type AppError } from '../../../platform/errors.js';
import { isObj, type Obj } from '../sources/standard-fields.js';
import type { ItsmChangeMatch, Ticket } from './unmanaged-types.js';

/** How much of a ticket is kept: a key is refused past its limit, a title is cut. */
export const ITSM_LIMITS = { keyMax: 100, titleMax: 500, itemsMax: 100, itemMax: 200, textMax: 200, urlMax: 2000 } as const;

/** ServiceNow's change_request states (the model since Geneva), by their stored numbers. */
export const SERVICENOW_STATES: Readonly<Record<string, string>> = {
  '-5': 'New', '-4': 'Assess', '-3': 'Authorize', '-2': 'Scheduled', '-1': 'Implement', '0': 'Review', '3': 'Closed', '4': 'Canceled',
};
const STATE_BY_NAME = new Map(Object.values(SERVICENOW_STATES).map((n) => [n.toLowerCase(), n]));

/** ServiceNow's approval choices, from their labels to their stored values. */
const APPROVAL_BY_LABEL: Readonly<Record<string, string>> = {
  'not yet requested': 'not requested', 'not requested': 'not requested', requested: 'requested', approved: 'approved', rejected: 'rejected',
};

const fail = (field: string, problem: string): AppError => badRequest(`${field} ${problem}`, field);

/** Own keys only: a body's `constructor` or `__proto__` is never read as a field. */
const own = (o: Obj, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

/** A value quoted back in a message, short enough to read. */
const shown = (v: string): string => JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);

/** Cut to at most `max` UTF-16 units without leaving half a surrogate pair. */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const t = s.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(t) ? t.slice(0, -1) : t;
}

function limited(t: string, field: string, max: number): string {
  if (t.length > max) throw fail(field, `must be at most ${max} characters (it has ${t.length})`);
  return t;
}

// ——— times ———

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?))?)?$/i;

/**
 * A time in the forms these tools send, as ISO 8601 in UTC: ServiceNow's `2026-12-03 10:00:00`
 * (no zone: UTC, which is how ServiceNow stores it), ISO 8601 with a zone, and Jira's
 * `2026-12-03T10:00:00.000+0000`. A date alone covers its whole day, so a window's end that is a
 * date (a Jira date picker) ends at that day's last millisecond rather than at its first.
 */
export function readTime(text: string, edge: 'start' | 'end'): string | null {
  const m = TIME.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dateOnly = m[4] === undefined;
  const [h, mi, s] = dateOnly ? (edge === 'end' ? [23, 59, 59] : [0, 0, 0]) : [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  const ms = dateOnly ? (edge === 'end' ? 999 : 0) : Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3));
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  let offset = 0;
  const zone = m[8]?.toUpperCase();
  if (zone && zone !== 'Z' && zone !== 'UTC' && zone !== 'GMT') {
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.replace(':', '').slice(3, 5) || '0');
    if (zh > 23 || zm > 59) return null;
    offset = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm);
  }
  // setUTCFullYear, not Date.UTC: the latter reads years below 100 as 19xx.
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d);
  if (at.getUTCMonth() !== mo - 1) return null; // 31 November rolled over into December
  at.setUTCHours(h, mi, s, ms);
  return new Date(at.getTime() - offset * 60_000).toISOString();
}

// ——— item lists ———

/** Gathers a ticket's items: trimmed, first spelling kept, duplicates (case-blind) dropped. */
class Items {
  readonly list: string[] = [];
  private readonly seen = new Set<string>();
  add(raw: string, field: string): void {
    const t = raw.trim();
    if (t === '') return;
    limited(t, field, ITSM_LIMITS.itemMax);
    const k = t.toLowerCase();
    if (this.seen.has(k)) return;
    if (this.list.length >= ITSM_LIMITS.itemsMax) throw fail(field, `brings the ticket past ${ITSM_LIMITS.itemsMax} items, the most one ticket may name`);
    this.seen.add(k);
    this.list.push(t);
  }
  /** A comma-separated list, as ServiceNow's list fields and free-text service fields hold them. */
  addList(raw: string, field: string): void {
    for (const part of raw.split(',')) this.add(part, field);
  }
}

// ——— ServiceNow ———

type Prefer = 'display' | 'value';

/**
 * A ServiceNow field as text: a plain value, or the `{display_value, value, link}` object the Table
 * API sends with sysparm_display_value=all. References and choices read best by their display
 * value (a CI's name, not its sys_id); a date-time must be read by its value, since its display
 * value is in the sending user's own zone and format.
 */
function snValue(v: unknown, field: string, prefer: Prefer): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (!isObj(v)) throw fail(field, 'must be text, or a reference such as {"display_value": "…", "value": "…"}');
  if (!Object.hasOwn(v, 'display_value') && !Object.hasOwn(v, 'value')) throw fail(field, 'must be text, or a reference with a display_value or a value');
  const display = snValue(scalar(own(v, 'display_value'), `${field}.display_value`), `${field}.display_value`, prefer);
  const value = snValue(scalar(own(v, 'value'), `${field}.value`), `${field}.value`, prefer);
  return prefer === 'display' ? (display ?? value) : (value ?? display);
}

/** Inside a reference only text or a number is read: a reference does not nest. */
function scalar(v: unknown, field: string): unknown {
  if (v === undefined || v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
  throw fail(field, 'must be text');
}

const snText = (rec: Obj, name: string, prefer: Prefer): string | null => snValue(own(rec, name), name, prefer);

/**
 * The state by its name. The stored number wins over a display value: it is the same on every
 * instance whatever its language, and whether a ticket is closed must not depend on a translation.
 */
function snState(rec: Obj): string | null {
  const v = own(rec, 'state');
  const code = isObj(v) ? snValue(scalar(own(v, 'value'), 'state.value'), 'state.value', 'value') : null;
  if (code !== null && Object.hasOwn(SERVICENOW_STATES, code)) return SERVICENOW_STATES[code]!;
  const t = snText(rec, 'state', 'display');
  if (t === null) return null;
  limited(t, 'state', ITSM_LIMITS.textMax);
  if (Object.hasOwn(SERVICENOW_STATES, t)) return SERVICENOW_STATES[t]!;
  return STATE_BY_NAME.get(t.toLowerCase()) ?? t;
}

function snTime(rec: Obj, name: string, edge: 'start' | 'end'): string | null {
  const t = snText(rec, name, 'value');
  if (t === null) return null;
  const iso = readTime(t, edge);
  if (iso === null) throw fail(name, `must be a time such as 2026-12-03 10:00:00 (read as UTC), not ${shown(t)}`);
  return iso;
}

/** An http(s) URL, so that a sender cannot plant a javascript: link on a page. */
function httpUrl(v: unknown, field: string): URL | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw fail(field, 'must be a URL such as https://example.service-now.com');
  let u: URL;
  try {
    u = new URL(limited(v.trim(), field, ITSM_LIMITS.urlMax));
  } catch {
    throw fail(field, `is not a URL: ${shown(v)}`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw fail(field, 'must be an http or https URL');
  return u;
}

/**
 * The ticket's page. A `link` to a page is used as sent; a link into the REST API (which is what a
 * Table API record links to) only tells the instance. An instance plus the sys_id makes the page.
 */
function snLink(rec: Obj, outer: Obj, sysId: string | null): string | null {
  const given = httpUrl(own(rec, 'link') ?? own(outer, 'link'), 'link');
  if (given && !given.pathname.includes('/api/now/')) return given.toString();
  const instanceField = [rec, outer].some((o) => own(o, 'instanceUrl') !== undefined) ? 'instanceUrl' : 'instance_url';
  const instance = given ?? httpUrl(own(rec, instanceField) ?? own(outer, instanceField), instanceField);
  if (!instance || sysId === null) return null;
  const base = given ? given.origin : `${instance.origin}${instance.pathname.replace(/\/+$/, '')}`;
  return `${base}/change_request.do?sys_id=${encodeURIComponent(sysId)}`;
}

/** A ServiceNow change_request: the record itself, or the Table API's `{result: {...}}`. */
export function readServiceNowTicket(body: unknown): Ticket {
  if (!isObj(body)) throw fail('body', 'must be a JSON object: a change_request record, or {"result": {...}} as the Table API sends it');
  let rec: Obj = body;
  if (own(body, 'result') !== undefined && own(body, 'number') === undefined) {
    const r = own(body, 'result');
    if (!isObj(r)) throw fail('result', 'must be one change_request record (a JSON object)');
    rec = r;
  }
  const key = snText(rec, 'number', 'display');
  if (key === null) throw fail('number', 'is required: the change request\'s number, such as CHG0030001');
  limited(key, 'number', ITSM_LIMITS.keyMax);
  const sysId = snText(rec, 'sys_id', 'value');
  if (sysId !== null && !/^[0-9a-f]{32}$/i.test(sysId)) throw fail('sys_id', `must be ServiceNow's 32 hexadecimal characters, not ${shown(sysId)}`);

  const items = new Items();
  for (const name of ['cmdb_ci', 'business_service']) {
    const t = snText(rec, name, 'display');
    if (t !== null) items.add(t, name);
  }
  for (const name of ['u_services', 'services']) {
    const v = own(rec, name);
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        const t = snValue(x, `${name}.${i}`, 'display');
        if (t !== null) items.addList(t, `${name}.${i}`);
      });
    } else {
      const t = snText(rec, name, 'display');
      if (t !== null) items.addList(t, name);
    }
  }

  const approval = snText(rec, 'approval', 'value');
  const group = snText(rec, 'assignment_group', 'display');
  const plannedStart = snTime(rec, 'start_date', 'start');
  const plannedEnd = snTime(rec, 'end_date', 'end');
  if (plannedStart && plannedEnd && Date.parse(plannedEnd) < Date.parse(plannedStart)) throw fail('end_date', `(${plannedEnd}) is before start_date (${plannedStart})`);
  return {
    system: 'servicenow',
    key,
    title: cut(snText(rec, 'short_description', 'display') ?? key, ITSM_LIMITS.titleMax),
    state: snState(rec),
    approval: approval === null ? null : (APPROVAL_BY_LABEL[limited(approval, 'approval', ITSM_LIMITS.textMax).toLowerCase()] ?? approval),
    plannedStart,
    plannedEnd,
    items: items.list,
    assignmentGroup: group === null ? null : limited(group, 'assignment_group', ITSM_LIMITS.textMax),
    link: snLink(rec, body, sysId),
    updatedAt: snTime(rec, 'sys_updated_on', 'start'),
  };
}

// ——— Jira ———

/** The events whose issue is a ticket to take in; a deletion or a comment is not. */
export const JIRA_TICKET_EVENTS = ['jira:issue_created', 'jira:issue_updated'] as const;

/** A Jira field's text: a string, an option `{value}`, or a named thing `{name}` (a group, a component). */
function jiraText(v: unknown, field: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v.trim() || null;
  if (isObj(v)) {
    for (const k of ['value', 'name']) {
      const x = own(v, k);
      if (typeof x === 'string') return x.trim() || null;
      if (x !== undefined && x !== null) throw fail(`${field}.${k}`, 'must be text');
    }
  }
  throw fail(field, 'must be text, or an option such as {"value": "…"} or {"name": "…"}');
}

function jiraTime(fields: Obj, name: string | undefined, what: string, edge: 'start' | 'end'): string | null {
  if (!name) return null;
  const field = `issue.fields.${name}`;
  const t = jiraText(own(fields, name), field);
  if (t === null) return null;
  const iso = readTime(t, edge);
  if (iso === null) throw fail(field, `(${what}) must be a time such as 2026-12-03T10:00:00.000+0000, not ${shown(t)}`);
  return iso;
}

/** Items from the configured field: a list of texts or options, one option, or a comma-separated text. */
function jiraItems(items: Items, v: unknown, field: string): void {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      const t = jiraText(x, `${field}.${i}`);
      if (t !== null) items.add(t, `${field}.${i}`);
    });
    return;
  }
  const t = jiraText(v, field);
  if (t !== null) items.addList(t, field);
}

/**
 * The site's page for an issue. `self` is the REST URL; everything before `/rest/api/` is the
 * site, which keeps a Jira Server context path (http://host/jira) that the origin alone would lose.
 */
function jiraLink(v: unknown, key: string): string | null {
  const self = httpUrl(v, 'issue.self');
  if (!self) return null;
  const at = self.pathname.indexOf('/rest/api/');
  const base = `${self.origin}${at >= 0 ? self.pathname.slice(0, at) : ''}`;
  return `${base}/browse/${encodeURIComponent(key)}`;
}

/** A Jira Cloud or Server issue webhook; `fields` names the site's custom fields for window, items and group. */
export function readJiraTicket(body: unknown, fields: ItsmChangeMatch['jiraFields']): Ticket {
  if (!isObj(body)) throw fail('body', 'must be a JSON object: a Jira issue webhook with webhookEvent and issue');
  const event = own(body, 'webhookEvent');
  if (event !== undefined && event !== null) {
    if (typeof event !== 'string') throw fail('webhookEvent', 'must be text');
    if (!(JIRA_TICKET_EVENTS as readonly string[]).includes(event)) throw fail('webhookEvent', `must be ${JIRA_TICKET_EVENTS.join(' or ')}, not ${shown(event)}: only these carry a ticket`);
  }
  const issue = own(body, 'issue');
  if (!isObj(issue)) throw fail('issue', 'is required: the issue the webhook is about, with its key and fields');
  const rawKey = own(issue, 'key');
  if (rawKey !== undefined && rawKey !== null && typeof rawKey !== 'string') throw fail('issue.key', 'must be text such as OPS-123');
  const key = typeof rawKey === 'string' ? rawKey.trim() : '';
  if (key === '') throw fail('issue.key', 'is required: the issue\'s key, such as OPS-123');
  limited(key, 'issue.key', ITSM_LIMITS.keyMax);
  const rawFields = own(issue, 'fields') ?? {};
  if (!isObj(rawFields)) throw fail('issue.fields', 'must be an object');
  const f: Obj = rawFields;

  const summary = own(f, 'summary');
  if (summary !== undefined && summary !== null && typeof summary !== 'string') throw fail('issue.fields.summary', 'must be text');
  const state = jiraText(own(f, 'status'), 'issue.fields.status');

  const items = new Items();
  const components = own(f, 'components');
  if (components !== undefined && components !== null) {
    if (!Array.isArray(components)) throw fail('issue.fields.components', 'must be a list such as [{"name": "checkout"}]');
    components.forEach((c, i) => {
      const t = jiraText(c, `issue.fields.components.${i}`);
      if (t !== null) items.add(t, `issue.fields.components.${i}`);
    });
  }
  if (fields?.items) jiraItems(items, own(f, fields.items), `issue.fields.${fields.items}`);

  const groupName = fields?.assignmentGroup;
  const groupField = `issue.fields.${groupName}`;
  const group = groupName ? jiraText(own(f, groupName), groupField) : null;
  const plannedStart = jiraTime(f, fields?.plannedStart, 'the planned start', 'start');
  const plannedEnd = jiraTime(f, fields?.plannedEnd, 'the planned end', 'end');
  if (plannedStart && plannedEnd && Date.parse(plannedEnd) < Date.parse(plannedStart)) throw fail(`issue.fields.${fields?.plannedEnd}`, `(the planned end, ${plannedEnd}) is before the planned start (${plannedStart})`);

  const updated = own(f, 'updated');
  let updatedAt: string | null = null;
  if (updated !== undefined && updated !== null) {
    if (typeof updated !== 'string' || (updatedAt = readTime(updated, 'start')) === null) throw fail('issue.fields.updated', 'must be a time such as 2026-12-03T10:00:00.000+0000');
  }
  const title = typeof summary === 'string' && summary.trim() !== '' ? summary.trim() : key;
  return {
    system: 'jira',
    key,
    title: cut(title, ITSM_LIMITS.titleMax),
    state: state === null ? null : limited(state, 'issue.fields.status', ITSM_LIMITS.textMax),
    approval: null,
    plannedStart,
    plannedEnd,
    items: items.list,
    assignmentGroup: group === null ? null : limited(group, groupField, ITSM_LIMITS.textMax),
    link: jiraLink(own(issue, 'self'), key),
    updatedAt,
  };
}
