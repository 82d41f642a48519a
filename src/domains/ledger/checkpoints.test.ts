import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { startReceiver } from '../../../test/support/receiver.js';
import { createToken, PASSWORD, signedInOwner, signIn, testApp, testCtx, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { checkpointSignedBy, parseCheckpoint, readVerifierKey } from './checkpoint-note.js';
import { CHECKPOINT_JOB } from './checkpoint-service.js';

type Cp = { id: string; seq: number; hash: string; signedAt: string; keyId: string; note: string };

describeEachEngine('signed checkpoints of the ledger', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let member: SignedIn;
  let witness: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    witness = await startReceiver({ status: 202 });
    t = await testApp(engine.db(), { checkpointWitnessUrl: `${witness.url}/witness` });
    owner = await signedInOwner(t, 'Checkpointed');
    const { user } = await t.services.auth.addMember(testCtx, { org: owner.org.slug, email: `m-${owner.org.slug}@acme.dev`, role: 'member', displayName: 'M', password: PASSWORD });
    member = await signIn(t, owner.org, user, PASSWORD);
    // As every server start does.
    await t.services.db.transaction((tx) => t.services.checkpoints.scheduleHourly(tx));
  });
  afterAll(async () => {
    await t.close();
    await witness.close();
  });
  const head = async () => (await t.main.inject({ url: '/api/audit/verify', headers: owner.headers })).json() as { head: { seq: number; hash: string } };
  const list = async (s: SignedIn = owner) => (await t.main.inject({ url: '/api/audit/checkpoints', headers: s.headers })).json() as { items: Cp[] };
  /** The hourly job, run as the worker would at the top of the next hour. */
  async function runHourly(): Promise<void> {
    t.clock.advance(3_600_000);
    while ((await t.services.worker.runOnce()) > 0) { /* until nothing is due */ }
  }

  it('serves the public key to anyone, as JSON and as the PEM openssl reads', async () => {
    const json = (await t.pipeline.inject({ url: '/api/audit/checkpoint-key' })).json() as { name: string; keyId: string; pem: string; verifierKey: string };
    expect(json.name).toBe('changeledger.test');
    expect(createPublicKey(json.pem).asymmetricKeyType).toBe('ed25519');
    expect(readVerifierKey(json.verifierKey).name).toBe('changeledger.test');
    const pem = await t.main.inject({ url: '/api/audit/checkpoint-key?format=pem' });
    expect(pem.headers['content-type']).toMatch(/^text\/plain/);
    expect(pem.body).toBe(json.pem);
  });

  it('signs the head on request (owners and admins), lists it newest first, and posts it to the witness', async () => {
    expect((await t.main.inject({ method: 'POST', url: '/api/audit/checkpoints', headers: member.headers })).statusCode).toBe(403);
    const res = await t.main.inject({ method: 'POST', url: '/api/audit/checkpoints', headers: owner.headers });
    expect(res.statusCode).toBe(201);
    const cp = res.json() as Cp;
    expect({ seq: cp.seq, hash: cp.hash }).toEqual((await head()).head);
    const note = parseCheckpoint(cp.note);
    expect(note).toMatchObject({ origin: `changeledger.test/${owner.org.id}`, seq: cp.seq, hash: cp.hash, organisation: owner.org.slug, time: cp.signedAt });
    const key = readVerifierKey((await t.main.inject({ url: '/api/audit/checkpoint-key' })).json<{ verifierKey: string }>().verifierKey);
    expect(checkpointSignedBy(note, { name: key.name!, publicKey: key.publicKey })).toBe(true);
    // A member reads them; the newest is first.
    expect((await list(member)).items[0]).toEqual(cp);

    while ((await t.services.worker.runOnce()) > 0) { /* the witness post */ }
    const posted = witness.received.find((r) => r.path === '/witness' && r.raw.toString('utf8') === cp.note);
    expect(posted?.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('makes one an hour only while the head moves', async () => {
    const before = (await list()).items.length;
    await runHourly();
    // Nothing was written since the last checkpoint: no new one.
    expect((await list()).items.length).toBe(before);
    await createToken(t, owner, ['audit:read'], 'moves-the-head');
    await runHourly();
    const after = (await list()).items;
    expect(after.length).toBe(before + 1);
    expect({ seq: after[0]!.seq, hash: after[0]!.hash }).toEqual((await head()).head);
    // And the next hour's run is waiting.
    const next = await t.services.db.query<{ n: string }>("SELECT count(*) AS n FROM jobs WHERE kind = $1 AND status = 'pending'", [CHECKPOINT_JOB]);
    expect(Number(next.rows[0]!.n)).toBe(1);
  });

  it('pages with a cursor and refuses one it did not give out', async () => {
    await t.main.inject({ method: 'POST', url: '/api/audit/checkpoints', headers: owner.headers });
    const all = (await list()).items.map((c) => c.id);
    const first = (await t.main.inject({ url: '/api/audit/checkpoints?limit=1', headers: owner.headers })).json() as { items: Cp[]; nextCursor: string };
    const second = (await t.main.inject({ url: `/api/audit/checkpoints?limit=1&cursor=${first.nextCursor}`, headers: owner.headers })).json() as { items: Cp[] };
    expect([first.items[0]!.id, second.items[0]!.id]).toEqual(all.slice(0, 2));
    const bad = await t.main.inject({ url: '/api/audit/checkpoints?cursor=ckp_nope', headers: owner.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'cursor' });
  });

  it('signs with one key on every replica of the database: the key is kept sealed with the data key', async () => {
    const replica = await testApp(t.services.db, { dataKey: t.dataKey });
    try {
      const here = (await t.main.inject({ url: '/api/audit/checkpoint-key' })).json<{ keyId: string }>();
      const there = (await replica.main.inject({ url: '/api/audit/checkpoint-key' })).json<{ keyId: string }>();
      expect(there.keyId).toBe(here.keyId);
      const sealed = await t.services.db.query<{ s: string }>('SELECT private_key_sealed AS s FROM checkpoint_signing_key');
      expect(sealed.rows[0]!.s).toMatch(/^v1\./);
      expect(sealed.rows[0]!.s).not.toMatch(/PRIVATE KEY/);
    } finally {
      await replica.close();
    }
  });

  it('keeps checkpoints append-only at the engine', async () => {
    await expect(t.services.db.query("UPDATE audit_checkpoints SET seq = 0 WHERE org_id = $1", [owner.org.id])).rejects.toThrow(/append-only/);
    await expect(t.services.db.query('DELETE FROM audit_checkpoints WHERE org_id = $1', [owner.org.id])).rejects.toThrow(/append-only/);
  });
});
