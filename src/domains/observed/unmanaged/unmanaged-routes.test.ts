import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../../test/support/engines.js';
import { PASSWORD, countRows, signIn, signedInOwner, testApp, testCtx, type SignedIn, type TestApp } from '../../../../test/support/test-app.js';
import { SettableClock } from '../../../platform/clock.js';
import { listAuditEvents } from '../../ledger/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// Real Jira webhook bodies (PROVENANCE.md: jenkinsci/jira-trigger-plugin, MIT), read in place, never copied.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const JIRA_DIR = join(ROOT, '..', 'shared', 'fixtures', 'real', 'jira');
const JIRA_CREATED = join(JIRA_DIR, 'webhook-jira-issue_created.json');
const JIRA_UPDATED = join(JIRA_DIR, 'webhook-jira-issue_updated-status.json');
const hasJira = existsSync(JIRA_CREATED) && existsSync(JIRA_UPDATED);
if (!hasJira) console.warn(`unmanaged routes: SKIPPING the shared real Jira webhook tests: ${JIRA_DIR} or its files are absent`);
const loadJira = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Json;

const T0 = new Date('2026-03-02T08:00:00.000Z');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A ServiceNow change_request of our own, flat, as a business rule or Flow posts it. */
function changeRequest(over: Json = {}): Json {
  return {
    number: 'CHG0030001', sys_id: '9d385017c611228701d22104cc95c371', short_description: 'Roll out checkout 2.4 to production',
    state: '-1', approval: 'approved', start_date: '2026-03-02 09:00:00', end_date: '2026-03-02 11:30:00',
    cmdb_ci: 'checkout', business_service: 'Payments', assignment_group: 'Platform Engineering',
    sys_updated_on: '2026-03-01 16:45:12', instance_url: 'https://acme.service-now.com', ...over,
  };
}

/** A Jira Cloud issue webhook of our own, its window, items and group in the site's custom fields. */
function jiraIssue(over: Json = {}): Json {
  return {
    timestamp: 1772438400000, webhookEvent: 'jira:issue_updated',
    issue: {
      id: '10001', key: 'OPS-123', self: 'https://acme.atlassian.net/rest/api/2/issue/10001',
      fields: {
        summary: 'Rotate the payments database credentials', status: { name: 'In Progress', id: '3' },
        components: [{ name: 'checkout' }, { name: 'Checkout' }],
        customfield_10015: '2026-03-02T10:00:00.000+0100', customfield_10016: '2026-03-02',
        customfield_10020: [{ value: 'payments' }], customfield_10030: { value: 'Platform Engineering' },
        updated: '2026-03-01T18:00:00.000+0000',
      },
      ...over,
    },
  };
}

const JIRA_FIELDS = { plannedStart: 'customfield_10015', plannedEnd: 'customfield_10016', items: 'customfield_10020', assignmentGroup: 'customfield_10030' };

