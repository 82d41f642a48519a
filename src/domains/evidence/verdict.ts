/**
 * The verdict: a pure function of the stored evidence, so a re-render reproduces it exactly. The
 * first tier whose rules match wins, in the spec's order: outage, significant, minor, none,
 * unknown. `rule` names the first rule of that tier that matched; `matched` lists everything of
 * that tier that matched (each with its rule); `notCounted` the exceptions — flapping, pre-existing,
 * rule defect — whatever the tier. Every text names subjects by name, never by key.
 */
import type {
  Evidence, Impact, Matched, NotCounted, RedSignal, ServiceRed, SubjectAlert, SubjectHealth, Thresholds, Verdict, VerdictRule,
} from './evidence-types.js';
import { moved } from './movement.js';
import { figure, SIGNAL_NAMES, SIGNALS } from './report-words.js';

/** The rules of each tier, in the order they are tried. */
const TIERS: Array<{ impact: Impact; rules: VerdictRule[] }> = [
  { impact: 'outage', rules: ['component_error_open', 'component_down'] },
  { impact: 'significant', rules: ['component_moved', 'alert_fired_recovered', 'neighbour_error_open'] },
  { impact: 'minor', rules: ['minor'] },
];

/** A latency alarm at threshold 0 fires on every sample; at Kubernetes cluster scope 0 is by design. */
export const isRuleDefect = (a: SubjectAlert): boolean => a.latencyThresholdZero && !a.clusterScope;

const role = (r: 'component' | 'neighbour') => (r === 'component' ? 'component' : 'neighbour');
const times = (n: number) => (n === 1 ? 'once' : `${n} times`);

type Part = { enteredError: number; openAtEnd: boolean; firedAndRecovered: boolean };

/**
 * The flags of some of a subject's alerts, from its transitions: used when a subject holds a
 * rule-defect alert beside others, so the defect's firings do not count as the subject's errors.
 * An alert with no transition in the window keeps the state it had at the start.
 */
function partOf(s: SubjectHealth, fingerprints: Set<string>): Part {
  const last = new Map<string, 'firing' | 'resolved'>();
  let enteredError = 0;
  const fired = new Set<string>();
  for (const t of s.transitions) {
    if (!fingerprints.has(t.fingerprint)) continue;
    last.set(t.fingerprint, t.state);
    if (t.state === 'firing') {
      enteredError += 1;
      fired.add(t.fingerprint);
    }
  }
  const untouchedOpen = s.preExisting && s.openAtEnd && [...fingerprints].some((f) => !last.has(f));
  return {
    enteredError,
    openAtEnd: [...last.values()].includes('firing') || untouchedOpen,
    firedAndRecovered: [...fired].some((f) => last.get(f) === 'resolved'),
  };
}

/** A subject split into what the verdict counts and its rule-defect alerts (skipped). */
function split(s: SubjectHealth): { counted: Part | null; defects: SubjectAlert[]; defect: Part | null } {
  const defects = s.alerts.filter(isRuleDefect);
  if (defects.length === 0) return { counted: s, defects, defect: null };
  const rest = s.alerts.filter((a) => !isRuleDefect(a));
  return {
    counted: rest.length ? partOf(s, new Set(rest.map((a) => a.fingerprint))) : null,
    defects,
    defect: partOf(s, new Set(defects.map((a) => a.fingerprint))),
  };
}

function judgeSubjects(subjects: SubjectHealth[], t: Thresholds, hit: (m: Matched) => void, skip: (n: NotCounted) => void): void {
  for (const s of subjects) {
    const { counted, defects, defect } = split(s);
    if (defect) {
      const names = defects.map((a) => a.alertname).join(', ');
      const flapped = defect.enteredError >= t.flappingEntries;
      skip({
        kind: 'rule_defect', subject: s.label,
        text: `${s.label}: ${names} is a latency alarm at threshold 0, which fires on every sample — skipped. Raise the source's latency alarm threshold.`,
      });
      if (defect.openAtEnd || flapped) {
        hit({ rule: 'minor', subject: s.label, text: `${s.label}: the latency alarm at threshold 0 (${names}) ${defect.openAtEnd ? 'was still open at the end' : `fired ${times(defect.enteredError)}`} — a rule defect, minor.` });
      }
    }
    if (!counted) continue;
    const flapping = counted.enteredError >= t.flappingEntries;
    if (flapping) {
      skip({ kind: 'flapping', subject: s.label, text: `${s.label} entered error ${times(counted.enteredError)} in the window: unstable (flapping), not counted as an open error.` });
      hit({ rule: 'minor', subject: s.label, text: `${s.label} (${role(s.role)}) is flapping: it entered error ${times(counted.enteredError)}.` });
    } else if (s.preExisting) {
      skip({ kind: 'pre_existing', subject: s.label, text: `${s.label} was already in error when the window started: a caveat, not counted.` });
      continue;
    }
    // A long down stretch is no noise: it counts even for a subject that also flapped.
    if (s.role === 'component' && !s.preExisting && s.downMinutes >= t.downMinutes) {
      hit({ rule: 'component_down', subject: s.label, text: `${s.label} (component) was down for ${Math.round(s.downMinutes)} min (${t.downMinutes} min or more is an outage).` });
    }
    if (flapping) continue;
    if (counted.openAtEnd) {
      hit(s.role === 'component'
        ? { rule: 'component_error_open', subject: s.label, text: `${s.label} (component) was still in error at the end of the window.` }
        : { rule: 'neighbour_error_open', subject: s.label, text: `${s.label} (neighbour) was still in error at the end of the window.` });
    } else if (counted.firedAndRecovered) {
      hit({ rule: 'alert_fired_recovered', subject: s.label, text: `${s.label} (${role(s.role)}): an alert fired in the window and recovered.` });
    }
  }
}

