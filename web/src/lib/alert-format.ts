import type { AlertTransition, AlertView, DestinationKind, HoldMode, HeldOutcome, Suppression } from '../api/types';
import { formatUtc } from './format';

// How the alert pages word alerts and holds. Pure: the pages fetch, these say.

/** "firing since …" / "resolved at …": the moment that matters for the alert's state. */
export function alertSince(alert: Pick<AlertView, 'state' | 'startsAt' | 'endsAt' | 'lastSeen'>): string {
  if (alert.state === 'firing') return `since ${formatUtc(alert.startsAt)}`;
  return `at ${formatUtc(alert.endsAt ?? alert.lastSeen)}`;
}

/** The hold of a change as one line: none, active since … until …, releasing at …, released. */
export function holdLine(s: Suppression): string {
  switch (s.state) {
    case 'none':
      return 'No hold: alerts of this change are not held.';
    case 'active':
      return `Active since ${formatUtc(s.since)}${s.until === null ? '' : ` until ${formatUtc(s.until)}`}`;
    case 'releasing':
      return `Releasing at ${formatUtc(s.until)}`;
    case 'released':
      return `Released${s.until === null ? '' : ` at ${formatUtc(s.until)}`}`;
  }
}

export const holdStateLabels: Record<Suppression['state'], string> = {
  none: 'No hold',
  active: 'Holding',
  releasing: 'Releasing',
  released: 'Released',
};

export const holdModeLabels: Record<HoldMode, string> = { relay: 'Relay', silence: 'Alertmanager silences' };

/** One sentence each on what the mode means for the team. */
export const holdModeSentences: Record<HoldMode, string> = {
  relay:
    'Alertmanager sends every alert to changeledger, which forwards them to your destinations and keeps back those of a running change’s blast radius.',
  silence:
    'Your Alertmanager routing stays as it is: changeledger puts a silence on each Alertmanager for a running change’s blast radius and expires it at release.',
};

export const outcomeLabels: Record<HeldOutcome, string> = {
  held: 'Held',
  resent: 'Re-sent',
  recovered: 'Recovered',
  kept: 'Not re-sent',
};

export const destinationKindLabels: Record<DestinationKind, string> = {
  webhook: 'Webhook',
  email: 'E-mail',
  slack: 'Slack',
  pagerduty: 'PagerDuty',
};

export const viaLabels: Record<AlertTransition['via'], string> = {
  webhook: 'Alertmanager webhook',
  api: 'Alertmanager API (Prometheus)',
  silence: 'read from a silence',
};

/** Transitions newest first, as the history shows them. */
export function newestFirst(transitions: readonly AlertTransition[]): AlertTransition[] {
  return [...transitions].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** Only links that open a web page: a generatorURL is the sender's text, not ours. */
export function safeExternalUrl(url: string | null): string | null {
  if (url === null || url === '') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

type SilenceState = Suppression['silences'][number]['state'];
const silenceWorst: readonly SilenceState[] = ['failed', 'pending', 'active', 'expired'];

export type SilenceGroup = { alertmanager: string; counts: [SilenceState, number][]; ids: string[]; worst: SilenceState };

/** A hold's silences per Alertmanager (it keeps one per label name on each), the worst state first. */
export function silencesByAlertmanager(silences: Suppression['silences']): SilenceGroup[] {
  const by = new Map<string, Suppression['silences']>();
  for (const s of silences) by.set(s.alertmanager, [...(by.get(s.alertmanager) ?? []), s]);
  return [...by.entries()].map(([alertmanager, list]) => {
    const counts = silenceWorst
      .map((state): [SilenceState, number] => [state, list.filter((s) => s.state === state).length])
      .filter(([, n]) => n > 0);
    return { alertmanager, counts, ids: list.flatMap((s) => (s.id === null ? [] : [s.id])), worst: counts[0]?.[0] ?? 'pending' };
  });
}
