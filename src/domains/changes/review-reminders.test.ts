import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { startSmtpCapture, type SmtpCapture } from '../../../test/support/smtp-capture.js';
import { createToken, PASSWORD, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SettableClock } from '../../platform/clock.js';
import { listAuditEvents } from '../ledger/index.js';
import { REMINDER_MAX_AGE_MS, REVIEW_REMINDER_JOB } from './review-service.js';
import { claimReminders } from './review-store.js';

// The one reminder of a post-implementation review still missing 3 days after the change
// finished: the hourly job on the durable job table, a real SMTP server on loopback, the test clock.

const ESTATE = `
entities:
  - { key: "svc:web", kind: service, name: web, tier: standard }
`;
const PUBLIC_URL = 'https://changes.pir.dev';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachEngine('post-implementation review reminders', (engine) => {
  const clock = new SettableClock('2026-03-02T09:10:00Z');
  const domain = `pir-${Math.random().toString(36).slice(2, 8)}.dev`;
  const at = (name: string) => `${name}@${domain}`;
  let smtp: SmtpCapture;
  let t: TestApp;
  let owner: SignedIn;
  let mia: SignedIn;
  let token: string;

  const drain = async () => {
    while ((await t.services.worker.runOnce()) > 0);
  };
  const pipe = async (url: string, payload?: Json) => t.pipeline.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  /** mia's pipeline registers a change that starts now and finishes it at once with the outcome. */
  const ran = async (title: string, outcome: 'success' | 'rolled_back', extra: Json = {}) => {
    const r = await pipe('/api/changes', { title, components: [{ query: 'web' }], startNow: true, evidenceMinutes: 15, ...extra });
    expect(r.statusCode, r.body).toBe(201);
    const done = await pipe(`/api/changes/${r.json().change.id}/complete`, { outcome });
    expect(done.statusCode, done.body).toBe(200);
    return done.json().change as Json;
  };
  const reminders = async () => (await listAuditEvents(engine.db(), owner.org.id, { action: 'change.review_reminder_sent' }, 50)).items;
  const due = (title: string) => smtp.messages.filter((m) => m.mail.subject === `Review due: ${title}`);

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    t = await testApp(engine.db(), { clock, publicUrl: PUBLIC_URL, mail: { smtpUrl: smtp.url, from: `changeledger <changes@${domain}>` } });
    const created = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Reviews', email: at('olivia'), password: PASSWORD });
    owner = await signIn(t, created.org, created.owner, PASSWORD);
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: at('mia'), role: 'member', displayName: 'mia', password: PASSWORD });
    mia = await signIn(t, owner.org, user, PASSWORD);
    const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: ESTATE });
    expect(imp.statusCode, imp.body).toBe(200);
    const s = await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { approvalRequired: 'none' } });
    expect(s.statusCode, s.body).toBe(200);
    token = (await createToken(t, mia, ['changes:read', 'changes:write'], 'pipeline')).secret;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('reminds the owner and the change’s recipients once, more than 3 days after the finish, by the hourly job — audited, and never again', async () => {
    await engine.db().transaction((tx) => t.services.reviews.scheduleReminders(tx));
    const rolledBack = await ran('Deploy web 2.0', 'rolled_back', { recipients: [at('release')] });
    const emergency = await ran('Hotfix web', 'success', { emergency: true, emergencyReason: 'web returns 500s', incident: 'INC-42' });
    const quiet = await ran('Quiet deploy', 'success');
    // The emergency gets its review in time: it is never reminded.
    const written = await t.main.inject({ method: 'POST', url: `/api/changes/${emergency.id}/review`, headers: mia.headers, payload: { summary: 'Hotfix went out cleanly; root cause was a bad cache key.' } });
    expect(written.statusCode, written.body).toBe(201);
    // Another change finishes a day later: its own three days end a day after the first's.
    clock.advance(DAY);
    const later = await ran('Deploy web 2.1', 'rolled_back');

    // Just under three days after the first finish: nothing yet.
    clock.set(new Date(new Date(rolledBack.finishedAt).getTime() + 3 * DAY - 1));
    await drain();
    expect(smtp.messages.filter((m) => m.mail.subject?.startsWith('Review due:'))).toEqual([]);
    expect(await reminders()).toEqual([]);

    // The first run after the three days: one message to mia, one to the recipient.
    clock.advance(HOUR);
    await drain();
    const sent = due(rolledBack.title);
    expect(sent.map((m) => m.envelope.to.join(',')).sort()).toEqual([at('mia'), at('release')]);
    for (const m of sent) {
      expect(m.mail.text).toContain(`Change ${rolledBack.displayId} needs a post-implementation review: it was rolled back.`);
      expect(m.mail.text).toContain(`Write the review: ${PUBLIC_URL}/?view=changes&change=${rolledBack.id}\n`);
      expect(m.mail.html).toContain(`href="${PUBLIC_URL}/?view=changes&amp;change=${rolledBack.id}"`);
    }
    expect(smtp.recipients).not.toContain(at('olivia'));
    const [ev, ...more] = await reminders();
    expect(more).toEqual([]);
    expect(ev).toMatchObject({
      action: 'change.review_reminder_sent', target: { type: 'change', id: rolledBack.id }, source: 'scheduler',
      actor: { kind: 'system', name: 'changeledger scheduler' }, data: { reasons: ['it was rolled back'], finishedAt: rolledBack.finishedAt },
    });
    const row = await engine.db().query<{ review_reminded_at: Date | null }>('SELECT review_reminded_at FROM changes WHERE id = $1', [rolledBack.id]);
    expect(new Date(row.rows[0]!.review_reminded_at!).toISOString()).toBe(ev!.occurredAt);
    // The job keeps itself going: its next run is at the next full hour.
    const next = await engine.db().query<{ run_at: Date }>(`SELECT run_at FROM jobs WHERE kind = $1 AND status = 'pending'`, [REVIEW_REMINDER_JOB]);
    expect(next.rows.map((r) => new Date(r.run_at).getTime())).toEqual([Math.floor(clock.now().getTime() / HOUR) * HOUR + HOUR]);

    // A day on, the second change's three days are over; the first is not reminded again.
    clock.advance(DAY);
    await drain();
    clock.advance(2 * DAY);
    await drain();
    expect(due(rolledBack.title)).toHaveLength(2);
    expect(due(later.title).map((m) => m.envelope.to[0])).toEqual([at('mia')]);
    expect((await reminders()).map((e) => e.target.id)).toEqual([later.id, rolledBack.id]);
    expect(due(emergency.title)).toEqual([]);
    expect(due(quiet.title)).toEqual([]);
    // A review written after the reminder takes the change off the due list.
    const list = async () => (await t.pipeline.inject({ method: 'GET', url: '/api/reviews/due', headers: { authorization: `Bearer ${token}` } })).json().items.map((i: Json) => [i.title, i.overdue]);
    expect(await list()).toEqual([[rolledBack.title, true], [later.title, true]]);
    mia = await signIn(t, owner.org, mia.user, PASSWORD);
    expect((await t.main.inject({ method: 'POST', url: `/api/changes/${later.id}/review`, headers: mia.headers, payload: { summary: 'The 2.1 rollback was the schema guard working as intended.' } })).statusCode).toBe(201);
    expect(await list()).toEqual([[rolledBack.title, true]]);
  });

  it('a change that finished more than 30 days before the job first sees it is never reminded (an upgrade mails no backlog), and stays due', async () => {
    const old = await ran('Deploy web 1.9', 'rolled_back');
    // No run of the job for 31 days (a server stopped, or reviews new in this release).
    clock.advance(31 * DAY);
    await drain();
    expect(due(old.title)).toEqual([]);
    expect((await reminders()).map((e) => e.target.id)).not.toContain(old.id);
    const list = await t.pipeline.inject({ method: 'GET', url: '/api/reviews/due', headers: { authorization: `Bearer ${token}` } });
    expect(list.json().items.map((i: Json) => i.title)).toContain(old.title);
  });

  // Row locks only show on a real server (PGlite runs one transaction at a time).
  it.runIf(engine.name === 'postgres')('a second worker skips the changes a first one holds: no reminder is sent twice', async () => {
    const c = await ran('Deploy web 3.0', 'rolled_back');
    clock.advance(3 * DAY + HOUR);
    const finishedBefore = new Date(clock.now().getTime() - 3 * DAY).toISOString();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let claimedFirst: string[] = [];
    let signal!: () => void;
    const claimed = new Promise<void>((resolve) => (signal = resolve));
    const first = engine.db().transaction(async (tx) => {
      claimedFirst = (await claimReminders(tx, { finishedBefore, finishedAfter: new Date(clock.now().getTime() - REMINDER_MAX_AGE_MS).toISOString() }, 10)).map((x) => x.changeId);
      signal();
      await held;
    });
    await claimed;
    const second = await engine.db().transaction((tx) => t.services.reviews.sendReminders(tx));
    release();
    await first;
    expect(claimedFirst).toEqual([c.id]);
    expect(second).toEqual({ sent: 0, more: false });
    // The first worker only held the row: the next run sends the reminder, and the one after it nothing.
    await engine.db().transaction((tx) => t.services.reviews.sendReminders(tx));
    await engine.db().transaction((tx) => t.services.reviews.sendReminders(tx));
    await drain();
    expect(due(c.title)).toHaveLength(1);
  });
});
