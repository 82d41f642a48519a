import type { AlertsPart, Compared, ComparedSeries, LogsPart, MetricsPart, RedSignal, ServiceRed, SubjectHealth } from '../api/report-types';
import { redSignals } from '../api/report-types';
import { pluralize } from '../lib/format';
import { comparedParts, formatCount, formatFigure, signalLabels } from '../lib/report-format';
import { ChartLegend, ReportChart } from './report-chart';

// The evidence the verdict rests on, part by part: RED per service (figures and uPlot charts),
// the health of each subject from the alert history, the log volume and error fingerprints. A
// part nobody could measure says so, with the reason; a figure nobody measured is "—".

function NotMeasured({ what, reason, testId }: { what: string; reason: string; testId: string }) {
  return (
    <p className="muted small" data-testid={testId}>
      {what}: not measured ({reason})
    </p>
  );
}

/** One signal of one service: its figures in the window and both baselines, and its chart. */
function Signal({ signal, c, series }: { signal: RedSignal; c: Compared; series: ComparedSeries | null }) {
  return (
    <div className="report-signal" data-testid={`red-${signal}`}>
      <div className="report-signal-head small">
        <span className="muted">{signalLabels[signal]}</span>
        <span className="mono">
          {comparedParts.map(([k, label]) => (
            <span key={k} className={k === 'window' ? 'red-figure red-window' : 'red-figure'} title={label}>
              {formatFigure(signal, c[k])}
            </span>
          ))}
        </span>
      </div>
      {series === null ? <p className="muted small report-chart-empty">— no series</p> : <ReportChart signal={signal} series={series} />}
    </div>
  );
}

function ServiceBlock({ s }: { s: ServiceRed }) {
  return (
    <div className="report-service" data-testid="report-service" data-service={s.name}>
      <h4>
        {s.name} <span className="muted small">{s.role}</span>
      </h4>
      <div className="report-signals">
        {redSignals.map((sig) => (
          <Signal key={sig} signal={sig} c={s[sig]} series={s.series === null ? null : s.series[sig]} />
        ))}
      </div>
    </div>
  );
}

const templateWords: Record<string, string> = { otel: 'OpenTelemetry HTTP queries', classic: 'classic queries', custom: 'the organisation’s own queries' };

/** One block per source of a kind: "not measured" with its reason, or what it measured. */
function SourceParts<P extends MetricsPart | LogsPart>({ parts, what, none, kind, render }: {
  parts: P[]; what: string; none: string; kind: 'metrics' | 'logs'; render: (p: Extract<P, { status: 'measured' }>) => React.ReactNode;
}) {
  if (parts.length === 0) return <p className="muted small" data-testid={`report-${kind}-none`}>{what}: not measured ({none})</p>;
  return (
    <>
      {parts.map((p) =>
        p.status === 'not_measured' ? (
          <NotMeasured key={p.source.id} what={`${what} from ${p.source.name}`} reason={p.reason} testId={`report-${kind}-not-measured`} />
        ) : (
          <div key={p.source.id} className="report-part" data-testid={`report-${kind}`}>
            {render(p as Extract<P, { status: 'measured' }>)}
          </div>
        ),
      )}
    </>
  );
}

export function ReportMetrics({ parts }: { parts: MetricsPart[] }) {
  return (
    <SourceParts parts={parts} what="Metrics" none="no Prometheus source is configured" kind="metrics" render={(p) => (
      <>
        <p className="muted small">
          RED from {p.source.name} ({templateWords[p.value.templates] ?? p.value.templates}, {pluralize(p.value.queries, 'PromQL query', 'PromQL queries')}). Figures: window ·
          hour before · week earlier.
        </p>
        <ChartLegend />
        {p.value.services.map((s) => (
          <ServiceBlock key={s.key} s={s} />
        ))}
      </>
    )} />
  );
}

/** What happened to a subject, in words: only what did. */
function healthWords(s: SubjectHealth): string {
  const words: string[] = [];
  if (s.preExisting) words.push('already in error when the window started');
  if (s.enteredError > 0) words.push(`entered error ${pluralize(s.enteredError, 'time')}`);
  if (s.firedAndRecovered) words.push('fired and recovered');
  if (s.openAtEnd) words.push('still in error at the end');
  return words.join(', ');
}

export function ReportAlerts({ part }: { part: AlertsPart }) {
  if (part.status === 'not_measured') return <NotMeasured what="Alerts" reason={part.reason} testId="report-alerts-not-measured" />;
  const moved = part.value.subjects.filter((s) => s.enteredError > 0 || s.preExisting || s.openAtEnd);
  return (
    <div className="report-part" data-testid="report-alerts">
      <p className="muted small">Health from the alert history ({pluralize(part.value.subjects.length, 'subject')} watched)</p>
      {moved.length === 0 ? (
        <p className="small">No subject of the blast radius was in error.</p>
      ) : (
        <ul className="small">
          {moved.map((s) => (
            <li key={`${s.kind}-${s.key}`} data-testid="report-subject">
              <strong>{s.label}</strong> ({s.role}): {healthWords(s)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ReportLogs({ parts }: { parts: LogsPart[] }) {
  return (
    <SourceParts parts={parts} what="Logs" none="no log source is configured" kind="logs" render={(p) => (
      <>
        <p className="muted small">
          Logs from {p.source.name}: {formatCount(p.value.volume.window)} records ({formatCount(p.value.volume.hourBefore)} the hour before,{' '}
          {formatCount(p.value.volume.weekEarlier)} a week earlier); {formatCount(p.value.errors.window)} errors
        </p>
        {p.value.fingerprints.length > 0 && (
          <table className="data-table report-fingerprints">
            <thead>
              <tr>
                <th scope="col">Error fingerprint</th>
                <th scope="col">Window</th>
                <th scope="col">Hour before</th>
                <th scope="col">Week earlier</th>
              </tr>
            </thead>
            <tbody>
              {p.value.fingerprints.map((f) => (
                <tr key={f.template} data-testid="report-fingerprint" data-new={String(f.isNew)}>
                  <td>
                    {f.isNew && <span className="pill pill-new">new</span>} <code className="mono small">{f.template}</code>
                    {f.services.length > 0 && <div className="muted small">{f.services.join(', ')}</div>}
                  </td>
                  {comparedParts.map(([k]) => (
                    <td key={k} className="mono small">{formatCount(f.counts[k])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </>
    )} />
  );
}
