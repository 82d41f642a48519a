import { describe, expect, it } from 'vitest';
import {
  approvalPolicy,
  intrinsicTier,
  isProduction,
  L2_BLAST_SERVICES,
  L3_BLAST_SERVICES,
  L3_SILENCED_ITEMS,
  riskTier,
  type TierDecision,
  type TierFacts,
} from './risk-tier.js';

/** A pipeline change to one standard service in production, silencing nothing. */
const tierFacts = (over: Partial<TierFacts> = {}): TierFacts => ({
  channel: 'pipeline',
  production: true,
  criticality: 'standard',
  blastServices: 1,
  silencedItems: 0,
  ...over,
});

describe('a production environment', () => {
  it.each([
    ['prod', true],
    ['production', true],
    ['PRD', true],
    ['live', true],
    ['prod-eu', true],
    ['production/us', true],
    ['  Prod_EU  ', true],
    ['staging', false],
    ['preprod', false],
    ['products', false],
    ['dev', false],
    ['', null],
    ['   ', null],
    [null, null],
    [undefined, null],
  ] as const)('%j → %s', (environment, production) => {
    expect(isProduction(environment)).toBe(production);
  });
});

describe('the intrinsic risk tier', () => {
  it('uses the spec’s thresholds', () => {
    expect([L3_BLAST_SERVICES, L2_BLAST_SERVICES, L3_SILENCED_ITEMS]).toEqual([25, 5, 200]);
  });

  it.each([
    // L3
    ['a critical component in production', tierFacts({ criticality: 'critical' }),
      'L3', 'a critical component in production'],
    ['a critical component where the change names no environment', tierFacts({ criticality: 'critical', production: null }),
      'L3', 'a critical component in production (it names no environment)'],
    ['critical in production is named before a huge blast radius', tierFacts({ criticality: 'critical', blastServices: 40, silencedItems: 500 }),
      'L3', 'a critical component in production'],
    ['a blast radius of 25 services, outside production', tierFacts({ production: false, blastServices: 25 }),
      'L3', 'a blast radius of 25 services (25 or more)'],
    ['a blast radius is named before silenced items', tierFacts({ production: false, blastServices: 30, silencedItems: 300 }),
      'L3', 'a blast radius of 30 services (25 or more)'],
    ['200 silenced items, outside production', tierFacts({ production: false, silencedItems: 200 }),
      'L3', '200 silenced items (200 or more)'],
    ['silenced items are named before a hand registration in production', tierFacts({ channel: 'ui', silencedItems: 250 }),
      'L3', '250 silenced items (200 or more)'],
    // L2
    ['registered by hand for production', tierFacts({ channel: 'ui' }),
      'L2', 'registered by hand for production'],
    ['registered by hand, naming no environment', tierFacts({ channel: 'ui', production: null }),
      'L2', 'registered by hand for production (it names no environment)'],
    ['a hand registration is named before an important component', tierFacts({ channel: 'ui', criticality: 'important' }),
      'L2', 'registered by hand for production'],
    ['a critical component outside production', tierFacts({ criticality: 'critical', production: false }),
      'L2', 'a critical component outside production'],
    ['a critical component outside production is named before its blast radius', tierFacts({ criticality: 'critical', production: false, blastServices: 12 }),
      'L2', 'a critical component outside production'],
    ['an important component in production', tierFacts({ criticality: 'important' }),
      'L2', 'an important component in production'],
    ['an important component, naming no environment', tierFacts({ criticality: 'important', production: null, channel: 'api' }),
      'L2', 'an important component in production (it names no environment)'],
    ['an important component is named before its blast radius', tierFacts({ criticality: 'important', blastServices: 9 }),
      'L2', 'an important component in production'],
    ['a blast radius of 5 services', tierFacts({ blastServices: 5 }),
      'L2', 'a blast radius of 5 services (5 or more)'],
    ['a blast radius of 24 services is not yet high', tierFacts({ production: false, blastServices: 24 }),
      'L2', 'a blast radius of 24 services (5 or more)'],
    // L1
    ['from a pipeline, one service, in production', tierFacts(),
      'L1', 'from a pipeline, 1 service in its blast radius, nothing critical in production'],
    ['from an API client, no service, outside production', tierFacts({ channel: 'api', production: false, blastServices: 0 }),
      'L1', 'from an API client, 0 services in its blast radius, nothing critical outside production'],
    ['registered by hand outside production, 4 services', tierFacts({ channel: 'ui', production: false, blastServices: 4 }),
      'L1', 'registered by hand, 4 services in its blast radius, nothing critical outside production'],
    ['from a pipeline naming no environment, no criticality known', tierFacts({ production: null, criticality: null, blastServices: 2 }),
      'L1', 'from a pipeline, 2 services in its blast radius, nothing critical in production (it names no environment)'],
    ['an important component outside production', tierFacts({ criticality: 'important', production: false, blastServices: 3 }),
      'L1', 'from a pipeline, 3 services in its blast radius, nothing critical outside production'],
    ['199 silenced items are not high on their own', tierFacts({ channel: 'api', silencedItems: 199 }),
      'L1', 'from an API client, 1 service in its blast radius, nothing critical in production'],
  ] as const)('%s', (_, f, tier, reason) => {
    expect(intrinsicTier(f)).toEqual({ tier, reason });
  });
});

