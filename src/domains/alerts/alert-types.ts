/** The words of the alerts domain, shared by intake, holds, relay and the pages that show them. */

export type AlertState = 'firing' | 'resolved';

/** How an alert reached us: Alertmanager's webhook, the Alertmanager API v2 shape (Prometheus), or a silence read back. */
export type AlertVia = 'webhook' | 'api' | 'silence';

/**
 * The catalogue entity an alert is about. `service` and `asset` keys are catalogue keys (`svc:checkout`,
 * `host:db-1`, `pod:shop/web-1`, `workload:shop/Deployment/web`), `source` is a catalogue monitoring
 * source id. Nothing maps → `unmapped`: recorded, never held.
 */
export type Subject =
  | { kind: 'service' | 'asset' | 'source'; key: string; name: string }
  | { kind: 'unmapped'; key: null; name: null };

/** One alert as Alertmanager and Prometheus describe it, after parsing either intake shape. */
export type IncomingAlert = {
  fingerprint: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: AlertState;
  startsAt: string;
  /** null while firing with no end (Alertmanager's 0001-01-01). */
  endsAt: string | null;
  generatorURL: string | null;
};

/** An alert as stored: its latest state and the subject it is about. */
export type AlertRecord = IncomingAlert & {
  orgId: string;
  alertname: string;
  subject: Subject;
  /** "<service> · <alertname> · <source>" — subjects are printed by name, never by key. */
  subjectLabel: string;
  source: string;
  firstSeen: string;
  lastSeen: string;
  /** The change whose live hold covers it now; null when nothing holds it. */
  heldBy: { changeId: string; displayId: string; title: string } | null;
};

export type Transition = { fingerprint: string; state: AlertState; at: string; receivedAt: string; via: AlertVia; heldBy: string | null };

/** Which labels name which kind of subject, tried in order; the first that names a catalogue entity wins. */
export type LabelRule =
  | { labels: string[]; as: 'service' }
  | { labels: string[]; as: 'asset'; kinds: string[] }
  | { labels: [string, string]; as: 'pod' }
  | { labels: string[]; as: 'source' };
export type LabelMapping = LabelRule[];

export type DestinationKind = 'webhook' | 'email' | 'slack' | 'pagerduty';
