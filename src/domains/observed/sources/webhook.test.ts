import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import { OBSERVED_KINDS } from '../../changes/change-feed.js';
import { HARVEST_KINDS, type AdapterContext, type IntakeRequest } from '../observed-types.js';
import { WEBHOOK_BATCH_MAX, WEBHOOK_KINDS, parseWebhook, webhookIntake } from './webhook.js';

const ctx: AdapterContext = { sourceId: 'src_hook', config: {}, ciNamespaces: [], now: new Date('2026-12-01T12:00:00Z') };
const change = { id: 'rel-42', title: 'Raise checkout pool size to 40' };
const req = (body: unknown, headers: IntakeRequest['headers'] = {}): IntakeRequest => ({ headers, rawBody: Buffer.from(JSON.stringify(body)), body });
function refused(body: unknown): { field: string | undefined; message: string } {
  try {
    parseWebhook(body, ctx);
  } catch (e) {
    if (e instanceof AppError && e.status === 400) return { field: e.field, message: e.message };
    throw e;
  }
  throw new Error('parsed without a 400');
}

describe('the generic change webhook', () => {
  it('authenticates with the connection secret as a bearer only', async () => {
    expect(await webhookIntake.authenticate(req(change, { authorization: 'Bearer tok' }), 'tok')).toBe(true);
    expect(await webhookIntake.authenticate(req(change, { authorization: 'Bearer tok2' }), 'tok')).toBe(false);
    expect(await webhookIntake.authenticate(req(change, { authorization: 'tok' }), 'tok')).toBe(false);
  });

  it('records one change with only id and title: kind change, now, an unknown sender', () => {
    const p = webhookIntake.parse(req(change), ctx);
    expect(p).toMatchObject({ ignored: 0, rejected: [] });
    expect(p.events[0]).toMatchObject({
      eventId: 'src_hook/rel-42', kind: 'change', title: 'Raise checkout pool size to 40', occurredAt: '2026-12-01T12:00:00.000Z',
      principal: { kind: 'unknown', name: 'unknown' }, serviceHint: null, repo: null, diff: null, link: null, changeRef: null, action: null,
    });
  });

  it('reads every documented field', () => {
    const e = parseWebhook({
      ...change, occurredAt: '2026-11-30T08:15:00+01:00', service: 'checkout', kind: 'config', environment: 'production',
      actor: { name: 'Ana', email: 'ana@example.com', kind: 'person' }, repo: 'https://github.com/acme/checkout.git',
      diff: '- pool: 20\n+ pool: 40', link: 'https://ci.example.com/runs/7',
    }, ctx).events[0]!;
    expect(e).toMatchObject({
      kind: 'change', action: 'config', occurredAt: '2026-11-30T07:15:00.000Z', serviceHint: 'checkout', location: { environment: 'production' },
      principal: { kind: 'person', name: 'Ana', detail: { email: 'ana@example.com' } }, repo: 'acme/checkout', diff: '- pool: 20\n+ pool: 40',
      link: 'https://ci.example.com/runs/7',
    });
  });

  it('a time without a zone is read as UTC', () => {
    expect(parseWebhook({ ...change, occurredAt: '2026-11-30T08:15:00' }, ctx).events[0]!.occurredAt).toBe('2026-11-30T08:15:00.000Z');
  });

  it('maps every kind word to a kind of the one list; audit-log kinds are not a sender\'s to claim', () => {
    for (const [word, kind] of Object.entries(WEBHOOK_KINDS)) {
      expect(OBSERVED_KINDS).toContain(kind);
      expect(parseWebhook({ ...change, kind: word }, ctx).events[0]!.kind).toBe(kind);
    }
    expect(parseWebhook({ ...change, kind: 'Infra' }, ctx).events[0]).toMatchObject({ kind: 'change', action: 'infra' });
    expect(parseWebhook({ ...change, kind: 'deployment' }, ctx).events[0]).toMatchObject({ kind: 'deploy', action: 'deployment' });
    for (const k of ['k8s_write', 'cloud_write', 'health', 'party', 'constructor', 'toString']) expect(refused({ ...change, kind: k }).field).toBe('kind');
  });

  it('never takes a change id from the sender: a generic webhook cannot stamp a receipt', () => {
    const e = parseWebhook({ ...change, changeRef: 'CHG-1A2B3C4D', changeId: 'CHG-1A2B3C4D', change_id: 'CHG-1A2B3C4D' }, ctx).events[0]!;
    expect(e.changeRef).toBeNull();
    expect(HARVEST_KINDS).not.toContain('webhook');
  });

  it('scopes the sender\'s id to the connection, so two senders counting from 1 never collide', () => {
    const a = parseWebhook({ ...change, id: '1' }, { ...ctx, sourceId: 'src_a' }).events[0]!;
    const b = parseWebhook({ ...change, id: '1' }, { ...ctx, sourceId: 'src_b' }).events[0]!;
    expect(a.eventId).not.toBe(b.eventId);
  });

  it('a batch records the good items and reports each bad one by index and field', () => {
    const p = parseWebhook({ changes: [change, { id: 'x' }, 'oops', { ...change, id: 'rel-43', link: 'javascript:alert(1)' }, { ...change, id: 'rel-44' }] }, ctx);
    expect(p.events.map((e) => e.eventId)).toEqual(['src_hook/rel-42', 'src_hook/rel-44']);
    expect(p.rejected).toEqual([
      { index: 1, field: 'changes.1.title', message: 'Change 2 › Title is required' },
      { index: 2, field: 'changes.2', message: expect.stringContaining('Change 3') },
      { index: 3, field: 'changes.3.link', message: expect.stringContaining('http or https') },
    ]);
  });

  it.each([
    [{ title: 'no id' }, 'id'],
    [{ id: 'x' }, 'title'],
    [{ ...change, title: 'x'.repeat(1025) }, 'title'],
    [{ ...change, occurredAt: 'last tuesday' }, 'occurredAt'],
    [{ ...change, occurredAt: 1733050000 }, 'occurredAt'],
    [{ ...change, actor: { email: 'a@b' } }, 'actor.name'],
    [{ ...change, actor: { name: 'bot', kind: 'robot' } }, 'actor.kind'],
    [{ ...change, link: 'not a url' }, 'link'],
    [{ ...change, diff: { a: 1 } }, 'diff'],
    [{ changes: { a: 1 } }, 'changes'],
    [{ changes: Array.from({ length: WEBHOOK_BATCH_MAX + 1 }, (_, i) => ({ ...change, id: String(i) })) }, 'changes'],
    [[change], 'body'],
  ])('a malformed body is a 400 naming the field (%#)', (body, field) => {
    expect(refused(body).field).toBe(field);
  });

  it('the 400 reads as a sentence about the field', () => {
    expect(refused({ id: 'x' }).message).toBe('Title is required');
  });

  it('any JSON whatever is either recorded or refused with a 400 naming a field, never another error', () => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), fc.record({ id: fc.jsonValue(), title: fc.jsonValue(), kind: fc.jsonValue(), occurredAt: fc.jsonValue(), actor: fc.jsonValue(), link: fc.jsonValue() }, { requiredKeys: [] })), (body) => {
      try {
        const p = parseWebhook(body, ctx);
        expect(p.events.length + p.rejected.length).toBeGreaterThan(0);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect((e as AppError).status).toBe(400);
        expect((e as AppError).field).toBeTruthy();
      }
    }));
  });
});
