/**
 * The health of each subject of a change's blast radius over its window, read from the alert
 * history (alerts' alertEvidence). Pure. Only subjects in the change's scope count; a subject is a
 * component when it is one of the change's components, else a neighbour. The flags the verdict's
 * exceptions need are decided here, once:
 *   - down: an availability alert: its name says down / unavailable / unreachable, or its labels say health="down";
 *   - latencyThresholdZero: a latency alarm (its name or labels speak of latency, duration, p95/p99 or slowness)
 *     whose `threshold` label or annotation is 0, so it fires on every sample;
 *   - clusterScope: about a Kubernetes cluster as a whole (a cluster asset, or labels scope="cluster").
 */
import type { AlertEvidence, AlertRecord, SubjectEvidence } from '../alerts/index.js';
import type { Role, SubjectAlert, SubjectHealth } from './evidence-types.js';

const DOWN_WORDS = /down|unavailable|unreachable/i;
const LATENCY_WORDS = /latency|duration|slow|p9[59]/i;

export function isDownAlert(a: Pick<AlertRecord, 'alertname' | 'labels'>): boolean {
  return DOWN_WORDS.test(a.alertname) || a.labels.health?.toLowerCase() === 'down';
}

export function isLatencyThresholdZero(a: Pick<AlertRecord, 'alertname' | 'labels' | 'annotations'>): boolean {
  const latency = LATENCY_WORDS.test(a.alertname) || Object.keys(a.labels).some((k) => LATENCY_WORDS.test(k)) || LATENCY_WORDS.test(a.labels.signal ?? '');
  const raw = a.labels.threshold ?? a.annotations.threshold;
  if (!latency || raw === undefined || raw.trim() === '') return false;
  const n = Number(raw.trim());
  return Number.isFinite(n) && n === 0;
}

export function isClusterScope(a: Pick<AlertRecord, 'labels' | 'subject'>): boolean {
  return a.labels.scope?.toLowerCase() === 'cluster' || (a.subject.kind === 'asset' && a.subject.key.startsWith('cluster:'));
}

const toAlert = (a: AlertRecord): SubjectAlert => ({
  fingerprint: a.fingerprint, alertname: a.alertname, label: a.subjectLabel, severity: a.labels.severity ?? null, labels: a.labels,
  down: isDownAlert(a), latencyThresholdZero: isLatencyThresholdZero(a), clusterScope: isClusterScope(a),
});

type Stretch = { from: number; to: number };

/** The stretches inside [start, end] during which any of the given fingerprints was firing. */
function errorStretches(s: SubjectEvidence, fps: Set<string>, preFiring: Set<string>, start: number, end: number): Stretch[] {
  const firing = new Set([...preFiring].filter((f) => fps.has(f)));
  const out: Stretch[] = [];
  let since: number | null = firing.size ? start : null;
  for (const t of s.transitions) {
    if (!fps.has(t.fingerprint)) continue;
    const at = Math.min(Math.max(Date.parse(t.at), start), end);
    if (t.state === 'firing') firing.add(t.fingerprint);
    else firing.delete(t.fingerprint);
    if (firing.size && since === null) since = at;
    if (!firing.size && since !== null) {
      out.push({ from: since, to: at });
      since = null;
    }
  }
  if (since !== null) out.push({ from: since, to: end });
  return out;
}

const longest = (xs: Stretch[]) => Math.round((xs.reduce((m, x) => Math.max(m, x.to - x.from), 0) / 60_000) * 10) / 10;

/**
 * One SubjectHealth per subject of the scope that had an alert in the window or was already in
 * error when it opened. `components` are the change's own component keys.
 */
export function subjectHealth(ev: AlertEvidence, components: ReadonlySet<string>, window: { start: string; end: string }): SubjectHealth[] {
  const start = Date.parse(window.start);
  const end = Date.parse(window.end);
  const records = new Map(ev.alerts.map((a) => [a.fingerprint, a]));
  const preFiring = new Set(ev.preExisting.flatMap((p) => p.fingerprints));
  const out: SubjectHealth[] = [];
  for (const s of ev.subjects) {
    if (!s.inScope || s.subject.kind === 'unmapped') continue;
    const alerts = s.fingerprints.map((f) => records.get(f)).filter((a): a is NonNullable<typeof a> => a !== undefined);
    const all = new Set(s.fingerprints);
    const down = new Set(alerts.filter(isDownAlert).map((a) => a.fingerprint));
    const stretches = errorStretches(s, all, preFiring, start, end);
    // Fired inside the window and resolved before its end: a firing followed by its own resolved.
    const fired = new Set<string>();
    let firedAndRecovered = false;
    for (const t of s.transitions) {
      if (Date.parse(t.at) < start || Date.parse(t.at) > end) continue;
      if (t.state === 'firing') fired.add(t.fingerprint);
      else if (fired.has(t.fingerprint)) firedAndRecovered = true;
    }
    const role: Role = components.has(s.subject.key) ? 'component' : 'neighbour';
    out.push({
      kind: s.subject.kind, key: s.subject.key,
      label: s.subject.kind === 'source' ? `${s.label} (source health)` : s.label,
      role, preExisting: s.preExisting,
      enteredError: s.transitions.filter((t) => t.state === 'firing' && Date.parse(t.at) >= start && Date.parse(t.at) <= end).length,
      openAtEnd: stretches.at(-1)?.to === end,
      longestErrorMinutes: longest(stretches),
      downMinutes: down.size ? longest(errorStretches(s, down, preFiring, start, end)) : 0,
      firedAndRecovered,
      transitions: s.transitions.map((t) => ({ at: t.at, state: t.state, fingerprint: t.fingerprint, alertname: records.get(t.fingerprint)?.alertname ?? '' })),
      alerts: alerts.map(toAlert),
    });
  }
  return out.sort((a, b) => (a.role === b.role ? a.label.localeCompare(b.label) : a.role === 'component' ? -1 : 1));
}
