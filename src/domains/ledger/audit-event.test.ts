import { describe, expect, it } from 'vitest';
import { checkChain, GENESIS_HASH, hashEvent, type AuditEvent } from './audit-event.js';
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
