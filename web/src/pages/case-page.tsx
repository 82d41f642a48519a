import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, api } from '../api/client';
import { casesApi } from '../api/case-client';
import type { CaseDetail } from '../api/case-types';
import type { AuditEvent } from '../api/types';
import { CaseAnswerPanel } from '../components/case-answer-panel';
import { CaseKindBadge, CaseStatusBadge } from '../components/case-badges';
import { CaseHistory } from '../components/case-history';
import { CaseReverts } from '../components/case-reverts';
import { CaseWrites } from '../components/case-writes';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { Link } from '../components/router';
import { caseHour, caseWrites, historyFromRecord, historyOf, knownNames } from '../lib/cases';
import { errorMessage, isAbort } from '../lib/errors';
import { formatUtc } from '../lib/format';
import './case-page.css';

type Loaded = { c: CaseDetail; events: AuditEvent[] | null };

async function loadCase(id: string, signal: AbortSignal): Promise<Loaded> {
  const [answer, events] = await Promise.all([
    casesApi.get(id, signal),
    // The history's notes, one per answer; without the audit log the page still works.
    api.listAudit({ targetType: 'case', targetId: id }, null, signal).then((p) => p.items, (caught: unknown) => {
      if (isAbort(caught)) throw caught;
      return null;
    }),
  ]);
  return { c: answer.case, events };
}

// One case: what happened (kind, principal, account, hour), the approvers' answers, the reverts
// drafted once a rollback is approved, the writes (or refused calls) and the history.
export function CasePage({ caseId }: { caseId: string }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [answered, setAnswered] = useState<string | null>(null);
  const reverts = useRef<HTMLDivElement>(null);
  const [scrollToReverts, setScrollToReverts] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    loadCase(caseId, abort.signal).then(
      (next) => {
        if (abort.signal.aborted) return;
        setLoaded(next);
        setError(null);
      },
      (caught: unknown) => {
        if (abort.signal.aborted || isAbort(caught)) return;
        if (caught instanceof ApiError && caught.status === 404) setMissing(true);
        else setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [caseId, reloads]);

  useEffect(() => {
    if (!scrollToReverts || reverts.current === null) return;
    setScrollToReverts(false);
    reverts.current.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [scrollToReverts, loaded]);

  const onAnswered = useCallback((next: CaseDetail, text: string) => {
    setLoaded((l) => (l === null ? l : { ...l, c: next }));
    setAnswered(text);
    if (next.status === 'rollback_approved') setScrollToReverts(true);
    // The history's new line comes from the audit log.
    setReloads((n) => n + 1);
  }, []);

  const onFailed = useCallback((status: number) => {
    setAnswered(null);
    // A 403 (no longer an approver): the reload's canAnswer turns the answers off. Someone else answered first: show the case as it is now (the reason stays above the answers).
    if (status === 403 || status === 409) setReloads((n) => n + 1);
  }, []);

  const writes = useMemo(() => (loaded === null ? [] : caseWrites(loaded.c)), [loaded]);

  const actions = (
    <Link className="btn" to="/cases" data-testid="case-back">
      All cases
    </Link>
  );

  if (loaded === null) {
    return (
      <Layout title="Case" actions={actions}>
        {missing ? (
          <p className="empty-state card" data-testid="case-missing">No case {caseId} in this organisation.</p>
        ) : (
          <>
            <ErrorBanner message={error} testId="case-error" onRetry={() => { setReloads((n) => n + 1); }} />
            {error === null && <p className="muted">Loading the case…</p>}
          </>
        )}
      </Layout>
    );
  }

  const { c, events } = loaded;
  const denied = c.kind === 'denied_access';
  const title = denied ? `Denied attempts by ${c.principal}` : `Unauthorized change by ${c.principal}`;
  const history = events === null ? historyFromRecord(c) : historyOf(c.kind, events);
  const showReverts = !denied && (c.status === 'rollback_approved' || c.status === 'rolled_back');

  return (
    <Layout title={title} actions={actions}>
      <div className="case-head" data-testid="case-head">
        <span className="mono strong" data-testid="case-display-id">{c.displayId}</span>
        <CaseKindBadge kind={c.kind} />
        <CaseStatusBadge status={c.status} />
      </div>
      <ErrorBanner message={error} testId="case-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {answered !== null && (
        <div className="banner banner-ok" role="status" data-testid="case-answered">
          <span className="banner-text">{answered}</span>
        </div>
      )}
      <dl className="card case-facts" data-testid="case-facts">
        <div className="case-fact">
          <dt>Principal</dt>
          <dd className="mono" data-testid="case-principal">{c.principal === '' ? 'unknown' : c.principal}</dd>
        </div>
        <div className="case-fact">
          <dt>Account</dt>
          <dd className="mono" data-testid="case-account">{c.account === '' ? '—' : c.account}</dd>
        </div>
        <div className="case-fact">
          <dt>Hour (UTC)</dt>
          <dd className="mono" data-testid="case-hour">{caseHour(c.hour)}</dd>
        </div>
        <div className="case-fact">
          <dt>{denied ? 'Refused calls' : 'Writes'}</dt>
          <dd data-testid="case-count">{c.changes}</dd>
        </div>
        <div className="case-fact">
          <dt>Opened</dt>
          <dd className="mono small">{formatUtc(c.openedAt)}</dd>
        </div>
        <div className="case-fact">
          <dt>Last touched</dt>
          <dd className="mono small">{formatUtc(c.updatedAt)}</dd>
        </div>
      </dl>
      <CaseAnswerPanel c={c} known={knownNames(events)} answerer={c.canAnswer ? 'yes' : 'no'} onAnswered={onAnswered} onFailed={onFailed} />
      {showReverts && (
        <div ref={reverts} className="case-reverts-anchor">
          <CaseReverts writes={writes} status={c.status} />
        </div>
      )}
      <CaseWrites kind={c.kind} writes={writes} />
      <CaseHistory entries={history} fromRecord={events === null} />
    </Layout>
  );
}