describeEachEngine('Unmanaged changes: settings, the ITSM webhook token and the ITSM webhooks', (engine) => {
  let t: TestApp;
  type Team = { owner: SignedIn; admin: SignedIn; member: SignedIn };

  const audit = async (orgId: string, action: string) => (await listAuditEvents(engine.db(), orgId, { action }, 200)).items.filter((e) => e.action === action);
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, who: SignedIn, payload?: unknown) =>
    t.main.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const putSettings = (who: SignedIn, payload: unknown) => api('PUT', '/api/unmanaged-settings', who, payload);
  const mint = (who: SignedIn, orgId = who.org.id) => api('POST', `/api/organizations/${orgId}/itsm-webhook-token`, who);
  /** A ticket posted the way ServiceNow or Jira posts it: to the pipeline listener, a bearer or ?org=. */
  const itsm = (system: 'servicenow' | 'jira', body: unknown, opts: { token?: string; authorization?: string; org?: string; listener?: 'main' | 'pipeline' } = {}) =>
    (opts.listener === 'main' ? t.main : t.pipeline).inject({
      method: 'POST', url: `/api/itsm/${system}${opts.org === undefined ? '' : `?org=${encodeURIComponent(opts.org)}`}`, payload: JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(opts.authorization ? { authorization: opts.authorization } : {}),
      },
    });
  const now = () => t.clock.now().toISOString();
  const settingsRow = async (orgId: string) => (await engine.db().query<Json>('SELECT * FROM unmanaged_settings WHERE org_id = $1', [orgId])).rows[0];
  /** Every table's count, and the whole content of the two tables this feature writes (a refused update changes no count). */
  const written = async () => ({
    ...(await countRows(engine.db())),
    unmanagedSettings: JSON.stringify((await engine.db().query('SELECT * FROM unmanaged_settings ORDER BY org_id')).rows),
    itsmTickets: JSON.stringify((await engine.db().query('SELECT * FROM itsm_tickets ORDER BY org_id, system, key')).rows),
  });
  const team = async (name: string): Promise<Team> => {
    const owner = await signedInOwner(t, name);
    const add = async (role: 'admin' | 'member') => {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `${role}${Math.random().toString(36).slice(2)}@x.test`, role, password: PASSWORD });
      return signIn(t, owner.org, user, PASSWORD);
    };
    return { owner, admin: await add('admin'), member: await add('member') };
  };
  const mintedToken = async (who: SignedIn): Promise<string> => {
    const res = await mint(who);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { token: string }).token;
  };

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock: new SettableClock(T0) });
  });
  afterAll(async () => t.close());

  describe('settings', () => {
    it('GET answers the defaults while nothing is saved, to any member', async () => {
      const { owner, member } = await team('Defaults');
      for (const who of [owner, member]) {
        const res = await api('GET', '/api/unmanaged-settings', who);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({
          referenceRule: false, authorizedPrincipals: [], itsmChangeMatch: {}, deniedAccessToSecops: true,
          itsmTokenSet: false, itsmTokenMintedAt: null, updatedAt: null,
        });
      }
      expect(await settingsRow(owner.org.id)).toBeUndefined();
      expect((await t.main.inject({ method: 'GET', url: '/api/unmanaged-settings' })).statusCode).toBe(401);
    });

    it('an owner turns the reference rule on with authorized principals: answered, read back, audited once with the fields changed', async () => {
      const { owner, member } = await team('Rule on');
      const start = now();
      const principals = ['system:serviceaccount:ci:*', 'arn:aws:iam::*:role/deploy-*', ' system:serviceaccount:ci:* '];
      const res = await putSettings(owner, { referenceRule: true, authorizedPrincipals: principals });
      expect(res.statusCode, res.body).toBe(200);
      const expected = {
        referenceRule: true, authorizedPrincipals: ['system:serviceaccount:ci:*', 'arn:aws:iam::*:role/deploy-*'], itsmChangeMatch: {}, deniedAccessToSecops: true,
        itsmTokenSet: false, itsmTokenMintedAt: null, updatedAt: start,
      };
      expect(res.json()).toEqual(expected);
      const read = await api('GET', '/api/unmanaged-settings', member);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(expected);
      const events = await audit(owner.org.id, 'unmanaged_settings.updated');
      expect(events).toHaveLength(1);
      expect(events[0]!.actor).toMatchObject({ kind: 'user', id: owner.user.id });
      expect(events[0]!.target).toEqual({ type: 'organization', id: owner.org.id });
      expect(events[0]!.data).toEqual({
        changed: ['referenceRule', 'authorizedPrincipals'], referenceRule: true, authorizedPrincipals: expected.authorizedPrincipals,
        // What the write replaced: the settings write's before-state (GET /api/audit/settings-captures).
        before: { referenceRule: false, authorizedPrincipals: [] }, after: { referenceRule: true, authorizedPrincipals: expected.authorizedPrincipals },
      });

      // The same values again (and an empty PUT) change nothing: no audit event, no write.
      const before = await written();
      for (const same of [{ referenceRule: true, authorizedPrincipals: ['arn:aws:iam::*:role/deploy-*', 'system:serviceaccount:ci:*'].reverse() }, {}]) {
        const again = await putSettings(owner, same);
        expect(again.statusCode, again.body).toBe(200);
        expect(again.json()).toEqual(expected);
      }
      expect(await written()).toEqual(before);
      expect(await audit(owner.org.id, 'unmanaged_settings.updated')).toHaveLength(1);
    });

    it('an owner sets ticket matching and the denied-attempt cases; only the changed fields are in the event', async () => {
      const { owner } = await team('Matching');
      const match = { states: ['Implement', 'implement', 'Scheduled'], window: true, items: false, assignmentGroups: ['Platform Engineering'], jiraFields: JIRA_FIELDS };
      const res = await putSettings(owner, { itsmChangeMatch: match, deniedAccessToSecops: false });
      expect(res.statusCode, res.body).toBe(200);
      const stored = { states: ['Implement', 'Scheduled'], window: true, items: false, assignmentGroups: ['Platform Engineering'], jiraFields: JIRA_FIELDS };
      expect(res.json()).toMatchObject({ referenceRule: false, itsmChangeMatch: stored, deniedAccessToSecops: false });
      expect((await api('GET', '/api/unmanaged-settings', owner)).json()).toMatchObject({ itsmChangeMatch: stored, deniedAccessToSecops: false });
      const [ev] = await audit(owner.org.id, 'unmanaged_settings.updated');
      expect(ev!.data).toMatchObject({ changed: ['itsmChangeMatch', 'deniedAccessToSecops'], itsmChangeMatch: stored, deniedAccessToSecops: false, after: { itsmChangeMatch: stored, deniedAccessToSecops: false } });
      expect(Object.keys(ev!.data.before as object)).toEqual(['itsmChangeMatch', 'deniedAccessToSecops']);
    });

    it('an admin may change authorized principals but not switch the rule (403 naming referenceRule, nothing written); a member may change nothing', async () => {
      const { owner, admin, member } = await team('Roles');
      const ok = await putSettings(admin, { authorizedPrincipals: ['system:serviceaccount:ci:*'] });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ referenceRule: false, authorizedPrincipals: ['system:serviceaccount:ci:*'] });
      // The whole form sent back with the rule as it is: the rule is not switched, so an admin may.
      const form = await putSettings(admin, { referenceRule: false, authorizedPrincipals: ['system:serviceaccount:ci:*', 'deploy-bot'] });
      expect(form.statusCode, form.body).toBe(200);
      const events = await audit(owner.org.id, 'unmanaged_settings.updated');
      expect(events.map((e) => [e.actor.id, e.data.changed])).toEqual([[admin.user.id, ['authorizedPrincipals']], [admin.user.id, ['authorizedPrincipals']]]);

      const before = await written();
      const refused = await putSettings(admin, { referenceRule: true, authorizedPrincipals: ['other:*'] });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({ field: 'referenceRule', error: expect.stringMatching(/only an owner/) });
      const denied = await putSettings(member, { authorizedPrincipals: ['member:*'] });
      expect(denied.statusCode, denied.body).toBe(403);
      expect(denied.json().error).toMatch(/owners and admins/);
      expect(await written()).toEqual(before);
      expect((await api('GET', '/api/unmanaged-settings', member)).json()).toMatchObject({ referenceRule: false, authorizedPrincipals: ['system:serviceaccount:ci:*', 'deploy-bot'] });

      // The owner switches it; then the admin may not switch it back off either.
      expect((await putSettings(owner, { referenceRule: true })).statusCode).toBe(200);
      const off = await putSettings(admin, { referenceRule: false });
      expect(off.statusCode).toBe(403);
      expect(off.json()).toMatchObject({ field: 'referenceRule' });
      expect((await api('GET', '/api/unmanaged-settings', admin)).json()).toMatchObject({ referenceRule: true });
    });

    it('refuses bad input with 400 naming the field, in words, and writes nothing', async () => {
      const { owner } = await team('Bad input');
      // Something saved first, so that a refused PUT could only show as a changed row, not a new one.
      expect((await putSettings(owner, { authorizedPrincipals: ['deploy-bot'] })).statusCode).toBe(200);
      const cases: Array<[Json, string, RegExp]> = [
        [{ authorizedPrincipals: 'system:serviceaccount:ci:*' }, 'authorizedPrincipals', /list of patterns/],
        [{ authorizedPrincipals: ['ok-*', '[abc'] }, 'authorizedPrincipals.1', /not a valid pattern/],
        [{ authorizedPrincipals: ['*'] }, 'authorizedPrincipals.0', /every principal/],
        [{ authorizedPrincipals: ['**'] }, 'authorizedPrincipals.0', /every principal/],
        [{ authorizedPrincipals: [42] }, 'authorizedPrincipals.0', /pattern/],
        [{ itsmChangeMatch: { states: ['Implement'], colour: 'red' } }, 'itsmChangeMatch.colour', /not a ticket field/],
        [{ itsmChangeMatch: [] }, 'itsmChangeMatch', /object/],
        [{ itsmChangeMatch: { jiraFields: { plannedStart: 'bad field!' } } }, 'itsmChangeMatch.jiraFields.plannedStart', /Jira field id/],
        [{ itsmChangeMatch: { jiraFields: { priority: 'customfield_1' } } }, 'itsmChangeMatch.jiraFields.priority', /not a ticket field/],
        [{ itsmChangeMatch: { window: 'yes' } }, 'itsmChangeMatch.window', /true or false/],
        [{ itsmChangeMatch: { states: [''] } }, 'itsmChangeMatch.states.0', /name of 1 to/],
        [{ referenceRule: 'yes' }, 'referenceRule', /true or false/],
        [{ deniedAccessToSecops: 1 }, 'deniedAccessToSecops', /true or false/],
        [{ referenceRule: true, authorizedPrincipals: ['*'] }, 'authorizedPrincipals.0', /every principal/],
        [{ authorisedPrincipals: ['x'] }, 'authorisedPrincipals', /not a known field/],
      ];
      const before = await written();
      for (const [body, field, words] of cases) {
        const res = await putSettings(owner, body);
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
        expect(res.json(), JSON.stringify(body)).toMatchObject({ field, error: expect.stringMatching(words) });
      }
      expect(await written()).toEqual(before);
      expect(await audit(owner.org.id, 'unmanaged_settings.updated')).toHaveLength(1);
    });
  });

  describe('the ITSM webhook token', () => {
    it('an owner mints one: 201 once with the token, only its SHA-256 stored, audited, the settings say it is set', async () => {
      const { owner, admin, member } = await team('Mint');
      const start = now();
      const res = await mint(owner);
      expect(res.statusCode, res.body).toBe(201);
      const { token, mintedAt } = res.json() as { token: string; mintedAt: string };
      expect(token).toMatch(/^clitsm_[A-Za-z0-9_-]{43}$/);
      expect(mintedAt).toBe(start);
      expect(Object.keys(res.json() as Json).sort()).toEqual(['mintedAt', 'token']);
      expect((await settingsRow(owner.org.id))!.itsm_token_hash).toBe(sha256(token));
      const settingsText = JSON.stringify((await engine.db().query('SELECT * FROM unmanaged_settings')).rows);
      const auditText = JSON.stringify((await engine.db().query('SELECT * FROM audit_events')).rows);
      expect(settingsText).not.toContain(token);
      expect(settingsText).not.toContain(token.slice('clitsm_'.length));
      expect(auditText).not.toContain(token.slice('clitsm_'.length));
      const events = await audit(owner.org.id, 'organization.itsm_webhook_token');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ actor: { kind: 'user', id: owner.user.id }, target: { type: 'organization', id: owner.org.id }, data: { replaced: false } });
      // Never shown again: the settings only say that there is one, and since when.
      const read = await api('GET', '/api/unmanaged-settings', member);
      expect(read.json()).toMatchObject({ itsmTokenSet: true, itsmTokenMintedAt: start, referenceRule: false });
      expect(read.body).not.toContain(token);
      // An admin may mint too.
      expect((await mint(admin)).statusCode).toBe(201);
    });

    it('another organisation\'s id is 404 and a member is 403; neither writes anything', async () => {
      const { owner, member } = await team('Mint refused');
      const other = await signedInOwner(t, 'Elsewhere');
      const before = await written();
      const elsewhere = await mint(owner, other.org.id);
      expect(elsewhere.statusCode, elsewhere.body).toBe(404);
      expect(elsewhere.json()).not.toHaveProperty('token');
      const byMember = await mint(member);
      expect(byMember.statusCode, byMember.body).toBe(403);
      expect(byMember.json()).not.toHaveProperty('token');
      const noCsrf = await t.main.inject({ method: 'POST', url: `/api/organizations/${owner.org.id}/itsm-webhook-token`, headers: { cookie: owner.headers.cookie! } });
      expect(noCsrf.statusCode).toBe(403);
      expect(await written()).toEqual(before);
      expect(await settingsRow(other.org.id)).toBeUndefined();
    });

    it('minting again replaces the token: the first is refused (401) on the webhook, the second works', async () => {
      const { owner } = await team('Remint');
      const first = await mintedToken(owner);
      t.clock.advance(60_000);
      const secondAt = now();
      const second = await mintedToken(owner);
      expect(second).not.toBe(first);
      const events = await audit(owner.org.id, 'organization.itsm_webhook_token');
      expect(events.map((e) => e.data.replaced).sort()).toEqual([false, true]);
      expect((await api('GET', '/api/unmanaged-settings', owner)).json()).toMatchObject({ itsmTokenSet: true, itsmTokenMintedAt: secondAt });

      const before = await written();
      const old = await itsm('servicenow', changeRequest({ number: 'CHG0040001' }), { token: first });
      expect(old.statusCode, old.body).toBe(401);
      expect(old.json().error).toMatch(/not an organisation's ITSM webhook token/);
      expect(await written()).toEqual(before);
      const ok = await itsm('servicenow', changeRequest({ number: 'CHG0040001' }), { token: second });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json()).toMatchObject({ counts: true, created: true, ticket: { key: 'CHG0040001', verified: true } });
    });
  });

  describe('ServiceNow change tickets', () => {
    it('a change_request with the token: 201, counts, its fields read (times without a zone read as UTC), audited; a re-send refreshes it; listed for people', async () => {
      const { owner, member } = await team('ServiceNow');
      const token = await mintedToken(owner);
      const start = now();
      const res = await itsm('servicenow', changeRequest(), { token });
      expect(res.statusCode, res.body).toBe(201);
      const ticket = {
        system: 'servicenow', key: 'CHG0030001', title: 'Roll out checkout 2.4 to production', state: 'Implement', approval: 'approved',
        plannedStart: '2026-03-02T09:00:00.000Z', plannedEnd: '2026-03-02T11:30:00.000Z', items: ['checkout', 'Payments'], assignmentGroup: 'Platform Engineering',
        link: 'https://acme.service-now.com/change_request.do?sys_id=9d385017c611228701d22104cc95c371', updatedAt: '2026-03-01T16:45:12.000Z',
        verified: true, unverifiedReason: null, firstReceivedAt: start, receivedAt: start,
      };
      expect(res.json()).toEqual({ ticket, counts: true, created: true, refreshed: false, why: null });
      const [ev] = await audit(owner.org.id, 'itsm_ticket.received');
      expect(ev).toMatchObject({
        actor: { kind: 'service', id: 'itsm:servicenow', name: 'ServiceNow' }, source: 'webhook', target: { type: 'itsm_ticket', id: 'servicenow:CHG0030001' },
      });
      expect(ev!.data).toEqual({ system: 'servicenow', key: 'CHG0030001', state: 'Implement', counts: true, plannedStart: ticket.plannedStart, plannedEnd: ticket.plannedEnd, items: ticket.items });
      expect(t.logs.join('')).not.toContain(token);

      // The Table API's form, {result: {...}} with display values, a new state and a longer window.
      t.clock.advance(5 * 60_000);
      const later = now();
      const resend = await itsm('servicenow', {
        result: {
          number: { display_value: 'CHG0030001', value: 'CHG0030001' }, sys_id: { value: '9d385017c611228701d22104cc95c371', display_value: '9d385017c611228701d22104cc95c371' },
          short_description: { display_value: 'Roll out checkout 2.4 to production', value: 'Roll out checkout 2.4 to production' },
          state: { display_value: 'Überprüfung', value: '0' }, approval: { display_value: 'Approved', value: 'approved' },
          start_date: { display_value: '02.03.2026 10:00:00', value: '2026-03-02 09:00:00' }, end_date: { display_value: '02.03.2026 13:00:00', value: '2026-03-02 12:00:00' },
          cmdb_ci: { display_value: 'checkout', value: 'b0c25d1bc0a8000b0021d2ab4b3f2a1f', link: 'https://acme.service-now.com/api/now/table/cmdb_ci/b0c25d1bc0a8000b0021d2ab4b3f2a1f' },
          assignment_group: { display_value: 'SRE', value: '287ebd7da9fe198100f92cc8d1d2154e' },
          link: 'https://acme.service-now.com/api/now/table/change_request/9d385017c611228701d22104cc95c371',
        },
      }, { token });
      expect(resend.statusCode, resend.body).toBe(200);
      const refreshed = {
        ...ticket, state: 'Review', plannedEnd: '2026-03-02T12:00:00.000Z', items: ['checkout'], assignmentGroup: 'SRE', updatedAt: null, receivedAt: later,
      };
      expect(resend.json()).toEqual({ ticket: refreshed, counts: true, created: false, refreshed: true, why: null });
      const events = await audit(owner.org.id, 'itsm_ticket.received');
      expect(events).toHaveLength(2);
      expect(events.find((e) => e.data.refreshed === true)?.data).toMatchObject({ state: 'Review', plannedEnd: '2026-03-02T12:00:00.000Z', counts: true });

      const list = await api('GET', '/api/itsm/tickets', member);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json()).toEqual({ tickets: [refreshed] });
      // Another organisation sees none of it.
      const stranger = await signedInOwner(t, 'Stranger');
      expect((await api('GET', '/api/itsm/tickets', stranger)).json()).toEqual({ tickets: [] });
      expect((await t.main.inject({ method: 'GET', url: '/api/itsm/tickets' })).statusCode).toBe(401);
    });

    it('without a token, ?org=<slug> keeps the ticket but it does not count, and the answer says why', async () => {
      const { owner } = await team('Tokenless');
      const res = await itsm('servicenow', changeRequest({ number: 'CHG0050001' }), { org: owner.org.slug });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json() as Json;
      expect(body).toMatchObject({ counts: false, created: true, refreshed: false, ticket: { key: 'CHG0050001', verified: false, state: 'Implement' } });
      expect(body.why).toMatch(/no ITSM webhook token yet/);
      expect(body.ticket.unverifiedReason).toBe(body.why);
      const [ev] = await audit(owner.org.id, 'itsm_ticket.received');
      expect(ev!.data).toMatchObject({ key: 'CHG0050001', counts: false, why: body.why });

      // Once the organisation has a token, a tokenless ticket is told to come back with it.
      const token = await mintedToken(owner);
      const after = await itsm('servicenow', changeRequest({ number: 'CHG0050002' }), { org: owner.org.slug });
      expect(after.statusCode, after.body).toBe(201);
      expect(after.json()).toMatchObject({ counts: false, why: expect.stringMatching(/without the organisation's ITSM webhook token/) });

      // The token names the organisation: ?org= naming another one does not move the ticket there.
      const stranger = await signedInOwner(t, 'Not mine');
      const both = await itsm('servicenow', changeRequest({ number: 'CHG0050003' }), { token, org: stranger.org.slug });
      expect(both.statusCode, both.body).toBe(201);
      expect(both.json()).toMatchObject({ counts: true, why: null });
      expect((await api('GET', '/api/itsm/tickets', stranger)).json()).toEqual({ tickets: [] });
      expect(((await api('GET', '/api/itsm/tickets', owner)).json() as { tickets: Json[] }).tickets.map((x) => [x.key, x.verified]).sort())
        .toEqual([['CHG0050001', false], ['CHG0050002', false], ['CHG0050003', true]]);
    });

    it('no token and no org is 401, an unknown org 404, a bearer that is no ITSM token 401; none writes anything', async () => {
      const { owner } = await team('Refusals');
      await mintedToken(owner);
      // The organisation's own API token is not its ITSM token either.
      const apiToken = await t.main.inject({ method: 'POST', url: '/api/tokens', headers: owner.headers, payload: { name: 'ci', scopes: ['changes:write'] } });
      expect(apiToken.statusCode, apiToken.body).toBe(201);
      const cases: Array<[Parameters<typeof itsm>[2], number, RegExp]> = [
        [{}, 401, /ITSM webhook token/],
        [{ org: 'no-such-organisation' }, 404, /no organisation no-such-organisation/],
        [{ token: 'not-a-token' }, 401, /not an organisation's ITSM webhook token/],
        [{ token: `clitsm_${'A'.repeat(43)}` }, 401, /not an organisation's ITSM webhook token/],
        // A wrong bearer is not rescued by ?org=: the sender meant to vouch and failed.
        [{ token: `clitsm_${'A'.repeat(43)}`, org: owner.org.slug }, 401, /not an organisation's ITSM webhook token/],
        [{ token: (apiToken.json() as { secret: string }).secret }, 401, /not an organisation's ITSM webhook token/],
        [{ authorization: 'Basic dXNlcjpwYXNz', org: owner.org.slug }, 401, /Bearer/],
      ];
      const before = await written();
      for (const [opts, status, words] of cases) {
        const res = await itsm('servicenow', changeRequest({ number: 'CHG0060001' }), opts);
        expect(res.statusCode, `${JSON.stringify(opts)}: ${res.body}`).toBe(status);
        expect(res.json().error).toMatch(words);
      }
      expect(await written()).toEqual(before);
    });

    it('a tokenless re-send of a verified ticket leaves it as it was; a ticket first sent without the token counts once re-sent with it', async () => {
      const { owner } = await team('Resend');
      const token = await mintedToken(owner);
      const verified = await itsm('servicenow', changeRequest({ number: 'CHG0070001' }), { token });
      expect(verified.statusCode, verified.body).toBe(201);
      const stored = (verified.json() as Json).ticket;

      const before = await written();
      t.clock.advance(60_000);
      const kept = await itsm('servicenow', changeRequest({ number: 'CHG0070001', state: '4', end_date: '2026-03-09 11:30:00', cmdb_ci: 'billing' }), { org: owner.org.slug });
      expect(kept.statusCode, kept.body).toBe(200);
      expect(kept.json()).toMatchObject({ ticket: stored, counts: true, created: false, refreshed: false, why: expect.stringMatching(/a re-send without it does not change it/) });
      expect(await written()).toEqual(before);

      // First without the token, then with it: from then on it counts.
      const unverified = await itsm('servicenow', changeRequest({ number: 'CHG0070002', state: '-2' }), { org: owner.org.slug });
      expect(unverified.statusCode).toBe(201);
      expect(unverified.json()).toMatchObject({ counts: false, ticket: { verified: false, state: 'Scheduled' } });
      // Another tokenless re-send refreshes it (nobody vouched for it), still not counting.
      const again = await itsm('servicenow', changeRequest({ number: 'CHG0070002', state: '-1' }), { org: owner.org.slug });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ counts: false, refreshed: true, ticket: { verified: false, state: 'Implement' } });
      const vouched = await itsm('servicenow', changeRequest({ number: 'CHG0070002', state: '-1' }), { token });
      expect(vouched.statusCode, vouched.body).toBe(200);
      expect(vouched.json()).toMatchObject({ counts: true, created: false, refreshed: true, why: null, ticket: { verified: true, unverifiedReason: null, firstReceivedAt: unverified.json().ticket.firstReceivedAt } });
      const events = (await audit(owner.org.id, 'itsm_ticket.received')).filter((e) => e.data.key === 'CHG0070002');
      expect(events.map((e) => e.data.counts).sort()).toEqual([false, false, true]);
    });
  });

  describe('Jira change tickets', () => {
    it.skipIf(!hasJira)('takes in real Jira Server webhooks (issue created, status updated) as tickets', async () => {
      const { owner } = await team('Jira real');
      const token = await mintedToken(owner);
      const created = await itsm('jira', loadJira(JIRA_CREATED), { token });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({
        counts: true, created: true,
        ticket: { system: 'jira', key: 'TEST-4', title: 'a', state: 'To Do', approval: null, plannedStart: null, plannedEnd: null, items: [], assignmentGroup: null, link: 'http://localhost:2990/jira/browse/TEST-4', updatedAt: '2015-12-20T18:25:09.582Z', verified: true },
      });
      const updated = await itsm('jira', loadJira(JIRA_UPDATED), { token });
      expect(updated.statusCode, updated.body).toBe(201);
      expect(updated.json()).toMatchObject({ ticket: { key: 'TEST-11', title: 'summary updated', state: 'Done', link: 'http://localhost:2990/jira/browse/TEST-11', updatedAt: '2016-01-14T23:06:37.032Z' } });
      const events = await audit(owner.org.id, 'itsm_ticket.received');
      expect(events.map((e) => [e.actor.id, e.target.id]).sort()).toEqual([['itsm:jira', 'jira:TEST-11'], ['itsm:jira', 'jira:TEST-4']]);
      const list = (await api('GET', '/api/itsm/tickets', owner)).json() as { tickets: Json[] };
      expect(list.tickets.map((x) => x.key).sort()).toEqual(['TEST-11', 'TEST-4']);
    });

    it('reads the window, items and group from the custom fields the organisation names', async () => {
      const { owner } = await team('Jira own');
      const token = await mintedToken(owner);
      // Before the fields are named, only the components are read.
      const start = now();
      const plain = await itsm('jira', jiraIssue(), { token });
      expect(plain.statusCode, plain.body).toBe(201);
      expect(plain.json()).toMatchObject({ ticket: { key: 'OPS-123', items: ['checkout'], plannedStart: null, plannedEnd: null, assignmentGroup: null } });

      expect((await putSettings(owner, { itsmChangeMatch: { jiraFields: JIRA_FIELDS } })).statusCode).toBe(200);
      t.clock.advance(2 * 60_000);
      const later = now();
      const res = await itsm('jira', jiraIssue(), { token });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        counts: true, created: false, refreshed: true, why: null,
        ticket: {
          system: 'jira', key: 'OPS-123', title: 'Rotate the payments database credentials', state: 'In Progress', approval: null,
          plannedStart: '2026-03-02T09:00:00.000Z', plannedEnd: '2026-03-02T23:59:59.999Z', items: ['checkout', 'payments'], assignmentGroup: 'Platform Engineering',
          link: 'https://acme.atlassian.net/browse/OPS-123', updatedAt: '2026-03-01T18:00:00.000Z', verified: true, unverifiedReason: null,
          firstReceivedAt: start, receivedAt: later,
        },
      });
      const events = await audit(owner.org.id, 'itsm_ticket.received');
      expect(events).toHaveLength(2);
      expect(events.find((e) => e.data.refreshed === true)).toMatchObject({
        actor: { kind: 'service', id: 'itsm:jira', name: 'Jira' }, target: { type: 'itsm_ticket', id: 'jira:OPS-123' },
        data: { system: 'jira', key: 'OPS-123', state: 'In Progress', counts: true, plannedStart: '2026-03-02T09:00:00.000Z', items: ['checkout', 'payments'] },
      });

      const badTime = await itsm('jira', jiraIssue({ key: 'OPS-124', fields: { summary: 'x', customfield_10015: 'next Tuesday' } }), { token });
      expect(badTime.statusCode, badTime.body).toBe(400);
      expect(badTime.json()).toMatchObject({ field: 'issue.fields.customfield_10015' });
    });
  });

  describe('malformed tickets', () => {
    it('is 400 naming the field as the tool spells it, and writes nothing', async () => {
      const { owner } = await team('Malformed');
      const token = await mintedToken(owner);
      const { number: _number, ...noNumber } = changeRequest();
      const cases: Array<['servicenow' | 'jira', unknown, string]> = [
        ['servicenow', noNumber, 'number'],
        ['servicenow', { result: noNumber }, 'number'],
        ['servicenow', { result: 'CHG0030001' }, 'result'],
        ['servicenow', changeRequest({ start_date: 'tomorrow morning' }), 'start_date'],
        ['servicenow', changeRequest({ end_date: '2026-03-01 09:00:00' }), 'end_date'],
        ['servicenow', changeRequest({ sys_id: 'not-hex' }), 'sys_id'],
        ['servicenow', 'CHG0030001', 'body'],
        ['servicenow', [changeRequest()], 'body'],
        ['jira', jiraIssue({ key: undefined }), 'issue.key'],
        ['jira', jiraIssue({ key: '   ' }), 'issue.key'],
        ['jira', { webhookEvent: 'jira:issue_updated' }, 'issue'],
        ['jira', { ...jiraIssue(), webhookEvent: 'jira:issue_deleted' }, 'webhookEvent'],
        ['jira', jiraIssue({ fields: { components: 'checkout' } }), 'issue.fields.components'],
        ['jira', 'OPS-123', 'body'],
      ];
      const before = await written();
      for (const [system, body, field] of cases) {
        // With the token and tokenless alike: bad input is refused before anything is stored.
        for (const opts of [{ token }, { org: owner.org.slug }]) {
          const res = await itsm(system, body, opts);
          expect(res.statusCode, `${system} ${JSON.stringify(body)}: ${res.body}`).toBe(400);
          expect(res.json(), `${system} ${JSON.stringify(body)}`).toMatchObject({ field });
          expect(res.json().error).toEqual(expect.any(String));
        }
      }
      const empty = await t.pipeline.inject({ method: 'POST', url: '/api/itsm/servicenow', headers: { authorization: `Bearer ${token}` } });
      expect(empty.statusCode, empty.body).toBe(400);
      expect(await written()).toEqual(before);
    });
  });

  describe('listeners', () => {
    it('the ITSM webhooks are not served on the main listener, the settings routes not on the pipeline listener', async () => {
      const { owner } = await team('Listeners');
      const token = await mintedToken(owner);
      const before = await written();
      for (const system of ['servicenow', 'jira'] as const) {
        const body = system === 'servicenow' ? changeRequest({ number: 'CHG0080001' }) : jiraIssue();
        for (const opts of [{ token, listener: 'main' as const }, { org: owner.org.slug, listener: 'main' as const }]) {
          const res = await itsm(system, body, opts);
          expect(res.statusCode, res.body).toBe(404);
        }
        const signed = await t.main.inject({ method: 'POST', url: `/api/itsm/${system}`, headers: { ...owner.headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
        expect(signed.statusCode, signed.body).toBe(404);
      }
      const personRoutes: Array<['GET' | 'PUT' | 'POST', string, unknown]> = [
        ['GET', '/api/unmanaged-settings', undefined],
        ['PUT', '/api/unmanaged-settings', { referenceRule: true }],
        ['POST', `/api/organizations/${owner.org.id}/itsm-webhook-token`, undefined],
        ['GET', '/api/itsm/tickets', undefined],
      ];
      for (const [method, url, payload] of personRoutes) {
        for (const authorization of [`Bearer ${token}`, undefined]) {
          const res = await t.pipeline.inject({ method, url, headers: { ...owner.headers, ...(authorization ? { authorization } : {}) }, ...(payload === undefined ? {} : { payload: payload as Json }) });
          expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
          expect(res.body).not.toContain('clitsm_');
        }
      }
      expect(await written()).toEqual(before);
      expect((await api('GET', '/api/unmanaged-settings', owner)).json()).toMatchObject({ referenceRule: false });
    });
  });
});
