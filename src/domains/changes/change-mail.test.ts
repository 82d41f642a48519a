import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { startSmtpCapture, type Captured, type SmtpCapture } from '../../../test/support/smtp-capture.js';
import { createToken, PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import { findJob } from '../../platform/jobs/job-queue.js';
import { retryDelayMs } from '../../platform/jobs/job.js';
import { MAIL_JOB } from '../../platform/mail/mail-outbox.js';
import { ChangeMail } from './change-mail.js';
import { findChange } from './change-store.js';

const ESTATE = `
entities:
  - { key: "svc:checkout-api", kind: service, name: checkout-api, tier: important }
  - { key: "svc:payments", kind: service, name: payments, tier: critical }
  - { key: "svc:untiered", kind: service, name: untiered }
  - { key: "svc:web", kind: service, name: web, tier: standard }
links:
  - { from: "svc:web", to: "svc:checkout-api", via: calls }
`;
const PUBLIC_URL = 'https://changes.acme.dev';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('change e-mails through a real SMTP server', (engine) => {
  const clock = new SettableClock(new Date());
  const domain = `acme-${Math.random().toString(36).slice(2, 8)}.dev`;
  const at = (name: string) => `${name}@${domain}`;
  let smtp: SmtpCapture;
  let t: TestApp;
  let owner: SignedIn;
  const people: Record<string, SignedIn> = {};
  let token: string;
  let n = 0;

  const api = (s: SignedIn) => ({
    post: async (url: string, payload?: unknown) => t.main.inject({ method: 'POST', url, headers: s.headers, ...(payload === undefined ? {} : { payload: payload as Json }) }),
    put: async (url: string, payload: unknown) => t.main.inject({ method: 'PUT', url, headers: s.headers, payload: payload as Json }),
  });
  const pipe = async (url: string, payload?: unknown) =>
    t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as Json }) });
  const register = async (body: Json) => {
    const title = `${body.title ?? 'Deploy'} #${++n}`;
    const r = await pipe('/api/changes', { components: [{ query: 'checkout-api' }], ...body, title });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().change as Json;
  };
  const drain = async (app = t) => {
    while ((await app.services.worker.runOnce()) > 0);
  };
  /** Sessions last 12 hours: after a jump in time everybody signs in again. */
  const signInAgain = async () => {
    owner = await signIn(t, owner.org, owner.user, PASSWORD);
    for (const [name, s] of Object.entries(people)) people[name] = await signIn(t, s.org, s.user, PASSWORD);
  };
  const mails = (subject: string) => smtp.messages.filter((m) => m.mail.subject === subject);
  const to = (ms: Captured[]) => ms.map((m) => m.envelope.to.join(',')).sort();
  const mailJobs = async (changeId: string) =>
    (await engine.db().query<{ id: string }>('SELECT id FROM jobs WHERE kind = $1 AND dedupe_key LIKE $2', [MAIL_JOB, `mail:${changeId}:%`])).rows.map((r) => r.id);

  beforeAll(async () => {
    smtp = await startSmtpCapture({ auth: { user: 'changeledger', pass: 'smtp-pass' } });
    t = await testApp(engine.db(), { clock, publicUrl: PUBLIC_URL, mail: { smtpUrl: smtp.url, from: `changeledger <changes@${domain}>` } });
    const created = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Mail', email: at('olivia'), password: PASSWORD });
    owner = await signIn(t, created.org, created.owner, PASSWORD);
    const members: Array<[string, string, 'member' | 'admin']> = [
      ['alice', at('alice'), 'member'], ['bob', at('bob'), 'member'], ['carol', at('carol'), 'member'], ['mia', at('mia'), 'member'],
      ['adam', at('adam'), 'admin'], ['xavier', `xavier.${domain}@example.com`, 'member'],
    ];
    for (const [name, email, role] of members) {
      const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email, role, displayName: name, password: PASSWORD });
      people[name] = await signIn(t, owner.org, user, PASSWORD);
    }
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    // mia registers through the pipeline (she is the requester) and is an approver herself; xavier's address is reserved.
    const ids = ['alice', 'bob', 'carol', 'mia', 'xavier'].map((p) => people[p]!.user.id);
    const set = await api(owner).put(`/api/organizations/${owner.org.id}/change-approvers`, { userIds: ids, criticalUserIds: [people.carol!.user.id] });
    expect(set.statusCode, set.body).toBe(200);
    token = (await createToken(t, people.mia!, ['changes:read', 'changes:write'], 'pipeline')).secret;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('asks each approver but the requester in a message of their own, with the approve link; a reserved address never reaches the server', async () => {
    const c = await register({ title: 'Deploy checkout-api', recipients: [at('release')] });
    await drain();
    const asked = mails(`Approval needed: ${c.title}`);
    expect(to(asked)).toEqual([at('alice'), at('bob'), at('carol')]);
    for (const m of asked) {
      expect(m.envelope.to).toHaveLength(1);
      expect(m.mail.to && !Array.isArray(m.mail.to) ? m.mail.to.value.map((v) => v.address) : null).toEqual(m.envelope.to);
      expect(m.mail.cc).toBeUndefined();
      expect(m.mail.bcc).toBeUndefined();
      expect(m.mail.from?.value[0]?.address).toBe(`changes@${domain}`);
      expect(m.mail.text).toContain(`Approve or reject: ${PUBLIC_URL}/?view=changes&change=${c.id}&approve=1`);
      expect(m.mail.text).toContain(`View details: ${PUBLIC_URL}/?view=changes&change=${c.id}\n`);
      expect(m.mail.html).toContain(`href="${PUBLIC_URL}/?view=changes&amp;change=${c.id}&amp;approve=1"`);
      expect(m.mail.text).toContain('checkout-api (service, svc:checkout-api)');
      expect(m.mail.text).toContain(`Requester: mia <${at('mia')}>`);
      expect(m.mail.text).toMatch(/Window: \d{4}-\d\d-\d\d \d\d:\d\d UTC – \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect(m.mail.text).not.toContain('critical approver');
      // Nobody learns who else was asked.
      for (const other of ['alice', 'bob', 'carol'].map(at).filter((a) => a !== m.envelope.to[0])) expect(m.mail.text).not.toContain(other);
    }
    expect(smtp.recipients).not.toContain(`xavier.${domain}@example.com`);
    expect(t.logs.filter((l) => l.includes('mail skipped: reserved test address') && l.includes(`xavier.${domain}@example.com`))).toHaveLength(1);
    // The recipients hear of decisions, not of requests.
    expect(smtp.recipients).not.toContain(at('release'));
  });

  it('says in a critical change’s request that it needs a critical approver, and tells the critical approver they are one', async () => {
    const c = await register({ title: 'Rotate payments keys', components: [{ query: 'payments' }] });
    await drain();
    const asked = mails(`Approval needed: ${c.title}`);
    expect(to(asked)).toEqual([at('alice'), at('bob'), at('carol')]);
    for (const m of asked) expect(m.mail.text).toContain('This change is critical: it needs the approval of a critical approver');
    expect(asked.find((m) => m.envelope.to[0] === at('carol'))!.mail.text).toContain('critical approver — you are one');
    expect(asked.find((m) => m.envelope.to[0] === at('alice'))!.mail.text).not.toContain('you are one');
  });

  it('mails the critical approvers when a classification makes a change critical — unless one approved already', async () => {
    const c = await register({ title: 'Untiered', components: [{ query: 'untiered' }] });
    const cl = await api(people.alice!).post(`/api/changes/${c.id}/classify`, { components: [{ key: 'svc:untiered', tier: 'critical' }] });
    expect(cl.statusCode, cl.body).toBe(200);
    await drain();
    const critical = mails(`Critical approval needed: ${c.title}`);
    expect(to(critical)).toEqual([at('carol')]);
    expect(critical[0]!.mail.text).toContain(`?view=changes&change=${c.id}&approve=1`);
    expect(critical[0]!.mail.text).toContain('cannot be approved without a critical approver, and you are one');
    // Once a critical approver has approved, the same news would write nothing.
    expect((await api(people.carol!).post(`/api/changes/${c.id}/approve`)).statusCode).toBe(200);
    const after = (await findChange(engine.db(), owner.org.id, c.id))!;
    const mail = new ChangeMail({ clock, link: (x, approve) => t.services.changes.link(x, approve) });
    expect(await mail.letter(engine.db(), after, 'critical_needed')).toBeNull();
  });

  it('mails the requester and the change’s recipients who approved, and who rejected with the reason', async () => {
    const a = await register({ title: 'Approve me', recipients: [at('release')] });
    await api(people.alice!).post(`/api/changes/${a.id}/approve`);
    expect((await api(people.bob!).post(`/api/changes/${a.id}/approve`)).json().status).toBe('approved');
    const r = await register({ title: 'Reject me', recipients: [at('release'), at('MIA')] });
    expect((await api(people.carol!).post(`/api/changes/${r.id}/reject`, { reason: 'not during the sale' })).json().status).toBe('rejected');
    await drain();
    const approved = mails(`Approved: ${a.title}`);
    expect(to(approved)).toEqual([at('mia'), at('release')]);
    expect(approved[0]!.mail.text).toContain('was approved by bob (2 approvals: alice, bob)');
    const rejected = mails(`Rejected: ${r.title}`);
    // mia once, though she is both the requester and a recipient.
    expect(to(rejected)).toEqual([at('mia'), at('release')]);
    for (const m of rejected) {
      expect(m.mail.text).toContain('was rejected by carol');
      expect(m.mail.text).toContain('Reason: not during the sale');
    }
    expect(smtp.messages.filter((m) => m.mail.subject?.endsWith(r.title) && m.envelope.to[0] === at('carol')).map((m) => m.mail.subject)).toEqual([`Approval needed: ${r.title}`]);
  });

  it('asks the approvers and the owners and admins to map names a pipeline gave that nobody knows', async () => {
    const c = await register({ title: 'Wallet migration', components: [{ query: 'wallet-db' }, { query: 'web' }] });
    expect(c.status).toBe('pending_mapping');
    await drain();
    const asked = mails(`Mapping needed: ${c.title}`);
    expect(to(asked)).toEqual([at('adam'), at('alice'), at('bob'), at('carol'), at('mia'), at('olivia')]);
    expect(asked[0]!.mail.text).toContain('wallet-db — no candidate');
    expect(asked[0]!.mail.text).toContain(`Map the components: ${PUBLIC_URL}/?view=changes&change=${c.id}`);
    expect(asked[0]!.mail.text).not.toContain('approve=1');
  });

  it('never mails the same person twice for one occasion, however often the news is told', async () => {
    const c = await register({ title: 'Told twice' });
    const before = await mailJobs(c.id);
    expect(before).toHaveLength(4);
    const change = (await findChange(engine.db(), owner.org.id, c.id))!;
    const mail = new ChangeMail({ clock, link: (x, approve) => t.services.changes.link(x, approve) });
    await engine.db().transaction((tx) => mail.notify(tx, change, 'approval_needed'));
    expect(await mailJobs(c.id)).toEqual(before);
    await drain();
    expect(mails(`Approval needed: ${c.title}`)).toHaveLength(3);
  });

  it('keeps a message the server answers with 4xx and sends it on a later attempt', async () => {
    smtp.fail({ code: 451, at: 'rcpt', text: 'Greylisted' });
    let c: Json;
    try {
      c = await register({ title: 'Greylisted' });
      await drain();
    } finally {
      smtp.fail(null);
    }
    expect(mails(`Approval needed: ${c.title}`)).toHaveLength(0);
    const jobs = await Promise.all((await mailJobs(c.id)).map(async (id) => (await findJob(engine.db(), id))!));
    const tried = jobs.filter((j) => j.payload.to !== `xavier.${domain}@example.com`);
    expect(tried.map((j) => [j.status, j.attempts])).toEqual([['pending', 1], ['pending', 1], ['pending', 1]]);
    for (const j of tried) expect(j.lastError).toContain('451');
    clock.advance(Math.max(...tried.map((j) => retryDelayMs(1, j.id))));
    await drain();
    expect(to(mails(`Approval needed: ${c.title}`))).toEqual([at('alice'), at('bob'), at('carol')]);
  });

  it('sends nothing without SMTP configured, and logs a line for each message it skips', async () => {
    const silent = await testApp(engine.db(), { clock, publicUrl: PUBLIC_URL, mail: null });
    try {
      const sent = smtp.messages.length;
      const r = await silent.pipeline.inject({ method: 'POST', url: '/api/changes', headers: { authorization: `Bearer ${token}` }, payload: { title: 'No SMTP here', components: [{ query: 'web' }] } });
      expect(r.statusCode, r.body).toBe(201);
      await drain(silent);
      expect(smtp.messages.length).toBe(sent);
      for (const who of ['alice', 'bob', 'carol']) expect(silent.logs.filter((l) => l.includes('mail skipped: no SMTP configured') && l.includes(at(who)))).toHaveLength(1);
      expect(silent.logs.some((l) => l.includes('"level":50'))).toBe(false);
    } finally {
      await silent.close();
    }
  });

  it('mails which deadline passed when a change expires', async () => {
    const c = await register({ title: 'Nobody looked', recipients: [at('release')] });
    clock.advance(1440 * 60_000 + 1);
    await drain();
    await signInAgain();
    const expired = mails(`Expired: ${c.title}`);
    expect(to(expired)).toEqual([at('mia'), at('release')]);
    expect(expired[0]!.mail.text).toMatch(/It was not approved by its approval deadline, .* UTC \(0 of 2 approvals\)/);
  });

  it('mails the report to the requester, the recipients and the organisation’s completion list', async () => {
    const s = await api(owner).put(`/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'none', completionRecipients: [at('cab'), 'board@example.net'] });
    expect(s.statusCode, s.body).toBe(200);
    const c = await register({ title: 'Nightly', components: [{ query: 'web' }], startNow: true, evidenceMinutes: 15, recipients: [at('release')] });
    expect((await pipe(`/api/changes/${c.id}/complete`)).statusCode).toBe(200);
    clock.advance(15 * 60_000);
    await drain();
    const reported = mails(`Reported: ${c.title} — impact unknown`);
    expect(to(reported)).toEqual([at('cab'), at('mia'), at('release')]);
    expect(reported[0]!.mail.text).toContain('Impact unknown');
    expect(reported[0]!.mail.text).toContain(`View the report: ${PUBLIC_URL}/?view=changes&change=${c.id}`);
    expect(smtp.recipients).not.toContain('board@example.net');
  });
  it('asks the designated approvers but the requester to decide on an escalated rollback, with the reason the news carries and the link', async () => {
    expect((await api(owner).put(`/api/organizations/${owner.org.id}/change-settings`, { approvalRequired: 'none' })).statusCode).toBe(200);
    const c = await register({ title: 'Failed migration', components: [{ query: 'web' }], startNow: true, recipients: [at('release')] });
    expect((await pipe(`/api/changes/${c.id}/complete`, { outcome: 'partial' })).statusCode).toBe(200);
    const change = (await findChange(engine.db(), owner.org.id, c.id))!;
    const mail = new ChangeMail({ clock, link: (x, approve) => t.services.changes.link(x, approve) });
    const reason = 'the change failed on a critical service and its rollback is L3: two people release it';
    await engine.db().transaction((tx) => mail.notify(tx, change, 'rollback_escalated', { reason }));
    await drain();
    const asked = mails(`Rollback decision needed: ${c.title}`);
    expect(to(asked)).toEqual([at('alice'), at('bob'), at('carol')]);
    for (const m of asked) {
      expect(m.mail.text).toContain(`Why it needs you: ${reason}`);
      expect(m.mail.text).toContain(`Decide on the rollback: ${PUBLIC_URL}/?view=changes&change=${c.id}\n`);
    }
    expect(asked.find((m) => m.envelope.to[0] === at('carol'))!.mail.text).toContain('You are a critical approver.');
    expect(smtp.messages.filter((m) => m.mail.subject === `Rollback decision needed: ${c.title}` && m.envelope.to.includes(at('release')))).toEqual([]);
  });

  it('reminds the requester and the recipients of a review due, with the reasons the rule finds when the news carries none — once, however often told', async () => {
    const c = await register({ title: 'Rolled back', components: [{ query: 'web' }], startNow: true, recipients: [at('release')] });
    expect((await pipe(`/api/changes/${c.id}/abort`)).json().change.outcome).toBe('rolled_back');
    const change = (await findChange(engine.db(), owner.org.id, c.id))!;
    const mail = new ChangeMail({ clock, link: (x, approve) => t.services.changes.link(x, approve) });
    await engine.db().transaction((tx) => mail.notify(tx, change, 'review_due'));
    await engine.db().transaction((tx) => mail.notify(tx, change, 'review_due'));
    await drain();
    const reminded = mails(`Review due: ${c.title}`);
    expect(to(reminded)).toEqual([at('mia'), at('release')]);
    expect(reminded[0]!.mail.text).toContain(`Change ${c.displayId} needs a post-implementation review: it was rolled back.`);
    expect(reminded[0]!.mail.text).toContain(`Write the review: ${PUBLIC_URL}/?view=changes&change=${c.id}\n`);
  });

  // Last in the file: it plugs its own reporter into the shared app's change service.
  it('mails a report written with its forms as itself: the HTML body, the text alternative, the CSV attached', async () => {
    const html = '<!doctype html><html><head><style>h1{color:#123}</style></head><body><h1>Report of Forms</h1><p>Rules significant · AI minor</p></body></html>\n';
    const csv = 'section,subject,subject_label\r\nred,service:svc:web,web\r\n';
    t.services.changes.setReporter({
      horizonReached: async (tx, ctx, ch) => {
        await t.services.changes.recordReport(tx, ctx, ch.id, ch.evaluateAt!, {
          impact: 'significant', aiImpact: 'minor', rule: 'component_moved', summary: 'Impact significant: web moved.', body: { schema: 1 },
          verdict: { impact: 'significant' }, ai: { status: 'done', tier: 'minor' }, html, textBody: 'Report of Forms\nRules significant · AI minor\n', csv,
        });
      },
    });
    const c = await register({ title: 'Forms', components: [{ query: 'web' }], startNow: true, evidenceMinutes: 15, recipients: [at('release')] });
    expect((await pipe(`/api/changes/${c.id}/complete`)).statusCode).toBe(200);
    clock.advance(15 * 60_000);
    await drain();
    const reported = mails(`Reported: ${c.title} — impact significant, AI minor`);
    expect(to(reported)).toEqual([at('cab'), at('mia'), at('release')]);
    for (const m of reported) {
      expect(m.mail.html).toContain('<h1>Report of Forms</h1>');
      expect(m.mail.text).toBe('Report of Forms\nRules significant · AI minor\n');
      expect(m.mail.attachments.map((a) => [a.filename, a.contentType, a.content.toString('utf8')])).toEqual([[`change-${c.displayId}-v1.csv`, 'text/csv', csv]]);
    }
  });
});