function movedText(s: ServiceRed, signal: RedSignal): string {
  const c = s[signal];
  return `${s.name} (${role(s.role)}): ${SIGNAL_NAMES[signal]} ${figure(signal, c.window)} against ${figure(signal, c.hourBefore)} the hour before and ${figure(signal, c.weekEarlier)} a week earlier`;
}

function judgeMetrics(services: ServiceRed[], source: string, t: Thresholds, hit: (m: Matched) => void): void {
  for (const s of services) {
    for (const signal of SIGNALS) {
      if (moved(s[signal], signal, t) !== 'worse') continue;
      hit(s.role === 'component'
        ? { rule: 'component_moved', subject: s.name, text: `${movedText(s, signal)} (${source}).` }
        : { rule: 'minor', subject: s.name, text: `${movedText(s, signal)} (${source}): a neighbour moved.` });
    }
  }
}

const anyFigure = (services: ServiceRed[]) => services.some((s) => SIGNALS.some((k) => s[k].window !== null));

/** What was measured, and why each unmeasured part was not: for the none / unknown reasons. */
function measuredParts(e: Evidence): { measured: string[]; missing: string[] } {
  const measured: string[] = [];
  const missing: string[] = [];
  if (e.alerts.status === 'measured') measured.push('alerts');
  else missing.push(`alerts: ${e.alerts.reason}`);
  if (e.metrics.length === 0) missing.push('RED metrics: no metrics source');
  for (const m of e.metrics) {
    if (m.status === 'measured' && anyFigure(m.value.services)) measured.push(`RED metrics (${m.source.name})`);
    else missing.push(`RED metrics (${m.source.name}): ${m.status === 'measured' ? 'no series for the services of the blast radius' : m.reason}`);
  }
  if (e.logs.length === 0) missing.push('logs: no log source');
  for (const l of e.logs) {
    if (l.status === 'measured' && l.value.volume.window !== null) measured.push(`logs (${l.source.name})`);
    else missing.push(`logs (${l.source.name}): ${l.status === 'measured' ? 'no records counted' : l.reason}`);
  }
  return { measured, missing };
}

const list = (xs: string[]) => xs.join('; ');

/** The first thing that matched, and how many more: the impact itself is said beside it (a chip, "Impact …:"). */
function reasonOf(matched: Matched[]): string {
  const more = matched.length - 1;
  if (!more) return matched[0]!.text;
  // "… at the end of the window (and 1 more)." — the count inside the sentence, before its stop.
  const text = matched[0]!.text.replace(/\.$/, '');
  return `${text} (and ${more} more).`;
}

const capital = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`;

export function judge(evidence: Evidence): Verdict {
  const t = evidence.thresholds;
  const matched: Matched[] = [];
  const notCounted: NotCounted[] = [];
  const hit = (m: Matched) => matched.push(m);
  const skip = (n: NotCounted) => notCounted.push(n);
  if (evidence.alerts.status === 'measured') judgeSubjects(evidence.alerts.value.subjects, t, hit, skip);
  for (const m of evidence.metrics) if (m.status === 'measured') judgeMetrics(m.value.services, m.source.name, t, hit);
  for (const l of evidence.logs) {
    if (l.status !== 'measured') continue;
    for (const f of l.value.fingerprints.filter((x) => x.isNew)) {
      hit({ rule: 'minor', subject: f.template, text: `A new error log message (${l.source.name}), in neither baseline: “${f.template}” × ${f.counts.window ?? 0}.` });
    }
  }
  for (const tier of TIERS) {
    const mine = matched.filter((m) => tier.rules.includes(m.rule));
    if (mine.length === 0) continue;
    mine.sort((a, b) => tier.rules.indexOf(a.rule) - tier.rules.indexOf(b.rule));
    return { impact: tier.impact, rule: mine[0]!.rule, reason: reasonOf(mine), matched: mine, notCounted };
  }
  const { measured, missing } = measuredParts(evidence);
  if (measured.length > 0) {
    const reason = `${capital(list(measured))} measured, and nothing moved against both baselines${missing.length ? ` (not measured: ${list(missing)})` : ''}.`;
    return { impact: 'none', rule: 'nothing_moved', reason, matched: [], notCounted };
  }
  return { impact: 'unknown', rule: 'nothing_measured', reason: `Nothing was measured (${list(missing)}).`, matched: [], notCounted };
}
