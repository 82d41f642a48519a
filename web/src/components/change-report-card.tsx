import { useEffect, useState } from 'react';
import { reportHref, evidenceApi } from '../api/evidence-client';
import { isEvidence, type ReportAnswer } from '../api/report-types';
import type { Change, ChangeReport } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc } from '../lib/format';
import { disagreementLine } from '../lib/report-format';
import { ImpactChip } from './change-badges';
import { ErrorBanner } from './error-banner';
import { ReportAi } from './report-ai';
import { ReportAlerts, ReportLogs, ReportMetrics } from './report-evidence';
import { ReportVerdict, ReportWindowLine } from './report-verdict';
import './change-report-card.css';

type Props = { change: Change; reports: readonly ChangeReport[] };
/** What the card shows of a version. */
type Shown = Pick<ReportAnswer, 'version' | 'report' | 'evidence'>;

// A report written before evidence existed: its body names the parts nobody could measure.
function notConfigured(body: unknown): string[] {
  const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['notConfigured'] : undefined;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

// What the list of versions already says of one, until (or unless) report.json answers.
function fromList(r: ChangeReport): Shown {
  return {
    version: r.version,
    report: { version: r.version, impact: r.impact, aiImpact: null, rule: null, summary: r.summary, verdict: null, ai: null, createdAt: r.createdAt },
    evidence: r.body,
  };
}

// The change's report: one version at a time (the picker reads report.json?version=), its impact
// and the AI's tier beside the rules', what matched, what was not counted, who registered it, the
// evidence with charts, and the report's other forms to download.
export function ChangeReportCard({ change, reports }: Props) {
  const latest = reports.at(-1);
  const [version, setVersion] = useState<number | null>(null);
  const [answer, setAnswer] = useState<ReportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = version ?? latest?.version ?? null;

  useEffect(() => {
    if (shown === null) return;
    const abort = new AbortController();
    setError(null);
    evidenceApi.report(change.id, shown, abort.signal).then(
      (a) => { if (!abort.signal.aborted) setAnswer(a); },
      (caught: unknown) => {
        if (abort.signal.aborted || isAbort(caught)) return;
        setAnswer(null);
        setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [change.id, shown, latest?.version]);

  if (latest === undefined || shown === null) {
    if (change.status !== 'evaluating') return null;
    return (
      <section className="card" data-testid="change-report">
        <h2>Report</h2>
        <p className="muted small">Under surveillance until {formatUtc(change.evaluateAt)}; the report follows.</p>
      </section>
    );
  }

  const listed = reports.find((r) => r.version === shown) ?? latest;
  const view: Shown = answer !== null && answer.version === shown ? answer : fromList(listed);
  const { report } = view;
  const evidence = isEvidence(view.evidence) ? view.evidence : null;
  const missing = evidence === null ? notConfigured(view.evidence) : [];
  const line = disagreementLine(report.impact, report.aiImpact);

  return (
    <section className="card change-report" data-testid="change-report" data-version={shown} data-impact={report.impact}>
      <div className="section-head">
        <h2>
          Report{' '}
          {reports.length > 1 ? (
            <select
              aria-label="Report version"
              className="report-version"
              value={shown}
              onChange={(e) => { setVersion(Number(e.target.value)); }}
              data-testid="report-version"
            >
              {[...reports].reverse().map((r) => (
                <option key={r.version} value={r.version}>
                  v{r.version}{r.version === latest.version ? ' (latest)' : ''}
                </option>
              ))}
            </select>
          ) : (
            <>v{shown}</>
          )}
        </h2>
        <span className="report-downloads" data-testid="report-downloads">
          <a className="btn btn-small" href={reportHref(change.id, 'html', shown)} target="_blank" rel="noreferrer" data-testid="report-html">report.html</a>
          <a className="btn btn-small" href={reportHref(change.id, 'csv', shown)} download data-testid="report-csv">report.csv</a>
          <a className="btn btn-small" href={reportHref(change.id, 'txt', shown)} target="_blank" rel="noreferrer" data-testid="report-txt">report.txt</a>
        </span>
      </div>
      <ErrorBanner message={error} testId="report-error" />
      <p className="report-impact-line">
        Impact <ImpactChip impact={report.impact} testId="report-impact" />
        {report.aiImpact !== null && (
          <>
            {' '}· AI <ImpactChip impact={report.aiImpact} testId="report-ai-impact" />
          </>
        )}{' '}
        · <span className="mono muted small">{formatUtc(report.createdAt)}</span>
      </p>
      {line !== null && (
        <p className="report-disagree" data-testid="report-disagree-line">
          {line}
        </p>
      )}
      <p className="report-summary" data-testid="report-summary">{report.summary}</p>
      {evidence !== null && <ReportWindowLine evidence={evidence} />}
      {(report.verdict !== null || report.ai !== null) && (
        <div className="report-judgements">
          {report.verdict !== null && <ReportVerdict verdict={report.verdict} />}
          <ReportAi ai={report.ai} />
        </div>
      )}
      {evidence !== null && (
        <div className="report-evidence" data-testid="report-evidence">
          <h3>Metrics</h3>
          <ReportMetrics parts={evidence.metrics} />
          <h3>Alerts</h3>
          <ReportAlerts part={evidence.alerts} />
          <h3>Logs</h3>
          <ReportLogs parts={evidence.logs} />
        </div>
      )}
      {missing.length > 0 && (
        <>
          <p className="muted small">Not measured, for want of a source:</p>
          <ul className="small" data-testid="report-not-configured">
            {missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
