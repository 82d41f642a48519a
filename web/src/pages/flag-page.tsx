import { useCallback, useEffect, useState } from 'react';
import { ApiError, api } from '../api/client';
import type { ChangeRequest, Environment, Flag, FlagWriteResult } from '../api/types';
import { ChangeRequestList } from '../components/change-requests';
import { ErrorBanner } from '../components/error-banner';
import { RiskBadge } from '../components/flag-badges';
import { FlagEnvCard } from '../components/flag-env-card';
import { FlagHistory } from '../components/flag-history';
import { FlagOwner } from '../components/flag-owner';
import { Layout } from '../components/layout';
import { Link } from '../components/router';
import { useSession } from '../components/session';
import { errorMessage, isAbort } from '../lib/errors';
import { describePatch, formatValue } from '../lib/flag-format';
import { formatUtc, pluralize } from '../lib/format';
import './flag-page.css';

type Requests =
  | { status: 'loading' }
  | { status: 'loaded'; items: ChangeRequest[] }
  | { status: 'unavailable' }
  | { status: 'failed'; message: string };

function sortEnvironments(items: readonly Environment[]): Environment[] {
  return [...items].sort((a, b) => a.position - b.position || a.key.localeCompare(b.key));
}

export function FlagPage({ flagKey }: { flagKey: string }) {
  const { session } = useSession();
  const [flag, setFlag] = useState<Flag | null>(null);
  const [environments, setEnvironments] = useState<Environment[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [flagReloads, setFlagReloads] = useState(0);
  const [requests, setRequests] = useState<Requests>({ status: 'loading' });
  const [requestReloads, setRequestReloads] = useState(0);
  const [historyKey, setHistoryKey] = useState(0);
  const [decision, setDecision] = useState<{ tone: 'ok' | 'warn'; text: string } | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    Promise.all([api.getFlag(flagKey, abort.signal), api.listEnvironments()]).then(
      ([answer, envs]) => {
        if (abort.signal.aborted) return;
        setFlag(answer);
        setEnvironments(sortEnvironments(envs.items));
        setError(null);
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [flagKey, flagReloads]);

  useEffect(() => {
    const abort = new AbortController();
    api.listChangeRequests({ status: 'proposed', flag: flagKey }, abort.signal).then(
      (answer) => {
        if (!abort.signal.aborted) setRequests({ status: 'loaded', items: answer.items });
      },
      (caught: unknown) => {
        if (abort.signal.aborted || isAbort(caught)) return;
        // A server without change approvals answers 404 for the whole route.
        if (caught instanceof ApiError && (caught.status === 404 || caught.status === 405)) setRequests({ status: 'unavailable' });
        else setRequests({ status: 'failed', message: errorMessage(caught) });
      },
    );
    return () => { abort.abort(); };
  }, [flagKey, requestReloads]);

  const onApplied = useCallback((result: FlagWriteResult) => {
    setFlag((current) =>
      current === null
        ? current
        : { ...current, states: current.states.map((s) => (s.env === result.env ? result.state : s)) },
    );
    // The write moved the flag's own fields too (its updated time): read the flag again rather
    // than keep the copy loaded before the write.
    setFlagReloads((n) => n + 1);
    setHistoryKey((n) => n + 1);
  }, []);

  const onProposed = useCallback(() => { setRequestReloads((n) => n + 1); }, []);

  const onDecided = useCallback((request: ChangeRequest, result: FlagWriteResult | null) => {
    const what = `${describePatch(request.patch)} in ${request.env}`;
    if (request.status === 'applied' || result !== null) {
      setDecision({ tone: 'ok', text: `Approved and applied: ${what}.` });
      setFlagReloads((n) => n + 1);
      setHistoryKey((n) => n + 1);
    } else if (request.status === 'rejected') {
      setDecision({ tone: 'ok', text: `Rejected: ${what}.` });
    } else {
      const missing = Math.max(0, request.approvalsNeeded - request.approvals.length);
      setDecision({ tone: 'warn', text: `Approved: ${what} still needs ${pluralize(missing, 'more approval')}.` });
    }
    setRequestReloads((n) => n + 1);
  }, []);

  const actions = (
    <>
      <Link className="btn" to="/flags" data-testid="flag-back">
        All flags
      </Link>
      <Link
        className="btn"
        to={`/flags/audit?${new URLSearchParams({ namespace: flagKey }).toString()}`}
        data-testid="flag-audit-link"
      >
        Audit this flag
      </Link>
    </>
  );

  if (flag === null) {
    return (
      <Layout title={flagKey} actions={actions}>
        <ErrorBanner message={error} testId="flag-error" onRetry={() => { setFlagReloads((n) => n + 1); }} />
        {error === null && <p className="muted">Loading flag…</p>}
      </Layout>
    );
  }

  // Environments come from their own list (ordered); a state for an environment the
  // list does not know yet still gets a card.
  const envs = [
    ...environments,
    ...flag.states
      .filter((s) => !environments.some((e) => e.key === s.env))
      .map((s, i): Environment => ({
        key: s.env,
        name: s.env,
        position: environments.length + i,
        approvalPolicy: 'none',
        approvalsNeeded: 1,
      })),
  ];
  const pending = requests.status === 'loaded' ? requests.items : [];

  return (
    <Layout title={flag.key} actions={actions}>
      <ErrorBanner message={error} testId="flag-error" onRetry={() => { setFlagReloads((n) => n + 1); }} />
      <section className="card flag-header" data-testid="flag-header">
        <div className="flag-header-badges">
          <span className="pill mono" data-testid="flag-type">
            {flag.type}
          </span>
          <RiskBadge risk={flag.risk} />
          {flag.tags.map((tag) => (
            <span key={tag} className="pill" data-testid="flag-tag">
              {tag}
            </span>
          ))}
        </div>
        {flag.description !== '' && (
          <p className="flag-description" data-testid="flag-description">
            {flag.description}
          </p>
        )}
        <dl className="kv kv-wide">
          <dt>Owner service</dt>
          <dd className="mono">
            <FlagOwner owner={flag.ownerService} testId="flag-owner" />
          </dd>
          <dt>Off value</dt>
          <dd className="mono">{formatValue(flag.offValue)}</dd>
          <dt>Approvals</dt>
          <dd data-testid="flag-approvals">
            {flag.approvalsNeeded > 0
              ? `${pluralize(flag.approvalsNeeded, 'approval')} for every change, in every environment`
              : 'as each environment’s policy says'}
          </dd>
          <dt>Created</dt>
          <dd className="mono" data-testid="flag-created-at">{formatUtc(flag.createdAt)}</dd>
          <dt>Updated</dt>
          <dd className="mono" data-testid="flag-updated">{formatUtc(flag.updatedAt)}</dd>
        </dl>
      </section>

      <section className="card" id="change-requests" data-testid="change-requests-section">
        <h2>Pending change requests</h2>
        {decision !== null && (
          <div className={`banner banner-${decision.tone}`} role="status" data-testid="request-decision">
            <span className="banner-text">{decision.text}</span>
            <button type="button" className="btn btn-small" onClick={() => { setDecision(null); }}>
              Dismiss
            </button>
          </div>
        )}
        {requests.status === 'loading' && <p className="muted small">Loading change requests…</p>}
        {requests.status === 'unavailable' && (
          <p className="muted small" data-testid="requests-unavailable">
            This server does not hold changes for approval.
          </p>
        )}
        {requests.status === 'failed' && (
          <ErrorBanner
            message={requests.message}
            testId="requests-error"
            onRetry={() => { setRequestReloads((n) => n + 1); }}
          />
        )}
        {requests.status === 'loaded' && requests.items.length === 0 && (
          <p className="muted small" data-testid="requests-empty">
            Nothing waiting for approval.
          </p>
        )}
        {requests.status === 'loaded' && requests.items.length > 0 && (
          <ChangeRequestList
            requests={requests.items}
            environments={envs}
            currentUserId={session.user.id}
            onDecided={onDecided}
          />
        )}
      </section>

      <div className="env-grid">
        {envs.map((env) => {
          const state = flag.states.find((s) => s.env === env.key);
          if (state === undefined) return null;
          return (
            <FlagEnvCard
              key={env.key}
              flag={flag}
              env={env}
              state={state}
              pending={pending.filter((r) => r.env === env.key).length}
              onApplied={onApplied}
              onProposed={onProposed}
            />
          );
        })}
      </div>

      <FlagHistory flagKey={flag.key} environments={envs} reloadKey={historyKey} />
    </Layout>
  );
}
