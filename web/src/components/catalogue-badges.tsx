import type { LinkVia } from '../api/types';

// Kinds are grouped into a few colours (code, data, infrastructure, outside, business)
// rather than fourteen: the badge says the kind in words, the colour only its family.
function kindFamily(kind: string): string {
  switch (kind) {
    case 'service':
    case 'workload':
    case 'pod':
      return 'code';
    case 'instance':
    case 'database':
    case 'schema':
    case 'datastore':
    case 'volume':
      return 'data';
    case 'vm':
    case 'host':
    case 'node':
    case 'device':
      return 'infra';
    case 'external':
      return 'outside';
    case 'business-process':
      return 'business';
    default:
      return 'other';
  }
}

export function KindBadge({ kind }: { kind: string }) {
  return (
    <span className={`kind kind-${kindFamily(kind)}`} data-testid="kind-badge" data-kind={kind}>
      {kind}
    </span>
  );
}

const viaTitles: Record<LinkVia, string> = {
  calls: 'calls it',
  'runs-on': 'runs on it',
  member: 'has it as a member',
};

// The direction reads from the "uses" side: a calls b, a runs on b, a has b as a member.
export function ViaBadge({ via }: { via: LinkVia }) {
  return (
    <span className={`via via-${via}`} data-testid="via-badge" data-via={via} title={viaTitles[via]}>
      {via}
    </span>
  );
}

export function StaleBadge({ title }: { title: string }) {
  return (
    <span className="stale-badge" data-testid="stale-badge" title={title}>
      stale
    </span>
  );
}

export function TierBadge({ tier }: { tier: string }) {
  return (
    <span className={`tier tier-${tier}`} data-testid="tier-badge" data-tier={tier}>
      {tier}
    </span>
  );
}
