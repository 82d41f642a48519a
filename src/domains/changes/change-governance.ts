/**
 * What changes asks of governance (a higher domain: templates and windows), through a seam that
 * compose.ts plugs in, and the one function that decides a change's class, tier and approval
 * policy from its facts. Without governance plugged in there are no templates and no windows.
 */
import type { Queryable } from '../../platform/db/database.js';
import { deriveClass, type ClassDecision, type ClassPolicy, type TemplateScope } from './change-class.js';
import { modeOf } from './change-record.js';
import { approvalPolicy, intrinsicTier, isProduction, riskTier, type ApprovalPolicy, type TierDecision } from './risk-tier.js';
import type { Change, PipelineInfo } from './change-store.js';

/** What the window matcher needs of a change. */
export type WindowFacts = { services: string[]; environments: string[]; criticality: 'standard' | 'important' | 'critical' | null };
export type WindowRef = { id: string; name: string; kind: 'change' | 'freeze'; start: string; end: string };
export type WindowVerdict = { allowed: boolean; window: WindowRef | null; reason: string; nextOpening: string | null };
export type WindowConflict = { window: WindowRef | null; conflict: 'freeze_overlaps' | 'outside_change_windows'; reason: string };

/** The organisation's templates and windows as they stand, read once for one decision. */
export type GovernanceView = {
  /** The certified templates, as the class rules read them. */
  templates: TemplateScope[];
  /** The one matcher's answer for a change at an instant (inside the span the view was prepared for). */
  check(at: Date, facts: WindowFacts): WindowVerdict;
  /** What a planned window runs into: freezes it overlaps, change windows it falls outside. */
  conflicts(start: Date, end: Date, facts: WindowFacts): WindowConflict[];
};

export type GovernanceReader = {
  /** One read (templates and the windows' stamp; the windows themselves only when they changed) for questions within [from, to]. */
  prepare(db: Queryable, orgId: string, from: Date, to: Date): Promise<GovernanceView>;
};

const OPEN: WindowVerdict = { allowed: true, window: null, reason: 'no change or freeze window applies', nextOpening: null };
export const NO_GOVERNANCE: GovernanceReader = {
  prepare: async () => ({ templates: [], check: () => OPEN, conflicts: () => [] }),
};

export type ChangeFactsInput = {
  kind: string; components: Array<{ key: string; kind?: string }>; pipeline: PipelineInfo | null; viaTokenId: string | null; hops: number;
  criticality: Change['criticality']; blastServices: number; silencedItems: number;
  emergency: { reason: string; link: string } | null; template: string | null;
};

export const environmentOf = (pipeline: PipelineInfo | null): string | null => pipeline?.environment?.trim() || null;

export function windowFacts(c: { components: Array<{ key: string }>; pipeline: PipelineInfo | null; criticality: Change['criticality'] }): WindowFacts {
  const env = environmentOf(c.pipeline);
  return { services: c.components.map((x) => x.key), environments: env ? [env] : [], criticality: c.criticality };
}

export type Governed = { decision: ClassDecision; intrinsic: TierDecision; tier: TierDecision; policy: ApprovalPolicy };

/** Class, tier and approval policy of a change from its facts. Pure. */
export function govern(f: ChangeFactsInput, certified: readonly TemplateScope[], settings: { changeClassPolicy: ClassPolicy; quorum: number; l1Approvals: number },
  override?: ClassDecision): Governed {
  const env = environmentOf(f.pipeline);
  const decision = override ?? deriveClass({
    kind: f.kind, components: f.components.map((x) => x.key), environment: env, pipeline: f.pipeline?.pipeline ?? null, repo: f.pipeline?.repo ?? null,
    blastServices: f.blastServices, hops: f.hops, emergency: f.emergency, template: f.template,
  }, certified, settings.changeClassPolicy);
  const intrinsic = intrinsicTier({
    channel: modeOf({ pipeline: f.pipeline, viaTokenId: f.viaTokenId }), production: isProduction(env),
    criticality: f.criticality, blastServices: f.blastServices, silencedItems: f.silencedItems,
  });
  const tier = riskTier(intrinsic, decision.changeClass);
  return { decision, intrinsic, tier, policy: approvalPolicy(tier.tier, settings, f.criticality === 'critical') };
}
