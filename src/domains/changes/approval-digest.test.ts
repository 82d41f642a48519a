import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../platform/canonical-json.js';
import { approvalDigest, approvedContent } from './approval-digest.js';

type ChangeInput = Parameters<typeof approvedContent>[0];

/** A change with a fixed window from a pipeline, as it stands when an approver looks at it. */
const aChange = (over: Partial<ChangeInput> = {}): ChangeInput => ({
  title: 'Bump checkout to 4.2.1',
  components: [{ key: 'svc:checkout' }, { key: 'svc:cart' }],
  windowStart: '2026-12-01T08:00:00.000Z',
  windowEnd: '2026-12-01T09:00:00.000Z',
  maxDurationMinutes: null,
  relativeWindow: false,
  hops: 1,
  blastVersion: 7,
  changeClass: 'normal',
  riskTier: 'L2',
  pipeline: { commit: '9fceb02d0ae598e95dc970b74767f19372d61af8', version: '4.2.1' },
  ...over,
});

const digestOf = (over: Partial<ChangeInput> = {}) => approvalDigest(approvedContent(aChange(over)));
const sha256 = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

describe('the approval digest', () => {
  it('is sha256: and 64 hex digits', () => {
    expect(digestOf()).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('is the sha256 of the canonical JSON of the approved content', () => {
    const content = {
      window: { start: '2026-12-01T08:00:00.000Z', end: '2026-12-01T09:00:00.000Z', maxDurationMinutes: null },
      title: 'Bump checkout to 4.2.1',
      validationPlan: null,
      riskTier: 'L2',
      pipeline: { version: '4.2.1', commit: '9fceb02d0ae598e95dc970b74767f19372d61af8' },
      hops: 1,
      components: ['svc:cart', 'svc:checkout'],
      changeClass: 'normal',
      blastVersion: 7,
      beforeState: null,
    };
    const json = '{"beforeState":null,"blastVersion":7,"changeClass":"normal","components":["svc:cart","svc:checkout"],"hops":1,'
      + '"pipeline":{"commit":"9fceb02d0ae598e95dc970b74767f19372d61af8","version":"4.2.1"},"riskTier":"L2",'
      + '"title":"Bump checkout to 4.2.1","validationPlan":null,'
      + '"window":{"end":"2026-12-01T09:00:00.000Z","maxDurationMinutes":null,"start":"2026-12-01T08:00:00.000Z"}}';
    expect(canonicalJson(content)).toBe(json);
    expect(canonicalJson(approvedContent(aChange()))).toBe(json);
    expect(digestOf()).toBe(sha256(canonicalJson(content)));
    expect(digestOf()).toBe(sha256(json));
  });

  it.each([
    ['the components in another order', { components: [{ key: 'svc:cart' }, { key: 'svc:checkout' }] }],
    ['the title with spaces around it', { title: '  Bump checkout to 4.2.1 \n' }],
  ] satisfies Array<[string, Partial<ChangeInput>]>)('is the same for the same content: %s', (_, over) => {
    expect(digestOf(over)).toBe(digestOf());
  });

  it.each([
    ['the title', { title: 'Bump checkout to 4.2.2' }],
    ['a component added', { components: [{ key: 'svc:checkout' }, { key: 'svc:cart' }, { key: 'svc:payments' }] }],
    ['a component replaced', { components: [{ key: 'svc:checkout' }, { key: 'svc:basket' }] }],
    ['a component taken away', { components: [{ key: 'svc:checkout' }] }],
    ['the window start', { windowStart: '2026-12-01T08:30:00.000Z' }],
    ['the window end', { windowEnd: '2026-12-01T10:00:00.000Z' }],
    ['the window moved as a whole', { windowStart: '2026-12-02T08:00:00.000Z', windowEnd: '2026-12-02T09:00:00.000Z' }],
    ['the hops', { hops: 2 }],
    ['the blast version', { blastVersion: 8 }],
    ['the class', { changeClass: 'standard' }],
    ['the risk tier', { riskTier: 'L3' }],
    ['the risk tier not yet known', { riskTier: null }],
    ['the pipeline commit', { pipeline: { commit: '1a410efbd13591db07496601ebc7a059dd55cfe9', version: '4.2.1' } }],
    ['the pipeline version', { pipeline: { commit: '9fceb02d0ae598e95dc970b74767f19372d61af8', version: '4.2.2' } }],
    ['no pipeline at all', { pipeline: null }],
  ] satisfies Array<[string, Partial<ChangeInput>]>)('changes when the content changes: %s', (_, over) => {
    expect(digestOf(over)).not.toBe(digestOf());
  });

  it('counts a missing pipeline and a pipeline with neither commit nor version as the same', () => {
    expect(digestOf({ pipeline: {} })).toBe(digestOf({ pipeline: null }));
  });
});

describe('the approval digest of a window given from now', () => {
  const shifted = { windowStart: '2026-12-03T14:17:00.000Z', windowEnd: '2026-12-03T15:17:00.000Z' };
  const longer = { windowStart: '2026-12-01T08:00:00.000Z', windowEnd: '2026-12-01T09:30:00.000Z' };

  it.each([
    ['relativeWindow', { relativeWindow: true, maxDurationMinutes: null }],
    ['maxDurationMinutes', { relativeWindow: false, maxDurationMinutes: 60 }],
    ['both', { relativeWindow: true, maxDurationMinutes: 60 }],
  ] as const)('%s: is digested by its length, not its instants', (_, how) => {
    const base = digestOf(how);
    expect(approvedContent(aChange(how)).window).toEqual({ start: 'at start', end: '+60m', maxDurationMinutes: how.maxDurationMinutes });
    expect(digestOf({ ...how, ...shifted })).toBe(base);
    expect(digestOf({ ...how, ...longer })).not.toBe(base);
    expect(approvedContent(aChange({ ...how, ...longer })).window.end).toBe('+90m');
  });

  it('differs from the same window given with fixed instants', () => {
    expect(digestOf({ relativeWindow: true })).not.toBe(digestOf());
  });

  it('changes with maxDurationMinutes itself', () => {
    expect(digestOf({ maxDurationMinutes: 45 })).not.toBe(digestOf({ maxDurationMinutes: 60 }));
  });
});
