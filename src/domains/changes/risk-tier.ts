/**
 * The risk tier of a change (L1 low … L3 high). Pure.
 *
 * The intrinsic tier comes from what the change touches and how it arrives; the class then raises
 * it to its floor (standard L1, normal L2, emergency L3): riskTier = max(intrinsic, floor). The
 * tier decides how many approvals the change needs (approvalPolicy).
 */
import type { ChangeClass } from './change-class.js';

export const RISK_TIERS = ['L1', 'L2', 'L3'] as const;
export type RiskTier = (typeof RISK_TIERS)[number];

/** A blast radius this wide is high risk whatever it touches; this wide, at least medium. */
export const L3_BLAST_SERVICES = 25;
export const L2_BLAST_SERVICES = 5;
/** Silenced items (alerts' targets held) that make a change high risk on their own. */
export const L3_SILENCED_ITEMS = 200;

export type TierFacts = {
  channel: 'pipeline' | 'api' | 'ui';
  /** true: a production environment; false: another; null: the change names none (counted as production). */
  production: boolean | null;
  criticality: 'critical' | 'important' | 'standard' | null;
  blastServices: number; silencedItems: number;
};

export type TierDecision = { tier: RiskTier; reason: string };

const PRODUCTION = /^(prod|production|prd|live)([-_.:/ ].*)?$/i;

/** Whether an environment name is a production one (prod, production, prd, live, and their suffixed forms). */
export function isProduction(environment: string | null | undefined): boolean | null {
  if (!environment || !environment.trim()) return null;
  return PRODUCTION.test(environment.trim());
}

/** The tier from the facts alone, first rule that applies. */
export function intrinsicTier(f: TierFacts): TierDecision {
  const prod = f.production !== false;
  const where = f.production === null ? 'production (it names no environment)' : 'production';
  if (f.criticality === 'critical' && prod) return { tier: 'L3', reason: `a critical component in ${where}` };
  if (f.blastServices >= L3_BLAST_SERVICES) return { tier: 'L3', reason: `a blast radius of ${f.blastServices} services (${L3_BLAST_SERVICES} or more)` };
  if (f.silencedItems >= L3_SILENCED_ITEMS) return { tier: 'L3', reason: `${f.silencedItems} silenced items (${L3_SILENCED_ITEMS} or more)` };
  if (prod && f.channel === 'ui') return { tier: 'L2', reason: `registered by hand for ${where}` };
  if (f.criticality === 'critical') return { tier: 'L2', reason: 'a critical component outside production' };
  if (f.criticality === 'important' && prod) return { tier: 'L2', reason: `an important component in ${where}` };
  if (f.blastServices >= L2_BLAST_SERVICES) return { tier: 'L2', reason: `a blast radius of ${f.blastServices} services (${L2_BLAST_SERVICES} or more)` };
  const how = f.channel === 'ui' ? 'registered by hand' : `from ${f.channel === 'pipeline' ? 'a pipeline' : 'an API client'}`;
  return { tier: 'L1', reason: `${how}, ${f.blastServices} service${f.blastServices === 1 ? '' : 's'} in its blast radius, nothing critical${prod ? ` in ${where}` : ' outside production'}` };
}

const FLOOR: Record<ChangeClass, RiskTier> = { standard: 'L1', normal: 'L2', emergency: 'L3' };

/** The tier stamped on the change: the intrinsic tier raised to the class floor. */
export function riskTier(intrinsic: TierDecision, changeClass: ChangeClass): TierDecision {
  const floor = FLOOR[changeClass];
  if (RISK_TIERS.indexOf(floor) > RISK_TIERS.indexOf(intrinsic.tier)) {
    return { tier: floor, reason: `${floor} as the floor of ${changeClass === 'emergency' ? 'an' : 'a'} ${changeClass} change (on its own: ${intrinsic.tier}, ${intrinsic.reason})` };
  }
  return intrinsic;
}

export type TierPolicySettings = { quorum: number; l1Approvals: number };
export type ApprovalPolicy = { approvals: number; criticalApprover: boolean; policy: string };

/**
 * How many approvals a tier needs: L1 the organisation's L1 number (0: none), L2 the quorum, L3 at
 * least two distinct approvers (the quorum when it is higher). A critical change also needs a
 * critical approver at L2 and L3 (and at L1 when L1 needs approvals at all).
 */
export function approvalPolicy(tier: RiskTier, s: TierPolicySettings, critical: boolean): ApprovalPolicy {
  const approvals = tier === 'L1' ? s.l1Approvals : tier === 'L2' ? s.quorum : Math.max(2, s.quorum);
  const criticalApprover = critical && approvals > 0;
  return { approvals, criticalApprover, policy: policyWords(tier, approvals, criticalApprover, true) };
}

/** What a tier asks, in the one wording the registration, /status and the change page share. `gated` false: approval is off. */
export function policyWords(tier: RiskTier, approvals: number, criticalApprover: boolean, gated: boolean): string {
  if (!gated || approvals === 0) return `${tier}: no approval${tier === 'L1' && approvals === 0 ? ' (pre-approved)' : ' (approval is off for these changes)'}`;
  const critical = criticalApprover ? (tier === 'L3' ? ', one of them a critical approver' : ', one from a critical approver') : '';
  if (tier === 'L1') return `L1: ${approvals} approval${approvals === 1 ? '' : 's'}${critical}`;
  if (tier === 'L2') return `L2: the organisation’s quorum of ${approvals}${critical}`;
  return `L3: ${approvals} distinct approvers${critical}`;
}
