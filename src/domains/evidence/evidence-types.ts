/**
 * The words of the evidence domain: what a change's evidence holds, what the verdict answers, what
 * the AI assessment answers. The evidence is stored with its report version (change_reports.body),
 * so every form of the report (HTML, text, CSV, JSON, the change page) is a pure function of it and
 * a re-render reproduces it exactly. A value nobody measured is `null` (printed "—"), never 0.
 *
 * This file imports nothing, so that the web UI reads the same words (web/src/api/report-types.ts)
 * instead of a copy. Impact is changes' own; evidence-service.ts checks that the two stay equal.
 */

/** The verdict's tiers: changes' Impact, restated here so this file stays free of imports. */
export type Impact = 'outage' | 'significant' | 'minor' | 'none' | 'unknown';

/** A half-open span of time, ISO instants. */
export type Span = { start: string; end: string };

/**
 * The span judged and its two baselines: start (started, else the window's start) → finish +
 * horizon, the hour before start, and the same span a week earlier (PromQL `offset 1w`).
 */
export type EvidenceWindow = {
  start: string;
  finish: string;
  /** finish + evidenceMinutes: the horizon, where collection happens. */
  end: string;
  evidenceMinutes: number;
  hourBefore: Span;
  weekEarlier: Span;
};

/** A measured figure, or null where nobody measured it. */
export type Figure = number | null;

/** One figure in the window and in both baselines. */
export type Compared = { window: Figure; hourBefore: Figure; weekEarlier: Figure };

/** A series at a fixed step from its span's start; null where there was no sample. */
export type Series = { stepSeconds: number; start: string; values: Figure[] };

/** The window's series, the week-earlier one aligned to it, and the hour before's own. */
export type ComparedSeries = { window: Series; weekEarlier: Series; hourBefore: Series };

export type RedSignal = 'rate' | 'errorRatio' | 'p95';

/** A part of the evidence that was measured, or why not: never an error, never a made-up value. */
export type Measured<T> = { status: 'measured'; value: T } | { status: 'not_measured'; reason: string };

/** Which evidence source a part came from (names, for the report; ids, for links). */
export type SourceRef = { id: string; kind: 'prometheus' | 'loki' | 'elasticsearch' | 'otlp' | 'alerts'; name: string };

/** A service of the blast radius: one of the change's components, or a neighbour within the hops. */
export type Role = 'component' | 'neighbour';
export type ServiceRef = { key: string; name: string; role: Role };

/** RED of one service. rate in requests per second, errorRatio 0..1, p95 in seconds. */
export type ServiceRed = ServiceRef & {
  rate: Compared;
  errorRatio: Compared;
  p95: Compared;
  series: Record<RedSignal, ComparedSeries> | null;
};

export type MetricsValue = {
  /** 'otel' | 'classic' | 'custom': which query templates ran (per-service overrides count as custom). */
  templates: string;
  /** How many PromQL queries the collection made (one per signal and span `by (service)`, not one per service). */
  queries: number;
  services: ServiceRed[];
};
export type MetricsPart = { source: SourceRef } & Measured<MetricsValue>;

/** One error fingerprint: a message template with numbers, ids and hex masked. */
export type LogFingerprint = {
  template: string;
  /** Counts of error records with this template; null where that span was not measured. */
  counts: Compared;
  /** Neither baseline has it (both measured, both 0). */
  isNew: boolean;
  /** One message of the window, scrubbed of secrets. */
  sample: string;
  services: string[];
};

export type LogsValue = {
  /** Records of any level, and error records (severity ≥ error). */
  volume: Compared;
  errors: Compared;
  /** The most frequent templates of the window first, at most MAX_FINGERPRINTS. */
  fingerprints: LogFingerprint[];
};
export type LogsPart = { source: SourceRef } & Measured<LogsValue>;

