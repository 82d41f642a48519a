import type { AlertRecord } from '../alert-types.js';

/**
 * What one relay message is about, the same for every destination kind: the alerts, and for a
 * held release the change whose hold kept them back (each summary then starts with the prefix).
 */
export type RelayOccasion =
  | { kind: 'relay' }
  | { kind: 'held-release'; change: { id: string; displayId: string; title: string; link: string } }
  | { kind: 'test' };

export type RelayContext = { occasion: RelayOccasion; destinationName: string; messageId: string; externalUrl: string };

/** At most this many alerts in one message; a bigger batch becomes several messages. */
export const RELAY_MAX_ALERTS_PER_MESSAGE = 100;

/** `[held during change "<title>"]` — the words a re-sent alert starts with. */
export function heldPrefix(title: string): string {
  return `[held during change "${title}"]`;
}

/** An alert's one line: its summary annotation, else its description, else its name. */
export function summaryOf(a: Pick<AlertRecord, 'annotations' | 'alertname'>): string {
  return (a.annotations.summary ?? a.annotations.description ?? a.alertname).trim() || a.alertname;
}

/** The summary as this occasion says it: prefixed on a held release. */
export function occasionSummary(a: Pick<AlertRecord, 'annotations' | 'alertname'>, o: RelayOccasion): string {
  const s = summaryOf(a);
  return o.kind === 'held-release' ? `${heldPrefix(o.change.title)} ${s}` : s;
}

export function stateWord(a: Pick<AlertRecord, 'state'>): 'FIRING' | 'RESOLVED' {
  return a.state === 'firing' ? 'FIRING' : 'RESOLVED';
}

export function chunks<T>(xs: T[], size = RELAY_MAX_ALERTS_PER_MESSAGE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/** A sample alert for a destination's Test button: clearly a test, about no catalogue entity. */
export function sampleAlert(orgId: string, at: string): AlertRecord {
  return {
    orgId, fingerprint: 'changeledger-test', alertname: 'ChangeledgerTest', labels: { alertname: 'ChangeledgerTest', severity: 'info' },
    annotations: { summary: 'A test from changeledger: this destination receives relayed alerts' }, state: 'firing', startsAt: at, endsAt: null,
    generatorURL: null, subject: { kind: 'unmapped', key: null, name: null }, subjectLabel: 'ChangeledgerTest', source: 'changeledger', firstSeen: at, lastSeen: at, heldBy: null,
  };
}
