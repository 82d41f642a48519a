/**
 * What an approval approves: the canonical content of the change, hashed. Pure.
 *
 * An approval records this digest. Any edit that changes the content changes the digest, and the
 * approvals given to the old content no longer count. A pipeline reads the digest and the approved
 * commit in /status and in every callback, so it can check that it deploys what was approved.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../platform/canonical-json.js';

export type ApprovedContent = {
  title: string;
  components: string[];
  window: { start: string; end: string; maxDurationMinutes: number | null };
  hops: number;
  blastVersion: number;
  changeClass: string;
  riskTier: string | null;
  pipeline: { commit: string | null; version: string | null };
  /** The validation plan fixed at registration, and the digest of the before-state captures. */
  validationPlan: unknown;
  beforeState: string | null;
};

export function approvedContent(c: {
  title: string; components: ReadonlyArray<{ key: string }>; windowStart: string; windowEnd: string; maxDurationMinutes: number | null; relativeWindow: boolean;
  hops: number; blastVersion: number; changeClass: string; riskTier: string | null; pipeline: { commit?: string; version?: string } | null;
  validationPlan?: unknown; captureDigest?: string | null;
}): ApprovedContent {
  return {
    title: c.title.trim(),
    components: c.components.map((x) => x.key).sort(),
    // A window given "from now" moves with the start: what is approved is its length, not its instants.
    window: c.relativeWindow || c.maxDurationMinutes
      ? { start: 'at start', end: `+${Math.round((Date.parse(c.windowEnd) - Date.parse(c.windowStart)) / 60_000)}m`, maxDurationMinutes: c.maxDurationMinutes }
      : { start: c.windowStart, end: c.windowEnd, maxDurationMinutes: c.maxDurationMinutes },
    hops: c.hops, blastVersion: c.blastVersion, changeClass: c.changeClass, riskTier: c.riskTier,
    pipeline: { commit: c.pipeline?.commit ?? null, version: c.pipeline?.version ?? null },
    validationPlan: c.validationPlan ?? null, beforeState: c.captureDigest ?? null,
  };
}

/** sha256 of the canonical JSON of the content, as `sha256:` and 64 hex digits. */
export function approvalDigest(content: ApprovedContent): string {
  return `sha256:${createHash('sha256').update(canonicalJson(content)).digest('hex')}`;
}
