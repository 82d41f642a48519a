import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, PASSWORD, signedInOwner, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { canonicalJson } from '../../platform/canonical-json.js';

// Settings writes as before-state captures through the API: real writes to several settings, each
// read back with what it replaced; writing a capture's before-value back restores the settings.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('settings writes as before-state captures', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let auditToken: string;
  let flagsToken: string;
  const as = (s: SignedIn) => ({
    put: async (url: string, payload: Json) => t.main.inject({ method: 'PUT', url, headers: s.headers, payload }),
    get: async (url: string) => t.main.inject({ method: 'GET', url, headers: s.headers }),
  });
  const captures = async (qs = '', secret = auditToken) => t.pipeline.inject({ method: 'GET', url: `/api/audit/settings-captures${qs}`, headers: { authorization: `Bearer ${secret}` } });
  const settingsUrl = () => `/api/organizations/${owner.org.id}/change-settings`;

  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Captured');
    auditToken = (await createToken(t, owner, ['audit:read'], 'auditor')).secret;
    flagsToken = (await createToken(t, owner, ['flags:read'], 'reader')).secret;
  });
  afterAll(async () => t.close());

  it('answers each settings write with what it replaced, newest first; the SHA-256 is of that value', async () => {
    const o = as(owner);
    const was = (await o.get(settingsUrl())).json().settings;
    expect((await o.put(settingsUrl(), { surveillanceMinutes: 45, completionRecipients: ['ops@acme.test'] })).statusCode).toBe(200);
    expect((await o.put('/api/settings/flags', { ticketPattern: 'OPS-[0-9]+' })).statusCode).toBe(200);
    expect((await o.put('/api/alert-settings', { holdMode: 'silence' })).statusCode).toBe(200);
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `ann.${Math.random().toString(36).slice(2, 6)}@captures.test`, role: 'member', displayName: 'ann', password: PASSWORD });
    expect((await o.put(`/api/organizations/${owner.org.id}/change-approvers`, { userIds: [user.id] })).statusCode).toBe(200);

    const r = await captures();
    expect(r.statusCode, r.body).toBe(200);
    const items = r.json().items as Json[];
    expect(items.map((c) => c.settings)).toEqual(['change_approvers', 'alerts', 'flags', 'changes']);
    const [approvers, alerts, flags, changes] = items as [Json, Json, Json, Json];
    expect(changes).toMatchObject({
      action: 'settings.changes_updated', method: 'settings_write', source: 'changeledger', capturedBy: owner.user.email,
      before: { surveillanceMinutes: was.surveillanceMinutes, completionRecipients: was.completionRecipients },
      after: { surveillanceMinutes: 45, completionRecipients: ['ops@acme.test'] },
      completeness: 'complete', prestateStatus: 'present', restorable: true, note: null,
    });
    expect(flags).toMatchObject({ before: { ticketPattern: String.raw`\b[A-Z][A-Z0-9]{1,9}-\d+\b` }, after: { ticketPattern: 'OPS-[0-9]+' }, restorable: true });
    expect(alerts).toMatchObject({ before: { holdMode: 'relay' }, after: { holdMode: 'silence' } });
    expect(approvers).toMatchObject({ before: { approvers: [] }, after: { approvers: [{ userId: user.id, critical: false }] }, restorable: true });
    for (const c of items) {
      expect(c.sha256).toBe(createHash('sha256').update(canonicalJson(c.before)).digest('hex'));
      expect(Date.parse(c.capturedAt)).not.toBeNaN();
    }
    // One kind of settings, and pages.
    expect((await captures('?settings=flags')).json().items.map((c: Json) => c.seq)).toEqual([flags.seq]);
    const first = (await captures('?limit=2')).json();
    expect(first.items).toHaveLength(2);
    expect((await captures(`?limit=2&cursor=${first.nextCursor}`)).json().items.map((c: Json) => c.seq)).toEqual([flags.seq, changes.seq]);

    // A capture is restorable: its before-value written back gives the earlier settings.
    expect((await o.put(settingsUrl(), changes.before)).statusCode).toBe(200);
    const now = (await o.get(settingsUrl())).json().settings;
    expect([now.surveillanceMinutes, now.completionRecipients]).toEqual([was.surveillanceMinutes, was.completionRecipients]);
    expect((await captures('?settings=changes')).json().items[0]).toMatchObject({ before: changes.after, after: changes.before });
  });

  it('refuses a settings name it does not know (400 naming settings), and a token without audit:read (403)', async () => {
    const bad = await captures('?settings=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ field: 'settings', error: 'Settings must be one of: alerts, catalogue, change_approvers, changes, evidence, flags, incidents, observed, unmanaged' });
    expect((await captures('', flagsToken)).statusCode).toBe(403);
    expect((await captures('/abc')).json()).toMatchObject({ field: 'seq' });
  });

  it('answers one write by its audit event; 404 for an event that is not a settings write, or none', async () => {
    const [latest] = (await captures('?limit=1')).json().items as Json[];
    const one = await captures(`/${latest!.seq}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual(latest);
    const token = await engine.db().query<{ seq: number }>(`SELECT seq FROM audit_events WHERE org_id = $1 AND action = 'token.created' LIMIT 1`, [owner.org.id]);
    const notSettings = await captures(`/${token.rows[0]!.seq}`);
    expect(notSettings.statusCode).toBe(404);
    expect(notSettings.json().error).toBe(`audit event ${token.rows[0]!.seq} is token.created, not a settings write`);
    expect((await captures('/999999')).statusCode).toBe(404);
  });
});
