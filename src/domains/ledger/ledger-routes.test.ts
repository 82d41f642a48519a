import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/support/engines.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

describeEachEngine('the audit API', (engine) => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  beforeAll(async () => {
    t = await testApp(engine.db());
    owner = await signedInOwner(t, 'Audited');
    other = await signedInOwner(t, 'Elsewhere');
    for (const name of ['one', 'two', 'three']) await createToken(t, owner, ['audit:read'], name);
  });
  afterAll(async () => t.close());
  type Page = { items: Array<{ seq: number; action: string; occurredAt: string; data: Record<string, unknown> }>; nextCursor: string | null };
  const get = async (s: SignedIn, qs: string) => t.main.inject({ url: `/api/audit${qs}`, headers: s.headers });

  it('lists only the caller’s organisation, newest first, with times in UTC ending in Z', async () => {
    const page = (await get(owner, '')).json() as Page;
    expect(page.items.map((e) => e.seq)).toEqual([...page.items.map((e) => e.seq)].sort((a, b) => b - a));
    expect(page.items.every((e) => e.occurredAt.endsWith('Z'))).toBe(true);
    const theirs = (await get(other, '?action=token.')).json() as Page;
    expect(theirs.items).toHaveLength(0);
  });

  it('pages with a cursor without losing or repeating an event', async () => {
    const all = ((await get(owner, '?limit=500')).json() as Page).items.map((e) => e.seq);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = (await get(owner, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json();
      seen.push(...page.items.map((e) => e.seq));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it('filters by action prefix and a relative window', async () => {
    const tokens = (await get(owner, '?action=token.&since=1h')).json() as Page;
    expect(tokens.items.map((e) => e.data.name)).toEqual(['three', 'two', 'one']);
    t.clock.advance(2 * 3_600_000);
    expect(((await get(owner, '?action=token.&since=1h')).json() as Page).items).toHaveLength(0);
    t.clock.advance(-2 * 3_600_000);
  });

  it('refuses a malformed window or cursor with 400 naming the field', async () => {
    expect((await get(owner, '?since=yesterday')).json()).toMatchObject({ field: 'since' });
    expect((await get(owner, '?cursor=bm9wZQ')).json()).toMatchObject({ field: 'cursor' });
    expect((await get(owner, '?limit=0')).json()).toMatchObject({ field: 'limit' });
    expect((await get(owner, '?colour=red')).json()).toMatchObject({ field: 'colour' });
  });

  it('exports every matching event as NDJSON, then a trailer that says the export was filtered and names the head', async () => {
    const res = await t.main.inject({ url: '/api/audit/export?action=token.created', headers: owner.headers });
    expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = res.body.trim().split('\n').map((l) => JSON.parse(l) as { action?: string; hash?: string; trailer?: Record<string, unknown> });
    const trailer = lines.pop()!.trailer;
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.action === 'token.created' && /^[0-9a-f]{64}$/.test(l.hash!))).toBe(true);
    const { head } = (await t.main.inject({ url: '/api/audit/verify', headers: owner.headers })).json() as { head: unknown };
    expect(trailer).toMatchObject({ format: 'changeledger.audit-export.v1', organization: { id: owner.org.id, slug: owner.org.slug }, head, events: 3, complete: false, filter: { action: 'token.created' } });
  });

  it('exports the whole chain newest first when nothing filters it', async () => {
    const res = await t.main.inject({ url: '/api/audit/export', headers: owner.headers });
    const lines = res.body.trim().split('\n').map((l) => JSON.parse(l) as { seq?: number; trailer?: { head: { seq: number }; events: number; complete: boolean } });
    const trailer = lines.pop()!.trailer!;
    expect(trailer.complete).toBe(true);
    expect(lines.map((l) => l.seq)).toEqual(Array.from({ length: trailer.head.seq }, (_, i) => trailer.head.seq - i));
    expect(trailer.events).toBe(lines.length);
  });

  it('verifies the chain on request', async () => {
    const res = (await t.main.inject({ url: '/api/audit/verify', headers: owner.headers })).json();
    expect(res).toMatchObject({ ok: true, firstBrokenSeq: null });
    expect(res.checked).toBeGreaterThanOrEqual(3);
  });
});
