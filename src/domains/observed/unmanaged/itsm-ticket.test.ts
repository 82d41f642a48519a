import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import { ITSM_LIMITS, readJiraTicket, readServiceNowTicket, readTime } from './itsm-ticket.js';
import type { ItsmChangeMatch, Ticket } from './unmanaged-types.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared', 'fixtures', 'real', 'jira');
const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`itsm tickets: SKIPPING the shared real Jira webhook tests: ${SHARED} is absent`);
const real = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(SHARED, file), 'utf8')) as Record<string, unknown>;

/** The field a refused body names; fails the test when the body is read or another error is thrown. */
function refused(read: () => unknown): { field: string | undefined; message: string } {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    return { field: (err as AppError).field, message: (err as AppError).message };
  }
  throw new Error('expected a 400');
}

/** A change_request as a Business Rule posts it (flat, plain strings). */
function snRecord(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    number: 'CHG0030001', short_description: 'Rotate checkout TLS certificates', state: '-1', approval: 'approved',
    start_date: '2026-12-03 10:00:00', end_date: '2026-12-03 12:00:00', cmdb_ci: 'checkout-api', assignment_group: 'Platform',
    sys_updated_on: '2026-12-02 17:30:05', sys_id: 'a9e30c7dc61122760116894de7bcc7bd', ...over,
  };
}

/** The same record as the Table API sends it with sysparm_display_value=all, for a user in Paris (UTC+1 in December). */
const tableApi = {
  result: {
    number: { display_value: 'CHG0030002', value: 'CHG0030002' },
    short_description: { display_value: 'Resize the orders database', value: 'Resize the orders database' },
    state: { display_value: 'Scheduled', value: '-2' },
    approval: { display_value: 'Approved', value: 'approved' },
    start_date: { display_value: '03/12/2026 11:00:00', value: '2026-12-03 10:00:00' },
    end_date: { display_value: '03/12/2026 13:00:00', value: '2026-12-03 12:00:00' },
    cmdb_ci: { display_value: 'orders-db', link: 'https://acme.service-now.com/api/now/table/cmdb_ci/3a70f789c0a8ce0100ee6d7a3ad4bd2d', value: '3a70f789c0a8ce0100ee6d7a3ad4bd2d' },
    business_service: { display_value: 'Orders', link: 'https://acme.service-now.com/api/now/table/cmdb_ci_service/26da329f0a0a0bb400f69d8159bc753d', value: '26da329f0a0a0bb400f69d8159bc753d' },
    assignment_group: { display_value: 'Database', link: 'https://acme.service-now.com/api/now/table/sys_user_group/287ee6fea9fe198100ada7950d0b1b73', value: '287ee6fea9fe198100ada7950d0b1b73' },
    sys_updated_on: { display_value: '02/12/2026 18:30:05', value: '2026-12-02 17:30:05' },
    sys_id: { display_value: 'c83c5e5347c12200e0ef563dbb9a7190', value: 'c83c5e5347c12200e0ef563dbb9a7190' },
  },
};

const JIRA_FIELDS: ItsmChangeMatch['jiraFields'] = { plannedStart: 'customfield_10015', plannedEnd: 'customfield_10016', items: 'customfield_10020', assignmentGroup: 'customfield_10030' };

/** A Jira Cloud issue_updated webhook for a change with the site's custom fields set. */
function jiraBody(fields: Record<string, unknown> = {}, issue: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timestamp: 1796287200000, webhookEvent: 'jira:issue_updated',
    issue: {
      id: '10012', self: 'https://acme.atlassian.net/rest/api/2/issue/10012', key: 'OPS-12',
      fields: {
        summary: 'Upgrade the checkout ingress', status: { name: 'In Progress', statusCategory: { key: 'indeterminate' } },
        components: [{ self: 'https://acme.atlassian.net/rest/api/2/component/10000', id: '10000', name: 'checkout' }], labels: ['change'],
        updated: '2026-12-02T17:30:05.123+0000',
        customfield_10015: '2026-12-03T10:00:00.000+0000', customfield_10016: '2026-12-03T12:00:00.000+0000',
        customfield_10020: [{ self: 'https://acme.atlassian.net/rest/api/2/customFieldOption/10101', value: 'cart', id: '10101' }, 'payments'],
        customfield_10030: { name: 'Platform' },
        ...fields,
      },
      ...issue,
    },
  };
}

