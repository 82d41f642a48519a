import type { AlertsPart, Compared, LogsPart, MetricsPart, RedSignal, ServiceRed } from '../api/report-types';
import { redSignals } from '../api/report-types';
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

function Figures({ signal, c }: { signal: RedSignal; c: Compared }) {
  return (
    <td className="mono small nowrap" data-testid={`red-${signal}`}>
      {comparedParts.map(([k, label]) => (
        <span key={k} className={k === 'window' ? 'red-figure red-window' : 'red-figure'} title={label}>
          {formatFigure(signal, c[k])}
        </span>
      ))}
    </td>
  );
}

function ServiceRow({ s }: { s: ServiceRed }) {
  return (
    <>
      <tr data-testid="report-service" data-service={s.name}>
        <th scope="row">
          {s.name} <span className="muted small">{s.role}</span>
        </th>
        {redSignals.map((sig) => (
          <Figures key={sig} signal={sig} c={s[sig]} />
        ))}
      </tr>
      <tr className="report-chart-row">
        <td colSpan={4}>
          {s.series === null ? (
            <p className="muted small">— no series</p>
          ) : (
            <div className="report-charts">
              {redSignals.map((sig) => (
                <ReportChart key={sig} signal={sig} series={s.series![sig]} />
              ))}
            </div>
          )}
        </td>
      </tr>
    </>
  );
}

export function ReportMetrics({ parts }: { parts: MetricsPart[] }) {
  if (parts.length === 0) return <p className="muted small" data-testid="report-metrics-none">Metrics: not measured (no Prometheus source is configured)</p>;
  return (
    <>
      {parts.map((p) =>
        p.status === 'not_measured' ? (
          <NotMeasured key={p.source.id} what={`Metrics from ${p.source.name}`} reason={p.reason} testId="report-metrics-not-measured" />
        ) : (
          <div key={p.source.id} className="report-part" data-testid="report-metrics">
            <p className="muted small">
              RED from {p.source.name} ({p.value.templates} queries, {p.value.queries} PromQL queries): window · hour before · week earlier
            </p>
            <ChartLegend />
            <table className="data-table report-red">
              <thead>
                <tr>
                  <th scope="col">Service</th>
                  {redSignals.map((sig) => (
                    <th key={sig} scope="col">{signalLabels[sig]}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {p.value.services.map((s) => (
                  <ServiceRow key={s.key} s={s} />
                ))}
              </tbody>
            </table>
          </div>
        ),
      )}
    </>
  );
}

export function ReportAlerts({ part }: { part: AlertsPart }) {
  if (part.status === 'not_measured') return <NotMeasured what="Alerts" reason={part.reason} testId="report-alerts-not-measured" />;
  const moved = part.value.subjects.filter((s) => s.enteredError > 0 || s.preExisting || s.openAtEnd);
  return (
    <div className="report-part" data-testid="report-alerts">
      <p className="muted small">Health from the alert history ({part.value.subjects.length} subjects watched)</p>
      {moved.length === 0 ? (
        <p className="small">No subject of the blast radius was in error.</p>
      ) : (
        <ul className="small">
          {moved.map((s) => (
            <li key={`${s.kind}-${s.key}`} data-testid="report-subject">
              <strong>{s.label}</strong> ({s.role}): entered error {s.enteredError}×{s.openAtEnd ? ', still open at the end' : ''}
              {s.firedAndRecovered ? ', fired and recovered' : ''}
              {s.preExisting ? ', already in error at the start' : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ReportLogs({ parts }: { parts: LogsPart[] }) {
  if (parts.length === 0) return <p className="muted small" data-testid="report-logs-none">Logs: not measured (no log source is configured)</p>;
  return (
    <>
      {parts.map((p) =>
        p.status === 'not_measured' ? (
          <NotMeasured key={p.source.id} what={`Logs from ${p.source.name}`} reason={p.reason} testId="report-logs-not-measured" />
        ) : (
          <div key={p.source.id} className="report-part" data-testid="report-logs">
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
          </div>
        ),
      )}
    </>
  );
}