/** One alert of a subject, with the flags the verdict's exceptions need. */
export type SubjectAlert = {
  fingerprint: string;
  alertname: string;
  /** "<service> · <alertname> · <source>": names, not keys. */
  label: string;
  severity: string | null;
  labels: Record<string, string>;
  /** An availability alert (its name says down / unavailable / unreachable, or labels health="down"). */
  down: boolean;
  /** A latency alarm whose threshold (label or annotation `threshold`) is 0: fires on every sample. */
  latencyThresholdZero: boolean;
  /** About a Kubernetes cluster as a whole (a cluster asset, or labels scope="cluster"), where 0 is by design. */
  clusterScope: boolean;
};

/** The health of one subject of the blast radius over the window, from the alert history. */
export type SubjectHealth = {
  kind: 'service' | 'asset' | 'source';
  key: string;
  /** Its name (a source: "<source> (source health)"): the report never prints keys. */
  label: string;
  role: Role;
  /** In error when the window started. */
  preExisting: boolean;
  /** How many times it entered error inside the window. */
  enteredError: number;
  /** Still in error at the window's end. */
  openAtEnd: boolean;
  /** The longest stretch it was in error inside the window, in minutes (down alerts only: downMinutes). */
  longestErrorMinutes: number;
  downMinutes: number;
  /** Fired inside the window and recovered before its end. */
  firedAndRecovered: boolean;
  transitions: Array<{ at: string; state: 'firing' | 'resolved'; fingerprint: string; alertname: string }>;
  alerts: SubjectAlert[];
};

export type AlertsValue = { subjects: SubjectHealth[]; truncated: boolean };
export type AlertsPart = { source: SourceRef } & Measured<AlertsValue>;

/**
 * The thresholds behind "moved against every baseline": a signal moved when it is worse than BOTH
 * baselines by at least the relative factor AND the absolute floor. Documented, per organisation.
 */
export type Thresholds = {
  /** The error ratio rose by ≥ this many percentage points (0..100) … */
  errorRatioPoints: number;
  /** … and to ≥ this multiple of the baseline. */
  errorRatioFactor: number;
  /** p95 rose by ≥ this fraction (0.5 = +50 %) … */
  latencyIncrease: number;
  /** … and by ≥ this many milliseconds. */
  latencyFloorMs: number;
  /** The request rate fell by ≥ this fraction (0.5 = half) … */
  rateDrop: number;
  /** … from a baseline of at least this many requests per second. */
  rateFloor: number;
  /** A component counts as down after this many minutes in error (the spec's 5). */
  downMinutes: number;
  /** A subject that entered error this many times is flapping (the spec's 3). */
  flappingEntries: number;
};

/** Who registered the change: the "Registered by" line. */
export type RegisteredBy = { user: { email: string; name: string | null }; token: { id: string; name: string } | null };

/** What the report shows of the change, frozen with the evidence. */
export type EvidenceChange = {
  id: string;
  displayId: string;
  title: string;
  kind: string;
  outcome: string | null;
  components: Array<{ key: string; name: string; kind: string }>;
  registeredBy: RegisteredBy;
  ticket: { key: string; url: string | null } | null;
  link: string;
};

/** How one validation item came out: the spec's three row states. */
export type ValidationState = 'pass' | 'fail' | 'not_observed';
export type ValidationOutcome = 'cleared' | 'still_present' | 'uncertain';

/** One item of the validation plan as registered, with the row its check wrote (null: not checked yet). */
export type ValidationItemPart = {
  id: string;
  target: string;
  check: 'promql' | 'http';
  /** The PromQL query or the URL the item reads. */
  read: string;
  /** For http the value is the HTTP status expected. */
  expected: { op: string; value: number | string };
  row: { state: ValidationState; observed: string | null; detail: string; checkedAt: string } | null;
};

/** The validation plan's result at collection: checked 30 s or more after the finish, or not yet. */
export type ValidationPart = {
  /** null: not checked yet (checkedAt null). */
  result: ValidationOutcome | null;
  reason: string | null;
  checkedAt: string | null;
  /** When the check is (or was) due: 30 s after the finish. */
  dueAt: string | null;
  items: ValidationItemPart[];
};