describe('readServiceNowTicket', () => {
  it('reads a flat change_request: numeric state by name, zone-less times as UTC, the CI as its item', () => {
    expect(readServiceNowTicket(snRecord({ instanceUrl: 'https://acme.service-now.com/' }))).toEqual<Ticket>({
      system: 'servicenow', key: 'CHG0030001', title: 'Rotate checkout TLS certificates', state: 'Implement', approval: 'approved',
      plannedStart: '2026-12-03T10:00:00.000Z', plannedEnd: '2026-12-03T12:00:00.000Z', items: ['checkout-api'], assignmentGroup: 'Platform',
      link: 'https://acme.service-now.com/change_request.do?sys_id=a9e30c7dc61122760116894de7bcc7bd', updatedAt: '2026-12-02T17:30:05.000Z',
    });
  });

  it('reads the Table API shape: references by display value, but times by value (the display is in the user\'s zone)', () => {
    expect(readServiceNowTicket(tableApi)).toEqual<Ticket>({
      system: 'servicenow', key: 'CHG0030002', title: 'Resize the orders database', state: 'Scheduled', approval: 'approved',
      plannedStart: '2026-12-03T10:00:00.000Z', plannedEnd: '2026-12-03T12:00:00.000Z', items: ['orders-db', 'Orders'], assignmentGroup: 'Database',
      link: null, updatedAt: '2026-12-02T17:30:05.000Z',
    });
  });

  it.each([
    ['-5', 'New'], ['-4', 'Assess'], ['-3', 'Authorize'], ['-2', 'Scheduled'], ['-1', 'Implement'], ['0', 'Review'], ['3', 'Closed'], ['4', 'Canceled'],
    [-1, 'Implement'], ['implement', 'Implement'], ['CLOSED', 'Closed'], ['On hold', 'On hold'], ['7', '7'], ['', null],
  ])('state %j reads as %j', (state, name) => {
    expect(readServiceNowTicket(snRecord({ state })).state).toBe(name);
  });

  it('a known state number wins over a translated display value, so a closed ticket stays closed', () => {
    expect(readServiceNowTicket(snRecord({ state: { display_value: 'Geschlossen', value: '3' } })).state).toBe('Closed');
    expect(readServiceNowTicket(snRecord({ state: { display_value: 'Warten', value: '8' } })).state).toBe('Warten');
  });

  it.each([
    ['2026-12-03 10:00:00', '2026-12-03T10:00:00.000Z'],
    ['2026-12-03T10:00:00Z', '2026-12-03T10:00:00.000Z'],
    ['2026-12-03T11:00:00+01:00', '2026-12-03T10:00:00.000Z'],
    ['2026-12-03T05:00:00.250-0500', '2026-12-03T10:00:00.250Z'],
    ['2026-12-03 10:00', '2026-12-03T10:00:00.000Z'],
    ['2026-12-03 10:00:00 UTC', '2026-12-03T10:00:00.000Z'],
  ])('start_date %j is %s', (start_date, iso) => {
    expect(readServiceNowTicket(snRecord({ start_date, end_date: null })).plannedStart).toBe(iso);
  });

  it('items: CI, business service and a comma-separated services field, trimmed, duplicates dropped case-blind', () => {
    const t = readServiceNowTicket(snRecord({ cmdb_ci: ' checkout-api ', business_service: { display_value: 'Checkout', value: '26da' }, u_services: 'cart, Checkout-API ,payments,, ' }));
    expect(t.items).toEqual(['checkout-api', 'Checkout', 'cart', 'payments']);
    expect(readServiceNowTicket(snRecord({ cmdb_ci: null, services: ['cart', { display_value: 'search, ads', value: 'a,b' }] })).items).toEqual(['cart', 'search', 'ads']);
  });

  it.each([
    ['a page link is used as sent', { link: 'https://acme.service-now.com/now/nav/ui/classic/params/target/change_request.do' }, 'https://acme.service-now.com/now/nav/ui/classic/params/target/change_request.do'],
    ['a REST link names the instance', { link: 'https://acme.service-now.com/api/now/table/change_request/a9e30c7dc61122760116894de7bcc7bd' }, 'https://acme.service-now.com/change_request.do?sys_id=a9e30c7dc61122760116894de7bcc7bd'],
    ['instance_url is read too', { instance_url: 'https://acme.service-now.com' }, 'https://acme.service-now.com/change_request.do?sys_id=a9e30c7dc61122760116894de7bcc7bd'],
    ['an instance without a sys_id makes no link', { instanceUrl: 'https://acme.service-now.com', sys_id: undefined }, null],
    ['no instance, no link', {}, null],
  ])('link: %s', (_what, over, link) => {
    expect(readServiceNowTicket(snRecord(over)).link).toBe(link);
  });

  it('approval labels read as ServiceNow stores them; a missing title is the number', () => {
    const t = readServiceNowTicket(snRecord({ approval: 'Not Yet Requested', short_description: '  ' }));
    expect([t.approval, t.title]).toEqual(['not requested', 'CHG0030001']);
    expect(readServiceNowTicket(snRecord({ approval: { display_value: 'Rejected', value: 'rejected' } })).approval).toBe('rejected');
  });

  it('an end date given alone as a date covers its whole day', () => {
    const t = readServiceNowTicket(snRecord({ start_date: '2026-12-03', end_date: '2026-12-03' }));
    expect([t.plannedStart, t.plannedEnd]).toEqual(['2026-12-03T00:00:00.000Z', '2026-12-03T23:59:59.999Z']);
  });

  it.each([
    ['a list body', [snRecord()], 'body'],
    ['no number', snRecord({ number: undefined }), 'number'],
    ['a blank number', snRecord({ number: ' ' }), 'number'],
    ['a number past 100 characters', snRecord({ number: 'C'.repeat(101) }), 'number'],
    ['a start in words', snRecord({ start_date: 'tomorrow' }), 'start_date'],
    ['31 November', snRecord({ start_date: '2026-11-31 10:00:00' }), 'start_date'],
    ['hour 24', snRecord({ end_date: '2026-12-03 24:00:00' }), 'end_date'],
    ['an end before the start', snRecord({ end_date: '2026-12-03 09:00:00' }), 'end_date'],
    ['an epoch number as a time', snRecord({ sys_updated_on: 1796287200 }), 'sys_updated_on'],
    ['a list as the CI', snRecord({ cmdb_ci: ['a'] }), 'cmdb_ci'],
    ['a reference with neither value', snRecord({ assignment_group: { link: 'https://x' } }), 'assignment_group'],
    ['a nested reference', snRecord({ cmdb_ci: { display_value: { x: 1 } } }), 'cmdb_ci.display_value'],
    ['a result that is a list', { result: [snRecord()] }, 'result'],
    ['a sys_id that is not one', snRecord({ sys_id: 'abc' }), 'sys_id'],
    ['a javascript: link', snRecord({ link: 'javascript:alert(1)' }), 'link'],
    ['an item past 200 characters', snRecord({ cmdb_ci: 'x'.repeat(201) }), 'cmdb_ci'],
    ['more than 100 items', snRecord({ u_services: Array.from({ length: 101 }, (_, i) => `s${i}`).join(',') }), 'u_services'],
    ['a bad entry in a services list', snRecord({ services: ['ok', '3', true] }), 'services.2'],
  ].map(([what, body, field]) => [what, field, body]))('%s is a 400 naming %s', (_what, field, body) => {
    expect(refused(() => readServiceNowTicket(body)).field).toBe(field);
  });

  it('a time it cannot read is explained with an example in the format ServiceNow sends', () => {
    expect(refused(() => readServiceNowTicket(snRecord({ start_date: 'tomorrow' }))).message).toBe('start_date must be a time such as 2026-12-03 10:00:00 (read as UTC), not "tomorrow"');
  });

  it('a long title is cut to 500 characters; 100 items of 200 characters are kept', () => {
    const items = Array.from({ length: ITSM_LIMITS.itemsMax }, (_, i) => `${i}`.padStart(ITSM_LIMITS.itemMax, 'x'));
    const t = readServiceNowTicket(snRecord({ short_description: 'é'.repeat(600), cmdb_ci: null, u_services: items.join(',') }));
    expect([t.title.length, t.items.length]).toEqual([500, 100]);
  });

  it('a field inherited from Object.prototype is never read', () => {
    expect(refused(() => readServiceNowTicket(JSON.parse('{"__proto__": {"number": "CHG1"}}'))).field).toBe('number');
  });
});

