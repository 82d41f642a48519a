import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkChain, GENESIS_HASH, hashEvent, hashedBodyAround, type AuditEvent } from './audit-event.js';
import { canonicalJson } from '../../platform/canonical-json.js';

function chain(n: number): AuditEvent[] {
  const out: AuditEvent[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const e = {
      orgId: 'org_1', seq, occurredAt: `2026-01-01T00:00:0${seq}.000Z`,
      actor: { kind: 'user' as const, id: 'usr_1', name: 'a@x', automation: null, trigger: null },
      action: 'token.created', target: { type: 'token', id: `t${seq}` }, correlationId: null, requestId: null,
      source: 'ui' as const, data: { n: seq }, schemaVersion: 1, prevHash: prev,
    };
    const hash = hashEvent(e);
    out.push({ ...e, hash });
    prev = hash;
  }
  return out;
}

describe('canonical JSON', () => {
  it('sorts keys at every depth and drops undefined members, so equal data hashes equally', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: undefined } })).toBe('{"a":{"d":[1,{"y":null,"z":true}]},"b":1}');
  });
  it('refuses values JSON cannot carry', () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/non-finite/);
  });
  it('orders keys by UTF-16 code unit, so a key beyond the BMP sorts before U+FF5E', () => {
    expect(canonicalJson({ '\uFF5E': 1, '\u{1F600}': 2, é: 3, B: 4, a: 5, '': 6 })).toBe('{"":6,"B":4,"a":5,"é":3,"\u{1F600}":2,"\uFF5E":1}');
  });
});

describe('the event hash', () => {
  // Computed by the first implementation (an object of the eleven members through canonicalJson):
  // ledgers written before the hash was written out member by member must still verify.
  const e = {
    orgId: 'org_1', seq: 7, occurredAt: '2026-01-01T00:00:07.000Z', actor: { kind: 'token' as const, id: 'tok_1', name: 'déploy ✓', automation: 'github-actions', trigger: 'run 42' },
    action: 'flag.updated', target: { type: 'flag', id: 'payments.checkout' }, correlationId: 'c-1', requestId: null, source: 'api' as const,
    data: { after: { on: true }, before: { on: false }, reason: 'OPS-1 "quoted"\n', n: 1.5, list: [3, null, 'x'] }, schemaVersion: 1, prevHash: 'ab'.repeat(32),
  };
  it('is the hash the ledger has always written', () => {
    expect(hashEvent(e)).toBe('be6f6c836f75b92b663d68071c36d7cef85342b30e03c33a7bd7f74bfcebdcf3');
  });
  it('hashes an actor or target of another shape as canonical JSON orders it', () => {
    const odd = { ...e, actor: { trigger: 'x', kind: 'user' as const, name: 'n', id: null, automation: null, extra: 1 } as never, target: { type: 'flag' } as never };
    const { hash: _h, ...same } = { ...odd, hash: '' };
    const reference = createHash('sha256').update(`${odd.prevHash}\n${canonicalJson({ ...same, prevHash: undefined })}`).digest('hex');
    expect(hashEvent(odd)).toBe(reference);
  });
  it('leaves out a member that is missing, as canonical JSON does', () => {
    expect(hashEvent({ ...e, correlationId: undefined as unknown as null })).toBe('4eb004fbfba3bb46093670e2ee6bd28cec40dff936bdcb470a50ead8bb635f99');
  });
  it('is the same when the number is put between the two halves the engine is given', () => {
    // Data that itself has "seq" and "source" members must not move the split.
    const tricky = { ...e, data: { seq: 0, source: 'x', schemaVersion: 9, note: ',"seq":' }, correlationId: null };
    for (const ev of [e, tricky, { ...e, data: {} }]) {
      const { seq, prevHash, orgId, ...rest } = ev;
      const { before, after } = hashedBodyAround(rest, orgId);
      expect(createHash('sha256').update(`${prevHash}\n${before}${seq}${after}`).digest('hex')).toBe(hashEvent(ev));
    }
  });
  it('hashes an event from a file without a number, or with a text for it, as canonical JSON writes it', () => {
    for (const seq of [undefined, '7']) {
      const odd = { ...e, seq } as unknown as typeof e;
      const { prevHash, ...rest } = odd;
      expect(hashEvent(odd)).toBe(createHash('sha256').update(`${prevHash}\n${canonicalJson(rest)}`).digest('hex'));
    }
  });
});

describe('checkChain names the first event that breaks the chain', () => {
  const start = { seq: 0, hash: GENESIS_HASH };
  // The last column: how many events were judged (the broken one too, when it is there).
  const cases: Array<[string, (c: AuditEvent[]) => AuditEvent[], number | null, RegExp | null, number]> = [
    ['an intact chain passes', (c) => c, null, null, 5],
    ['an edited field is caught at that event', (c) => c.map((e) => (e.seq === 3 ? { ...e, data: { n: 99 } } : e)), 3, /altered/, 3],
    ['an edited actor is caught', (c) => c.map((e) => (e.seq === 2 ? { ...e, actor: { ...e.actor, name: 'mallory' } } : e)), 2, /altered/, 2],
    ['a removed event is caught as missing', (c) => c.filter((e) => e.seq !== 4), 4, /missing/, 3],
    ['a re-hashed edit still breaks the link of the next event', (c) => c.map((e) => {
      if (e.seq !== 2) return e;
      const { hash: _h, ...rest } = { ...e, data: { n: 42 } };
      return { ...rest, hash: hashEvent(rest) };
    }), 3, /does not link/, 3],
  ];
  it.each(cases)('%s', (_name, mutate, seq, reason, checked) => {
    const res = checkChain(mutate(chain(5)), start);
    expect(res.checked).toBe(checked);
    if (seq === null) expect(res.ok).toBe(true);
    else {
      expect(res.ok).toBe(false);
      if (!res.ok) {
        expect(res.broken.seq).toBe(seq);
        expect(res.broken.reason).toMatch(reason!);
      }
    }
  });
});
