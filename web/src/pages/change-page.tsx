import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, api } from '../api/client';
import type { ApprovalView, BlastContracts, ChangeDetail } from '../api/types';
import { ApprovalPanel } from '../components/approval-panel';
import { BeforeStateCard } from '../components/before-state-card';
import { ChangeActions } from '../components/change-actions';
import { ChangeAlertsCard } from '../components/change-alerts-card';
import { ChangeGovernanceCard, WindowBypassedNotice } from '../components/change-governance-card';
import { ChangeReceipts, receiptsOf } from '../components/change-receipts';
import { ChangeReportCard } from '../components/change-report-card';
import { ChangeHeader } from '../components/change-summary';
import { ChangeTimeline } from '../components/change-timeline';
import { ContractsCard, type ContractsState } from '../components/contracts-card';
import { DependencyMap } from '../components/dependency-map';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { MappingPanel } from '../components/mapping-panel';
import { RegisteredGovernance } from '../components/registered-governance';
import { PipelineCard } from '../components/pipeline-card';
import { ReviewCard } from '../components/review-card';
import { RollbackCard } from '../components/rollback-card';
import { Link, useSearchParams } from '../components/router';
import { useSession } from '../components/session';
import { ValidationCard } from '../components/validation-card';
import { canWrite } from '../lib/change-format';
import { errorMessage, isAbort } from '../lib/errors';
import { registrationOf } from '../lib/registration-memo';
import './change-page.css';

type Loaded = { detail: ChangeDetail; approvals: ApprovalView };

const liveCaption = 'infrastructure and call edges from the current graph';