describe('readJiraTicket', () => {
  it.skipIf(!hasShared)('reads the real issue_created webhook of a Jira Server with a context path', () => {
    expect(readJiraTicket(real('webhook-jira-issue_created.json'), JIRA_FIELDS)).toEqual<Ticket>({
      system: 'jira', key: 'TEST-4', title: 'a', state: 'To Do', approval: null, plannedStart: null, plannedEnd: null, items: [],
      assignmentGroup: null, link: 'http://localhost:2990/jira/browse/TEST-4', updatedAt: '2015-12-20T18:25:09.582Z',
    });
  });

  it.skipIf(!hasShared)('reads the real issue_updated webhook (status moved to Done) with no custom fields configured', () => {
    const t = readJiraTicket(real('webhook-jira-issue_updated-status.json'), undefined);
    expect([t.key, t.title, t.state, t.updatedAt, t.link]).toEqual(['TEST-11', 'summary updated', 'Done', '2016-01-14T23:06:37.032Z', 'http://localhost:2990/jira/browse/TEST-11']);
  });

  it.skipIf(!hasShared)('reads the site\'s custom fields added to a real webhook body', () => {
    const body = real('webhook-jira-issue_updated-status.json');
    const issue = body.issue as { fields: Record<string, unknown> };
    issue.fields.customfield_10015 = '2016-01-15T09:00:00.000+0100';
    issue.fields.customfield_10020 = { value: 'billing' };
    const t = readJiraTicket(body, JIRA_FIELDS);
    expect([t.plannedStart, t.plannedEnd, t.items]).toEqual(['2016-01-15T08:00:00.000Z', null, ['billing']]);
  });

  it('reads window, items and assignment group from the configured custom fields', () => {
    expect(readJiraTicket(jiraBody(), JIRA_FIELDS)).toEqual<Ticket>({
      system: 'jira', key: 'OPS-12', title: 'Upgrade the checkout ingress', state: 'In Progress', approval: null,
      plannedStart: '2026-12-03T10:00:00.000Z', plannedEnd: '2026-12-03T12:00:00.000Z', items: ['checkout', 'cart', 'payments'],
      assignmentGroup: 'Platform', link: 'https://acme.atlassian.net/browse/OPS-12', updatedAt: '2026-12-02T17:30:05.123Z',
    });
  });

  it('with no fields configured, window and group stay null and only components are items', () => {
    const t = readJiraTicket(jiraBody(), {});
    expect([t.plannedStart, t.plannedEnd, t.assignmentGroup, t.items]).toEqual([null, null, null, ['checkout']]);
  });

  it.each([
    ['a comma-separated text', 'cart, payments', ['checkout', 'cart', 'payments']],
    ['one option', { value: 'cart' }, ['checkout', 'cart']],
    ['named objects', [{ name: 'cart' }, { name: 'Checkout' }], ['checkout', 'cart']],
    ['null', null, ['checkout']],
  ])('the items field as %s', (_what, value, items) => {
    expect(readJiraTicket(jiraBody({ customfield_10020: value }), JIRA_FIELDS).items).toEqual(items);
  });

  it('the group may be an option, the window a date-time with a colon in its zone or a date picker\'s date', () => {
    const t = readJiraTicket(jiraBody({ customfield_10030: { value: 'SRE' }, customfield_10015: '2026-12-03T11:00:00+01:00', customfield_10016: '2026-12-03' }), JIRA_FIELDS);
    expect([t.assignmentGroup, t.plannedStart, t.plannedEnd]).toEqual(['SRE', '2026-12-03T10:00:00.000Z', '2026-12-03T23:59:59.999Z']);
  });

  it('a body without webhookEvent (an automation rule\'s web request) and without self is still a ticket, without a link', () => {
    const body = jiraBody({}, { self: undefined });
    delete body.webhookEvent;
    expect(readJiraTicket(body, JIRA_FIELDS).link).toBeNull();
  });

  it.each([
    ['a text body', 'OPS-12', 'body'],
    ['a deletion', { ...jiraBody(), webhookEvent: 'jira:issue_deleted' }, 'webhookEvent'],
    ['no issue', { webhookEvent: 'jira:issue_created' }, 'issue'],
    ['no key', jiraBody({}, { key: undefined }), 'issue.key'],
    ['a numeric key', jiraBody({}, { key: 12 }), 'issue.key'],
    ['a key past 100 characters', jiraBody({}, { key: `OPS-${'1'.repeat(97)}` }), 'issue.key'],
    ['fields that are a list', jiraBody({}, { fields: [] }), 'issue.fields'],
    ['a planned start in words', jiraBody({ customfield_10015: 'next Tuesday' }), 'issue.fields.customfield_10015'],
    ['an end before the start', jiraBody({ customfield_10016: '2026-12-03T09:00:00.000+0000' }), 'issue.fields.customfield_10016'],
    ['components that are not a list', jiraBody({ components: 'checkout' }), 'issue.fields.components'],
    ['a component with a numeric name', jiraBody({ components: [{ name: 7 }] }), 'issue.fields.components.0.name'],
    ['an item that is a number', jiraBody({ customfield_10020: ['cart', 5] }), 'issue.fields.customfield_10020.1'],
    ['a group that is a list', jiraBody({ customfield_10030: ['Platform'] }), 'issue.fields.customfield_10030'],
    ['an unreadable updated time', jiraBody({ updated: 'yesterday' }), 'issue.fields.updated'],
    ['a self that is no URL', jiraBody({}, { self: 'not a url' }), 'issue.self'],
    ['a summary that is a number', jiraBody({ summary: 5 }), 'issue.fields.summary'],
  ].map(([what, body, field]) => [what, field, body]))('%s is a 400 naming %s', (_what, field, body) => {
    expect(refused(() => readJiraTicket(body, JIRA_FIELDS)).field).toBe(field);
  });

  it('a planned start it cannot read is explained in Jira\'s own format', () => {
    expect(refused(() => readJiraTicket(jiraBody({ customfield_10015: 'next Tuesday' }), JIRA_FIELDS)).message)
      .toBe('issue.fields.customfield_10015 (the planned start) must be a time such as 2026-12-03T10:00:00.000+0000, not "next Tuesday"');
  });

  it('a configured field named like an Object method is read only when the body has it', () => {
    expect(readJiraTicket(jiraBody(), { items: 'constructor', assignmentGroup: 'toString' }).items).toEqual(['checkout']);
  });
});

