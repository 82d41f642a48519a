import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { startSmtpCapture, type SmtpCapture } from '../../../test/support/smtp-capture.js';
import { countRows, createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import { listAuditEvents } from '../ledger/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const PUBLIC_URL = 'https://changes.acme.dev';

describeEachEngine('Organisation → Members', (engine) => {
  const clock = new SettableClock(new Date());
  const domain = `team-${Math.random().toString(36).slice(2, 8)}.dev`;
  let t: TestApp;
  let smtp: SmtpCapture;
  let mailing: TestApp;
  let owner: SignedIn;
  let n = 0;
  const fresh = () => `person${++n}@${domain}`;

  beforeAll(async () => {
    t = await testApp(engine.db(), { clock, publicUrl: PUBLIC_URL });
    smtp = await startSmtpCapture();
    mailing = await testApp(engine.db(), { clock, publicUrl: PUBLIC_URL, mail: { smtpUrl: smtp.url, from: `changeledger <changes@${domain}>` } });
    owner = await signedInOwner(t, 'Members');
  });
  afterAll(async () => {
    await t.close();
    await mailing.close();
    await smtp.close();
  });

  const members = (s: SignedIn) => `/api/organizations/${s.org.id}/members`;
  const call = (app: TestApp, s: SignedIn, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Json) =>
    app.main.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload }) });
  const invite = (s: SignedIn, payload: Json, app = t) => call(app, s, 'POST', members(s), payload);
  const events = async (orgId: string, action: string) => (await listAuditEvents(engine.db(), orgId, { action }, 50)).items;
  const useLink = (url: string) => t.main.inject({ method: 'POST', url: '/api/session/link', payload: { token: url.split('#')[1]! } });
  const listed = async (email: string) => ((await call(t, owner, 'GET', members(owner))).json().members as Json[]).find((m) => m.email === email);
  /** A person in the owner's organisation with a password, signed in. */
  const person = async (role: 'member' | 'admin' | 'owner') => {
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: fresh(), role, password: PASSWORD });
    return signIn(t, owner.org, user, PASSWORD);
  };

  it('invites by e-mail without SMTP: the link is in the answer once, works once, and everything is audited', async () => {
    const email = fresh();
    const before = await countRows(engine.db());
    const res = await invite(owner, { email, role: 'member', name: 'Bob Builder' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ delivery: 'shown', member: { email, name: 'Bob Builder', role: 'member', status: 'invited' } });
    expect(body.signInUrl).toMatch(new RegExp(`^${PUBLIC_URL}/signin/link#[A-Za-z0-9_-]{20,}$`));
    expect(Date.parse(body.expiresAt) - clock.now().getTime()).toBe(24 * 3_600_000);
    const after = await countRows(engine.db());
    expect(after.jobs).toBe(before.jobs); // nothing mailed
    expect(after.users! - before.users!).toBe(1);
    const [added] = await events(owner.org.id, 'membership.added');
    expect(added).toMatchObject({ actor: { kind: 'user', id: owner.user.id }, target: { id: body.member.userId }, data: { email, role: 'member' }, requestId: res.headers['x-request-id'] });
    const [link] = await events(owner.org.id, 'signin_link.created');
    expect(link).toMatchObject({ target: { id: body.member.userId }, data: { email, delivery: 'shown' }, requestId: res.headers['x-request-id'] });
    expect(JSON.stringify(link)).not.toContain(body.signInUrl.split('#')[1]);
    // The list never repeats the link.
    expect(JSON.stringify((await call(t, owner, 'GET', members(owner))).json())).not.toContain(body.signInUrl.split('#')[1]);

    const signedIn = await useLink(body.signInUrl);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { email, displayName: 'Bob Builder' }, organization: { id: owner.org.id }, role: 'member' });
    expect((await listed(email))).toMatchObject({ status: 'active', linkExpiresAt: null });
    expect((await useLink(body.signInUrl)).statusCode).toBe(401);
  });

  it('with SMTP, mails the link to the person and leaves it out of the answer', async () => {
    const email = fresh();
    const res = await invite(owner, { email, role: 'admin' }, mailing);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ delivery: 'mail', member: { email, role: 'admin', status: 'invited' } });
    expect(res.json()).not.toHaveProperty('signInUrl');
    expect((await events(owner.org.id, 'signin_link.created'))[0]).toMatchObject({ data: { email, delivery: 'mail' } });
    while ((await mailing.services.worker.runOnce()) > 0);
    const mail = smtp.messages.find((m) => m.envelope.to.includes(email));
    expect(mail?.mail.subject).toBe(`You are invited to ${owner.org.name} on changeledger`);
    const url = new RegExp(`${PUBLIC_URL}/signin/link#[A-Za-z0-9_-]+`).exec(mail!.mail.text ?? '')![0];
    const signedIn = await useLink(url);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { email }, role: 'admin' });
  });

  it('with SMTP, still shows the link for an address no mail server would take', async () => {
    const res = await invite(owner, { email: `someone.${n++}@example.com`, role: 'member' }, mailing);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ delivery: 'shown', signInUrl: expect.stringContaining('/signin/link#') });
  });

  it('adds an existing account to another organisation without a second account', async () => {
    const other = await signedInOwner(t, 'Elsewhere');
    const before = await countRows(engine.db());
    const res = await invite(owner, { email: other.user.email.toUpperCase(), role: 'member' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().member).toMatchObject({ userId: other.user.id, status: 'active' });
    expect((await countRows(engine.db())).users).toBe(before.users);
  });

  it('sends a new link when the old one expired; the new one supersedes any earlier link', async () => {
    const email = fresh();
    const first = (await invite(owner, { email, role: 'member' })).json();
    clock.advance(25 * 3_600_000);
    owner = await signIn(t, owner.org, owner.user, PASSWORD); // sessions last 12 hours
    expect(await listed(email)).toMatchObject({ status: 'link_expired', linkExpiresAt: null });
    const again = await call(t, owner, 'POST', `${members(owner)}/${first.member.userId}/sign-in-link`);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ delivery: 'shown', member: { status: 'invited' } });
    const third = (await call(t, owner, 'POST', `${members(owner)}/${first.member.userId}/sign-in-link`)).json();
    expect((await useLink(again.json().signInUrl)).statusCode).toBe(401);
    expect((await useLink(first.signInUrl)).statusCode).toBe(401);
    expect((await useLink(third.signInUrl)).statusCode).toBe(200);
    // Once they have signed in, a link shown to someone else would be a way into their account.
    const refused = await call(t, owner, 'POST', `${members(owner)}/${first.member.userId}/sign-in-link`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/signed in already/);
  });

  it('changes a role, audited, and the person has it on their next request', async () => {
    const bob = await person('member');
    const res = await call(t, owner, 'PATCH', `${members(owner)}/${bob.user.id}`, { role: 'admin' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ member: { userId: bob.user.id, role: 'admin' } });
    expect((await events(owner.org.id, 'membership.role_changed'))[0]).toMatchObject({
      actor: { id: owner.user.id }, target: { id: bob.user.id }, data: { email: bob.user.email, before: 'member', after: 'admin' },
    });
    expect((await call(t, bob, 'GET', '/api/session')).json().role).toBe('admin');
    expect((await call(t, bob, 'GET', members(owner))).statusCode).toBe(200);
  });

  it('keeps the last owner and keeps admins away from owners, writing nothing', async () => {
    const solo = await signedInOwner(t, 'Solo');
    const admin = await person('admin');
    const member = await person('member');
    const before = await countRows(engine.db());
    const refusals: Array<[SignedIn, 'POST' | 'PATCH' | 'DELETE' | 'GET', string, Json | undefined, number, RegExp]> = [
      [solo, 'PATCH', `${members(solo)}/${solo.user.id}`, { role: 'admin' }, 409, /last owner/],
      [solo, 'DELETE', `${members(solo)}/${solo.user.id}`, undefined, 409, /last owner/],
      [admin, 'PATCH', `${members(owner)}/${owner.user.id}`, { role: 'member' }, 403, /only an owner can change or remove an owner/],
      [admin, 'DELETE', `${members(owner)}/${owner.user.id}`, undefined, 403, /only an owner/],
      [admin, 'PATCH', `${members(owner)}/${member.user.id}`, { role: 'owner' }, 403, /only an owner can make someone an owner/],
      [admin, 'POST', members(owner), { email: fresh(), role: 'owner' }, 403, /only an owner can invite an owner/],
      [member, 'GET', members(owner), undefined, 403, /admin/],
      [member, 'POST', members(owner), { email: fresh(), role: 'member' }, 403, /admin/],
      [member, 'DELETE', `${members(owner)}/${admin.user.id}`, undefined, 403, /admin/],
    ];
    for (const [who, method, url, payload, status, message] of refusals) {
      const res = await call(t, who, method, url, payload);
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(status);
      expect(res.json().error).toMatch(message);
    }
    expect(await countRows(engine.db())).toEqual(before);
    // With a second owner the first may step down.
    const second = await invite(solo, { email: fresh(), role: 'owner' });
    expect(second.statusCode).toBe(201);
    expect((await call(t, solo, 'PATCH', `${members(solo)}/${solo.user.id}`, { role: 'admin' })).statusCode).toBe(200);
  });

  it('removes a member: sessions end, tokens are revoked for good, links expire; audited', async () => {
    const carol = await person('member');
    const token = await createToken(t, carol, ['changes:read']);
    const pipe = () => t.pipeline.inject({ url: '/api/changes', headers: { authorization: `Bearer ${token.secret}` } });
    expect((await pipe()).statusCode).toBe(200);
    const res = await call(t, owner, 'DELETE', `${members(owner)}/${carol.user.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect((await call(t, carol, 'GET', '/api/session')).statusCode).toBe(401);
    expect((await pipe()).statusCode).toBe(401);
    expect(await listed(carol.user.email)).toBeUndefined();
    expect((await events(owner.org.id, 'membership.removed'))[0]).toMatchObject({
      actor: { id: owner.user.id }, target: { id: carol.user.id }, data: { email: carol.user.email, role: 'member', sessionsEnded: 1, tokensRevoked: [token.id] },
    });
    expect((await events(owner.org.id, 'token.revoked'))[0]).toMatchObject({ target: { id: token.id }, data: { reason: 'owner removed from the organisation' } });
    // Invited back, the person starts without their old token.
    expect((await invite(owner, { email: carol.user.email, role: 'member' })).statusCode).toBe(201);
    expect((await pipe()).statusCode).toBe(401);
  });

  it('removing an approver takes them off the approver list, so coming back does not make them one again', async () => {
    const erin = await person('member');
    const approvers = `/api/organizations/${owner.org.id}/change-approvers`;
    const set = await call(t, owner, 'PUT' as 'PATCH', approvers, { userIds: [erin.user.id], criticalUserIds: [erin.user.id] });
    expect(set.statusCode, set.body).toBe(200);
    expect((await call(t, owner, 'DELETE', `${members(owner)}/${erin.user.id}`)).statusCode).toBe(204);
    const updates = await events(owner.org.id, 'settings.change_approvers_updated');
    expect(updates.find((e) => e.data.reason)).toMatchObject({ actor: { id: owner.user.id }, data: { removed: [erin.user.id], criticalRemoved: [erin.user.id], reason: 'member removed from the organisation' } });
    expect((await invite(owner, { email: erin.user.email, role: 'member' })).statusCode).toBe(201);
    const after = await call(t, owner, 'GET', `/api/organizations/${owner.org.id}/change-settings`);
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json().approvers.map((a: { userId: string }) => a.userId)).not.toContain(erin.user.id);
  });

  it('refuses bad input with a 4xx naming the field, writing nothing', async () => {
    const bob = await person('member');
    const before = await countRows(engine.db());
    const cases: Array<['POST' | 'PATCH', string, Json, number, string | undefined]> = [
      ['POST', members(owner), { email: 'bob@', role: 'member' }, 400, 'email'],
      ['POST', members(owner), { email: '', role: 'member' }, 400, 'email'],
      ['POST', members(owner), { email: fresh(), role: 'boss' }, 400, 'role'],
      ['POST', members(owner), { email: fresh() }, 400, 'role'],
      ['POST', members(owner), { email: fresh(), role: 'member', name: 'Two\nLines' }, 400, 'name'],
      ['POST', members(owner), { email: fresh(), role: 'member', team: 'x' }, 400, 'team'],
      ['POST', members(owner), { email: bob.user.email, role: 'member' }, 409, 'email'],
      ['PATCH', `${members(owner)}/${bob.user.id}`, { role: 'king' }, 400, 'role'],
      ['PATCH', `${members(owner)}/${bob.user.id}`, {}, 400, 'role'],
      ['PATCH', `${members(owner)}/usr_nobody`, { role: 'admin' }, 404, undefined],
      ['PATCH', '/api/me', { displayName: '   ' }, 400, 'displayName'],
      ['PATCH', '/api/me', { displayName: 'x'.repeat(201) }, 400, 'displayName'],
      ['PATCH', '/api/me', {}, 400, 'displayName'],
    ];
    for (const [method, url, payload, status, field] of cases) {
      const res = await call(t, owner, method, url, payload);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`).toBe(status);
      if (field) expect(res.json().field, res.body).toBe(field);
    }
    expect((await call(t, owner, 'DELETE', `${members(owner)}/usr_nobody`)).statusCode).toBe(404);
    expect((await call(t, owner, 'GET', `/api/organizations/org_other/members`)).statusCode).toBe(404);
    expect(await countRows(engine.db())).toEqual(before);
  });

  it('changes your display name, audited, and the approver list names you by it', async () => {
    const dana = await person('member');
    const res = await call(t, dana, 'PATCH', '/api/me', { displayName: '  Dana Decider ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ user: { id: dana.user.id, displayName: 'Dana Decider' } });
    expect((await call(t, dana, 'GET', '/api/session')).json().user.displayName).toBe('Dana Decider');
    expect((await events(owner.org.id, 'user.display_name_changed'))[0]).toMatchObject({
      actor: { id: dana.user.id }, target: { id: dana.user.id }, data: { before: dana.user.displayName, after: 'Dana Decider' },
    });
    const set = await call(t, owner, 'PUT' as 'PATCH', `/api/organizations/${owner.org.id}/change-approvers`, { userIds: [dana.user.id] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().approvers).toEqual([expect.objectContaining({ userId: dana.user.id, name: 'Dana Decider' })]);
    expect(await listed(dana.user.email)).toMatchObject({ name: 'Dana Decider' });
  });
});
