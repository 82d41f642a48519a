import type { BlastPreview, BlastRequest, SilenceMode, Tier } from '../api/types';

// What the change editor holds for a blast radius: the components (one name or key a
// line), the hops and the silence mode (null: the organisation's default).
export type BlastDraft = { lines: string; hops: 1 | 2; silenceInfra: SilenceMode | null };

export const emptyBlastDraft: BlastDraft = { lines: '', hops: 1, silenceInfra: null };

export function blastRequest(draft: BlastDraft): BlastRequest {
  return { lines: draft.lines, hops: draft.hops, silenceInfra: draft.silenceInfra };
}

export function hasComponents(draft: BlastDraft): boolean {
  return draft.lines.split('\n').some((line) => line.trim() !== '');
}

// Picking a candidate: the first line that reads as the query becomes the candidate's key.
export function replaceLine(lines: string, query: string, key: string): string {
  const all = lines.split('\n');
  const at = all.findIndex((line) => line.trim() === query.trim());
  if (at === -1) return lines;
  all[at] = key;
  return all.join('\n');
}

export const silenceModeLabels: Record<SilenceMode, string> = {
  dedicated: 'Dedicated infrastructure only',
  all: 'All infrastructure below',
  none: 'None (services only)',
};

export const silenceModeHints: Record<SilenceMode, string> = {
  dedicated: 'A VM, host, pod, node, datastore or device is silenced only when every service on it is in the change.',
  all: 'Everything under the affected services is silenced, shared hosts and datastores included.',
  none: 'No infrastructure is silenced; infrastructure named as a component still is.',
};

function list(names: readonly string[], max = 3): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} +${String(names.length - max)}` : shown;
}

// The criticality line after its tier: who decided it. "(payments-api)",
// "(from the blast radius: checkout)", or the components still waiting for a tier.
export function criticalityReason(p: BlastPreview): { tier: Tier | null; text: string } {
  const nameOf = (key: string): string => p.resolved.find((r) => r.key === key)?.name ?? key;
  switch (p.criticalitySource) {
    case 'components': {
      const deciding = Object.entries(p.componentTiers).filter(([, t]) => t === p.criticality).map(([k]) => nameOf(k));
      return { tier: p.criticality, text: `(${list(deciding)})` };
    }
    case 'blast': {
      const deciding = p.blast.nodes.filter((n) => n.role !== 'infra' && n.details?.tier === p.criticality).map((n) => n.name);
      return { tier: p.criticality, text: `(from the blast radius: ${list(deciding)})` };
    }
    case 'none':
      return { tier: p.criticality ?? 'standard', text: '(no tier in the blast radius)' };
    case 'pending':
      return { tier: null, text: `pending: waiting for a tier of ${list(p.unknownTierComponents.map((c) => c.name), 5)}` };
  }
}

// A not-silenced item by name: entities carry {key, kind, name}, monitoring sources {id, name}.
export function itemName(item: Record<string, unknown>): string {
  for (const field of ['name', 'key', 'id']) {
    const value = item[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return '?';
}