// One change: what it is and touches, where approval stands (the approve link from the
// e-mails lands here with ?approve=1, the approval panel focused), what can be done with it
// now, what it goes back to (its before-state) and how (its rollback), its validation and its
// post-implementation review, its report, its pipeline (callbacks and ticket), its timeline,
// its dependency map and contracts.
export function ChangePage({ changeId }: { changeId: string }) {
  const { session } = useSession();
  const params = useSearchParams();
  const focusApproval = params.get('approve') === '1';
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [notice, setNotice] = useState<string | null>(params.get('registered') === '1' ? 'registered' : null);
  // Opened by the register form: what the registration answered about class, tier and windows.
  const [registered] = useState(() => (params.get('registered') === '1' ? registrationOf(changeId) : null));
  const [contracts, setContracts] = useState<ContractsState>({ status: 'idle' });
  // What an action just did is said once the page shows its result, not before.
  const nextNotice = useRef<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    Promise.all([api.getChange(changeId, abort.signal), api.changeApprovals(changeId, abort.signal)]).then(
      ([detail, approvals]) => {
        if (abort.signal.aborted) return;
        setLoaded({ detail, approvals });
        setError(null);
        if (nextNotice.current !== null) {
          setNotice(nextNotice.current);
          nextNotice.current = null;
        }
      },
      (caught: unknown) => {
        if (abort.signal.aborted || isAbort(caught)) return;
        if (caught instanceof ApiError && caught.status === 404) setMissing(true);
        else setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [changeId, reloads]);

  // The contracts come on their own and never hold the page up; again after each reload,
  // since mapping takes the first snapshot.
  const hasBlast = loaded?.detail.blast != null;
  const blastVersion = loaded?.detail.change.blastVersion ?? 0;
  useEffect(() => {
    if (!hasBlast) return;
    const abort = new AbortController();
    setContracts((was) => ({ status: 'loading', previous: was.status === 'ready' ? was.contracts : null }));
    api.changeContracts(changeId, abort.signal).then(
      (answer: BlastContracts) => { if (!abort.signal.aborted) setContracts({ status: 'ready', contracts: answer }); },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setContracts({ status: 'error', message: errorMessage(caught) });
      },
    );
    return () => { abort.abort(); };
  }, [changeId, hasBlast, blastVersion]);

  const reload = useCallback((text: string) => {
    nextNotice.current = text;
    setReloads((n) => n + 1);
  }, []);

  const names = useMemo(() => {
    const known = new Map<string, string>();
    if (loaded === null) return known;
    const { change } = loaded.detail;
    if (change.owner.name.trim() !== '') known.set(change.owner.id, change.owner.name);
    for (const a of loaded.approvals.approvers) if (a.name.trim() !== '') known.set(a.userId, a.name);
    for (const a of loaded.approvals.approvals) if (a.name.trim() !== '') known.set(a.userId, a.name);
    return known;
  }, [loaded]);
  const componentKeys = useMemo(() => new Set(loaded?.detail.change.components.map((c) => c.key) ?? []), [loaded]);

  const actions = (
    <Link className="btn" to="/changes" data-testid="change-back">
      All changes
    </Link>
  );

  if (loaded === null) {
    return (
      <Layout title="Change" actions={actions}>
        {missing ? (
          <p className="empty-state card" data-testid="change-missing">
            No change {changeId} in this organisation.
          </p>
        ) : (
          <>
            <ErrorBanner message={error} testId="change-error" onRetry={() => { setReloads((n) => n + 1); }} />
            {error === null && <p className="muted">Loading the change…</p>}
          </>
        )}
      </Layout>
    );
  }

  const { detail, approvals } = loaded;
  const change = detail.change;
  const blast = detail.blast ?? null;
  const writer = canWrite(change, session);
  const live = blast !== null && (blast.infraFromLive === true || blast.edgesFromLive === true);
  const ran = change.startedAt !== null;
  const beforeState = <BeforeStateCard change={change} canWrite={writer} refresh={reloads} onAdded={reload} />;

  return (
    <Layout title={change.title} actions={actions}>
      <ErrorBanner message={error} testId="change-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {notice !== null && (
        <div className="banner banner-ok" role="status" data-testid="change-notice">
          <span className="banner-text">{notice === 'registered' ? `Registered ${change.displayId}.` : notice}</span>
          <button type="button" className="btn btn-small" onClick={() => { setNotice(null); }}>
            Dismiss
          </button>
        </div>
      )}
      {notice === 'registered' && registered !== null && <RegisteredGovernance answer={registered} />}
      <WindowBypassedNotice change={change} />
      <ChangeHeader change={change} scope={blast === null ? null : { line: detail.scopeLine ?? '', breakdown: detail.scopeBreakdown ?? '' }} />
      <div className="change-columns">
        <div className="change-main">
          {change.status === 'pending_mapping' && (
            <MappingPanel change={change} canMap={writer || approvals.isApprover} onMapped={reload} />
          )}
          <ChangeGovernanceCard change={change} isApprover={approvals.isApprover} refresh={reloads} onReclassified={reload} />
          <ApprovalPanel change={change} view={approvals} focus={focusApproval} onDecided={reload} />
          <ChangeActions change={change} canWrite={writer} onDone={reload} />
          {/* Before the start, what it goes back to comes first; once it ran, the way back and what followed. */}
          {!ran && beforeState}
          <RollbackCard change={change} isApprover={approvals.isApprover} canWrite={writer} names={names} refresh={reloads} onDone={reload} />
          <ValidationCard changeId={change.id} refresh={reloads} />
          <ReviewCard change={change} canReview={writer || approvals.isApprover} refresh={reloads} onSaved={reload} />
          {ran && beforeState}
          <ChangeAlertsCard changeId={change.id} started={change.startedAt !== null} suppression={detail.suppression} refresh={reloads} />
          <ChangeReportCard change={change} reports={detail.reports ?? []} />
          <PipelineCard change={change} canWrite={writer} refresh={reloads} onTested={() => { setReloads((n) => n + 1); }} />
          <ChangeReceipts receipts={receiptsOf(detail)} displayId={change.displayId} />
        </div>
        <div className="change-side">
          <ChangeTimeline events={detail.events ?? []} names={names} />
        </div>
      </div>
      {blast !== null && blast.nodes.length > 0 && (
        <DependencyMap blast={blast} componentKeys={componentKeys} idPrefix="change-map" {...(live ? { caption: liveCaption } : {})} />
      )}
      {blast === null && change.status === 'pending_mapping' && (
        <p className="muted">The blast radius is taken once every component is mapped.</p>
      )}
      {blast !== null && <ContractsCard state={contracts} />}
    </Layout>
  );
}