describe('readTime', () => {
  it('reads back any instant written as ServiceNow writes it (UTC, no zone) and as Jira writes it (+hhmm)', () => {
    fc.assert(fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9000-12-31T23:59:59Z'), noInvalidDate: true }), fc.integer({ min: -14 * 60, max: 14 * 60 }), (d, offset) => {
      const iso = d.toISOString();
      expect(readTime(`${iso.slice(0, 10)} ${iso.slice(11, 23)}`, 'start')).toBe(iso);
      const local = new Date(d.getTime() + offset * 60_000).toISOString();
      const zone = `${offset < 0 ? '-' : '+'}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}${String(Math.abs(offset) % 60).padStart(2, '0')}`;
      expect(readTime(`${local.slice(0, 23)}${zone}`, 'start')).toBe(iso);
    }));
  });
});

/** A ticket read from any body keeps within the limits, whatever was sent. */
function withinLimits(t: Ticket): void {
  expect(t.key.length).toBeLessThanOrEqual(ITSM_LIMITS.keyMax);
  expect(t.title.length).toBeLessThanOrEqual(ITSM_LIMITS.titleMax);
  expect(t.items.length).toBeLessThanOrEqual(ITSM_LIMITS.itemsMax);
  expect(new Set(t.items.map((i) => i.toLowerCase())).size).toBe(t.items.length);
  for (const i of t.items) expect(i.length).toBeLessThanOrEqual(ITSM_LIMITS.itemMax);
  for (const at of [t.plannedStart, t.plannedEnd, t.updatedAt]) if (at !== null) expect(new Date(at).toISOString()).toBe(at);
}

