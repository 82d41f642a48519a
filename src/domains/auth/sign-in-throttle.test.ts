import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { sha256Hex } from '../../platform/crypto/tokens.js';
import { listAuditEvents } from '../ledger/index.js';
import { waitAfter } from './throttle-schedule.js';

describeEachEngine('sign-in throttling', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let n = 0;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Throttled');
  });
  afterAll(async () => t.close());

  /** A new member with a password, and an address of their own, so tests do not share counters. */
  const person = async () => {
    n += 1;
    const email = `p${n}.${Math.random().toString(36).slice(2, 8)}@throttle.test`;
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email, role: 'member', password: PASSWORD });
    return { user, email, address: `203.0.113.${n}` };
  };
  const signInFrom = (app: TestApp['main'], address: string, email: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/session', remoteAddress: address, payload: { email, password } });
  const answer = (res: Awaited<ReturnType<typeof signInFrom>>) => ({ status: res.statusCode, body: res.json() as unknown, retryAfter: res.headers['retry-after'] });
  const throttledEvents = async () => (await listAuditEvents(engine.db(), owner.org.id, { action: 'auth.signin_throttled' }, 100)).items;

  it('after 5 wrong passwords the next attempt, even the right password, is 429 with Retry-After; the wait doubles; a success clears it', async () => {
    const p = await person();
    for (let i = 0; i < 5; i++) expect((await signInFrom(t.main, p.address, p.email, 'wrong password!')).statusCode).toBe(401);
    const held = await signInFrom(t.main, p.address, p.email, PASSWORD);
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBe('30');
    expect(held.json().error).toBe('too many failed attempts; try again in 30 s');
    expect(held.cookies).toEqual([]);
    const [ev] = (await throttledEvents()).filter((e) => e.target.id === p.user.id);
    expect(ev).toMatchObject({ actor: { kind: 'system', name: 'anonymous' }, data: { method: 'password', email: p.email, address: p.address, retryAfterSeconds: 30, waitingOn: ['account'], counters: { account: 5, address: 5 } } });

    t.clock.advance(30_000);
    expect((await signInFrom(t.main, p.address, p.email, 'wrong again!!')).statusCode).toBe(401);
    const longer = await signInFrom(t.main, p.address, p.email, PASSWORD);
    expect([longer.statusCode, longer.headers['retry-after']]).toEqual([429, '60']);
    t.clock.advance(60_000);
    expect((await signInFrom(t.main, p.address, p.email, PASSWORD)).statusCode).toBe(200);
    // The success cleared the account's counter: the next wrong password is a plain 401 again.
    expect((await signInFrom(t.main, `198.18.0.${n}`, p.email, 'wrong password!')).statusCode).toBe(401);
    expect((await signInFrom(t.main, `198.18.0.${n}`, p.email, PASSWORD)).statusCode).toBe(200);
  });

  it('an unknown e-mail gets the same answers at the same attempts', async () => {
    const p = await person();
    const unknown = `nobody.${p.email}`;
    const known: unknown[] = [];
    const stranger: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      known.push(answer(await signInFrom(t.main, p.address, p.email, 'wrong password!')));
      stranger.push(answer(await signInFrom(t.main, `198.51.100.${n}`, unknown, 'wrong password!')));
    }
    expect(stranger).toEqual(known);
    expect(known.map((a) => (a as { status: number }).status)).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('an unknown e-mail costs a password hash like a known one', async () => {
    const p = await person();
    const time = async (email: string, address: string) => {
      const start = performance.now();
      expect((await signInFrom(t.main, address, email, 'wrong password!')).statusCode).toBe(401);
      return performance.now() - start;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so a busy machine slows both sides alike; the median drops the odd slow one.
    // Two known people, three failures each: below the account's threshold.
    const q = await person();
    for (let i = 0; i < 6; i++) {
      known.push(await time(i % 2 === 0 ? p.email : q.email, `192.0.2.${i + 10}`));
      unknown.push(await time(`ghost${i}.${p.email}`, `192.0.2.${i + 20}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // scrypt costs tens of milliseconds; without the dummy hash an unknown e-mail answers in about
    // one, some 2 % of a known one's time. A quarter leaves a wide margin for a loaded machine.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.25);
  });

  it('per address: 20 failures over many e-mails hold that address, and only it; the known account is audited', async () => {
    const p = await person();
    const address = '198.51.100.200';
    for (let i = 0; i < 19; i++) expect((await signInFrom(t.main, address, `guess${i}.${p.email}`, 'wrong password!')).statusCode).toBe(401);
    expect((await signInFrom(t.main, address, p.email, 'wrong password!')).statusCode).toBe(401);
    const held = await signInFrom(t.main, address, owner.user.email, PASSWORD);
    expect([held.statusCode, held.headers['retry-after']]).toEqual([429, '30']);
    expect((await signInFrom(t.main, '198.51.100.201', owner.user.email, PASSWORD)).statusCode).toBe(200);
    const [ev] = (await throttledEvents()).filter((e) => e.target.id === p.user.id);
    expect(ev).toMatchObject({ data: { method: 'password', waitingOn: ['address'], counters: { account: 1, address: 20 }, retryAfterSeconds: 30 } });
  });

  it('behind a trusted proxy each client is counted by its X-Forwarded-For; from anyone else the header is ignored', async () => {
    const behind = await testApp(engine.db(), { clock: t.clock, trustProxy: ['127.0.0.1'] });
    try {
      const via = (app: TestApp['main'], peer: string, client: string, email: string, password: string) =>
        app.inject({ method: 'POST', url: '/api/session', remoteAddress: peer, headers: { 'x-forwarded-for': client }, payload: { email, password } });
      for (let i = 0; i < 20; i++) expect((await via(behind.main, '127.0.0.1', '198.51.100.150', `fwd${i}@throttle.test`, 'wrong password!')).statusCode).toBe(401);
      // The proxy's other clients still sign in; the one that failed 20 times waits.
      expect((await via(behind.main, '127.0.0.1', '198.51.100.151', owner.user.email, PASSWORD)).statusCode).toBe(200);
      expect((await via(behind.main, '127.0.0.1', '198.51.100.150', owner.user.email, PASSWORD)).statusCode).toBe(429);
      // A peer that is not the named proxy cannot pick the address it is counted under.
      for (let i = 0; i < 20; i++) expect((await via(behind.main, '192.0.2.99', `203.0.113.${100 + i}`, `spoof${i}@throttle.test`, 'wrong password!')).statusCode).toBe(401);
      expect((await via(behind.main, '192.0.2.99', '203.0.113.250', owner.user.email, PASSWORD)).statusCode).toBe(429);
      // Without a trusted proxy (the default) the header counts for nothing either.
      expect((await via(t.main, '192.0.2.98', '198.51.100.151', owner.user.email, PASSWORD)).statusCode).toBe(200);
    } finally {
      await behind.close();
    }
  });

  it('an IPv6 address is held by its /64', async () => {
    for (let i = 0; i < 20; i++) expect((await signInFrom(t.main, `2001:db8:5:6::${i + 1}`, `v6-${i}@throttle.test`, 'wrong password!')).statusCode).toBe(401);
    expect((await signInFrom(t.main, '2001:db8:5:6:ffff::1', owner.user.email, PASSWORD)).statusCode).toBe(429);
    expect((await signInFrom(t.main, '2001:db8:5:7::1', owner.user.email, PASSWORD)).statusCode).toBe(200);
  });

  it('the counters are shared by every server on the database', async () => {
    const p = await person();
    const other = await testApp(engine.db(), { clock: t.clock });
    try {
      for (const app of [t.main, other.main, t.main, other.main, t.main]) expect((await signInFrom(app, p.address, p.email, 'wrong password!')).statusCode).toBe(401);
      expect((await signInFrom(other.main, p.address, p.email, PASSWORD)).statusCode).toBe(429);
      expect((await signInFrom(t.main, p.address, p.email, PASSWORD)).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('failures at the same moment are each counted once (one atomic upsert per failure)', async () => {
    const p = await person();
    const other = await testApp(engine.db(), { clock: t.clock });
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, (_x, i) => signInFrom(i % 2 ? other.main : t.main, p.address, p.email, 'wrong password!')));
      // Each checks before it fails, so all are normally answered 401; a late one may already wait.
      const failed = answers.filter((a) => a.statusCode === 401).length;
      expect(answers.every((a) => a.statusCode === 401 || a.statusCode === 429)).toBe(true);
      expect(failed).toBeGreaterThanOrEqual(5);
      const row = await engine.db().query<{ failures: number }>("SELECT failures FROM auth_throttles WHERE scope = 'account' AND subject = $1", [sha256Hex(p.email.toLowerCase())]);
      expect(Number(row.rows[0]!.failures)).toBe(failed);
      const held = await signInFrom(t.main, p.address, p.email, PASSWORD);
      expect([held.statusCode, held.headers['retry-after']]).toEqual([429, String(waitAfter('account', failed))]);
    } finally {
      await other.close();
    }
  });

  it('one-time links: 20 unknown links from one address hold it; a live link waits too and is not used up', async () => {
    const address = '198.51.100.77';
    const { org, owner: fresh } = await t.services.auth.createOrganizationWithOwner(testCtx, { name: 'Linked', email: `linked${Math.random().toString(36).slice(2)}@throttle.test` });
    const token = await t.services.auth.createSignInLink(testCtx, org, fresh.email);
    const link = (value: string) => t.main.inject({ method: 'POST', url: '/api/session/link', remoteAddress: address, payload: { token: value } });
    for (let i = 0; i < 20; i++) expect((await link(`not-a-link-${i}`)).statusCode).toBe(401);
    const held = await link(token);
    expect([held.statusCode, held.headers['retry-after']]).toEqual([429, '30']);
    t.clock.advance(30_000);
    expect((await link(token)).statusCode).toBe(200);
  });

  it('password changes: 5 wrong current passwords make the next wait, audited as a password change', async () => {
    const p = await person();
    const session = await signIn(t, owner.org, p.user, PASSWORD);
    const change = (currentPassword: string) => t.main.inject({ method: 'PUT', url: '/api/me/password', remoteAddress: p.address, headers: session.headers, payload: { currentPassword, newPassword: 'a brand new passphrase' } });
    for (let i = 0; i < 5; i++) {
      const res = await change('not my password');
      expect([res.statusCode, res.json().field]).toEqual([400, 'currentPassword']);
    }
    const held = await change(PASSWORD);
    expect([held.statusCode, held.headers['retry-after']]).toEqual([429, '30']);
    const [ev] = (await throttledEvents()).filter((e) => e.target.id === p.user.id);
    expect(ev).toMatchObject({ actor: { kind: 'user', id: p.user.id }, data: { method: 'password_change', waitingOn: ['account'] } });
    // The same account counter holds its password sign-in too.
    expect((await signInFrom(t.main, '192.0.2.99', p.email, PASSWORD)).statusCode).toBe(429);
    t.clock.advance(30_000);
    expect((await change(PASSWORD)).statusCode).toBe(204);
  });
});