/** One before-state (last-known-good) capture, without its artifact's bytes. */
export type CapturePart = {
  method: 'previous_version' | 'previous_commit' | 'base_commit' | 'artifact';
  /** The version, the commit or the artifact's name; null for an unnamed artifact. */
  reference: string | null;
  completeness: 'complete' | 'partial' | 'unknown';
  prestateStatus: 'present' | 'absent' | 'unknown';
  restorable: boolean;
  sizeBytes: number;
  sha256: string;
  capturedAt: string;
  /** Who gave it, by name. */
  capturedBy: string;
};

/** The before-state the change was approved with and what became of its rollback, at collection. */
export type GovernancePart = {
  beforeState: { digest: string | null; captures: CapturePart[] };
  rollback: {
    state: 'requested' | 'rolled_back' | 'failed' | null;
    requestedAt: string | null;
    completedAt: string | null;
    /** Who released it: people, or the rollback sweep. */
    releasedBy: Array<{ kind: 'person' | 'sweep'; email: string | null; at: string }>;
    /** The sweep's one decision on the change. */
    decision: { decision: 'execute' | 'escalate' | 'skip'; reason: string; at: string } | null;
  };
};

/** The post-implementation review as the report shows it: whether one is needed, and its latest version. */
export type ReviewPart = {
  required: boolean;
  /** Why it is needed (emergency, rolled back, verdict outage or significant); empty when it is not. */
  reasons: string[];
  /** The latest version; null: none written yet. */
  review: {
    version: number;
    summary: string;
    cause: string;
    whatWentWell: string;
    followUps: Array<{ text: string; owner: string; due: string }>;
    /** Who wrote it, by name (or e-mail address when the account has no name). */
    author: string;
    createdAt: string;
  } | null;
};

/**
 * schema stays 1: the parts added later are optional, so every reader (the web's isEvidence, the
 * renderers) takes an old stored body as it is. Absent (an older report) is not null (nothing to show).
 */
export type Evidence = {
  schema: 1;
  collectedAt: string;
  change: EvidenceChange;
  window: EvidenceWindow;
  thresholds: Thresholds;
  services: ServiceRef[];
  alerts: AlertsPart;
  metrics: MetricsPart[];
  logs: LogsPart[];
  /** Whether the server can send e-mail: without SMTP the report says so. */
  mailConfigured: boolean;
  /** The validation plan's result; null: the change has no plan; absent: a report older than validation. */
  validation?: ValidationPart | null;
  /** Before-state and rollback; absent: a report older than them. */
  governance?: GovernancePart;
  /**
   * The post-implementation review; absent: a report older than reviews. A review written after
   * the report is added as the report's next version, the evidence otherwise unchanged.
   */
  review?: ReviewPart;
};

export type VerdictRule =
  | 'component_error_open' | 'component_down'
  | 'component_moved' | 'alert_fired_recovered' | 'neighbour_error_open'
  | 'minor' | 'nothing_moved' | 'nothing_measured';

/** One thing that made the rule match, in words (subjects by name). */
export type Matched = { rule: VerdictRule; subject: string; text: string };

export type NotCountedKind = 'flapping' | 'pre_existing' | 'rule_defect';
export type NotCounted = { kind: NotCountedKind; subject: string; text: string };

/** The rules' answer: the first rule that matched, what matched it, and what it did not count. */
export type Verdict = { impact: Impact; rule: VerdictRule; reason: string; matched: Matched[]; notCounted: NotCounted[] };

export type AiFindingTag = 'impact' | 'noise' | 'pre-existing' | 'rule defect';

/** The AI assessment beside the verdict. It never changes the verdict. */
export type AiAssessment =
  | {
    status: 'done';
    provider: { kind: 'openai' | 'anthropic'; model: string };
    tier: Impact;
    confidence: number;
    summary: string;
    findings: Array<{ tag: AiFindingTag; text: string }>;
    recommendations: string[];
  }
  | { status: 'off' }
  | { status: 'no_provider' }
  | { status: 'unavailable'; reason: string };

/** The stored forms of one report version. */
export type ReportForms = { html: string; text: string; csv: string };