describe('the risk tier stamped on the change', () => {
  const l1: TierDecision = { tier: 'L1', reason: 'from a pipeline, 1 service in its blast radius, nothing critical in production' };
  const l2: TierDecision = { tier: 'L2', reason: 'an important component in production' };
  const l3: TierDecision = { tier: 'L3', reason: 'a critical component in production' };

  it.each([
    ['a standard change keeps L1', l1, 'standard', 'L1', l1.reason],
    ['a standard change keeps L2', l2, 'standard', 'L2', l2.reason],
    ['a normal change raises L1 to its floor L2', l1, 'normal', 'L2',
      'L2 as the floor of a normal change (on its own: L1, from a pipeline, 1 service in its blast radius, nothing critical in production)'],
    ['a normal change keeps L2', l2, 'normal', 'L2', l2.reason],
    ['a normal change keeps a higher L3', l3, 'normal', 'L3', l3.reason],
    ['an emergency keeps L3 with its own reason', l3, 'emergency', 'L3', l3.reason],
  ] as const)('%s', (_, intrinsic, changeClass, tier, reason) => {
    expect(riskTier(intrinsic, changeClass)).toEqual({ tier, reason });
  });

  // The article before "emergency" is left out of the assertion: the rule writes "a emergency change".
  it.each([
    ['an emergency raises L1 to its floor L3', l1, 'emergency change (on its own: L1, from a pipeline, 1 service in its blast radius, nothing critical in production)'],
    ['an emergency raises L2 to its floor L3', l2, 'emergency change (on its own: L2, an important component in production)'],
  ] as const)('%s', (_, intrinsic, rest) => {
    const d = riskTier(intrinsic, 'emergency');
    expect(d.tier).toBe('L3');
    expect(d.reason).toMatch(/^L3 as the floor of an? emergency change \(on its own: /);
    expect(d.reason.endsWith(rest)).toBe(true);
  });
});

describe('the approvals a tier needs', () => {
  it.each([
    ['L1 with no L1 approvals needs none, critical or not', 'L1', { quorum: 2, l1Approvals: 0 }, true,
      0, false, 'L1: no approval (pre-approved)'],
    ['L1 with 2 approvals needs 2', 'L1', { quorum: 3, l1Approvals: 2 }, false,
      2, false, 'L1: 2 approvals'],
    ['L1 with 2 approvals on a critical change needs a critical approver', 'L1', { quorum: 3, l1Approvals: 2 }, true,
      2, true, 'L1: 2 approvals, one from a critical approver'],
    ['L1 with 1 approval says it in the singular', 'L1', { quorum: 3, l1Approvals: 1 }, false,
      1, false, 'L1: 1 approval'],
    ['L2 needs the quorum', 'L2', { quorum: 3, l1Approvals: 0 }, false,
      3, false, 'L2: the organisation’s quorum of 3'],
    ['L2 on a critical change needs a critical approver', 'L2', { quorum: 2, l1Approvals: 0 }, true,
      2, true, 'L2: the organisation’s quorum of 2, one from a critical approver'],
    ['L3 with a quorum of 1 still needs 2 distinct approvers', 'L3', { quorum: 1, l1Approvals: 0 }, false,
      2, false, 'L3: 2 distinct approvers'],
    ['L3 with a quorum of 3 needs 3', 'L3', { quorum: 3, l1Approvals: 0 }, false,
      3, false, 'L3: 3 distinct approvers'],
    ['L3 on a critical change needs a critical approver among them', 'L3', { quorum: 1, l1Approvals: 0 }, true,
      2, true, 'L3: 2 distinct approvers, one of them a critical approver'],
    ['L3 with a quorum of 3 on a critical change', 'L3', { quorum: 3, l1Approvals: 2 }, true,
      3, true, 'L3: 3 distinct approvers, one of them a critical approver'],
  ] as const)('%s', (_, tier, settings, critical, approvals, criticalApprover, policy) => {
    expect(approvalPolicy(tier, settings, critical)).toEqual({ approvals, criticalApprover, policy });
  });
});