/** Reads or refuses as it should; counts both, so a run that only ever refused is caught. */
function readsOrRefuses(read: () => Ticket, seen: { read: number; refused: number }): void {
  let t: Ticket;
  try {
    t = read();
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    expect([e.status, typeof e.field]).toEqual([400, 'string']);
    seen.refused++;
    return;
  }
  withinLimits(t);
  seen.read++;
}

describe('any JSON is read or refused with a 400 naming a field, never another error', () => {
  const any = fc.jsonValue();
  const text = fc.oneof(any, fc.string(), fc.constantFrom('2026-12-03 10:00:00', '2026-12-03T10:00:00.000+0000', '2026-02-30', '-1', '3', 'a, b,,A'));
  const value = fc.oneof(text, fc.record({ display_value: text, value: text, link: text }, { requiredKeys: [] }), fc.array(text, { maxLength: 4 }));

  it('for ServiceNow', () => {
    // Mostly well-formed fields, so that whole tickets get read too, each one sometimes anything at all.
    const good: Record<string, fc.Arbitrary<unknown>> = {
      number: fc.constantFrom('CHG0030001', { display_value: 'CHG0030002', value: 'CHG0030002' }), short_description: fc.string(),
      state: fc.constantFrom('-1', '3', 'Implement', { display_value: 'Scheduled', value: '-2' }), approval: fc.constantFrom('approved', 'Rejected'),
      start_date: fc.constantFrom('2026-12-03 10:00:00', '2026-12-03T10:00:00+01:00'), end_date: fc.constantFrom('2026-12-03 12:00:00', '2026-12-04'),
      cmdb_ci: fc.string(), business_service: fc.record({ display_value: fc.string(), value: fc.string() }), u_services: fc.string(), services: fc.array(fc.string(), { maxLength: 4 }),
      assignment_group: fc.string(), sys_updated_on: fc.constant('2026-12-02 17:30:05'), sys_id: fc.stringMatching(/^[0-9a-f]{32}$/), link: fc.webUrl(), instanceUrl: fc.webUrl(),
    };
    const rec = fc.record(Object.fromEntries(Object.entries(good).map(([k, ok]) => [k, fc.oneof({ arbitrary: ok, weight: 6 }, { arbitrary: value, weight: 1 })])), { requiredKeys: [] });
    const seen = { read: 0, refused: 0 };
    fc.assert(fc.property(fc.oneof(any, rec, fc.record({ result: fc.oneof(any, rec) })), (body) => readsOrRefuses(() => readServiceNowTicket(body), seen)), { numRuns: 500 });
    expect(seen.read).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });

  it('for Jira', () => {
    const option = fc.oneof(text, fc.record({ value: text, name: text }, { requiredKeys: [] }));
    const fields = fc.record({
      summary: text, status: option, updated: text, components: fc.oneof(any, fc.array(option, { maxLength: 4 })),
      customfield_10015: option, customfield_10016: option, customfield_10020: fc.oneof(option, fc.array(option, { maxLength: 4 })), customfield_10030: option,
    }, { requiredKeys: [] });
    const issue = fc.record({ key: text, self: fc.oneof(text, fc.webUrl()), fields: fc.oneof(any, fields) }, { requiredKeys: [] });
    const body = fc.oneof(any, fc.record({ webhookEvent: fc.oneof(text, fc.constantFrom('jira:issue_created', 'jira:issue_updated')), issue: fc.oneof(any, issue) }, { requiredKeys: [] }));
    const seen = { read: 0, refused: 0 };
    fc.assert(fc.property(body, (b) => readsOrRefuses(() => readJiraTicket(b, JIRA_FIELDS), seen)), { numRuns: 500 });
    expect(seen.read).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });
});
