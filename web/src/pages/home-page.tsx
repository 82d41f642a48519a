import { useEffect, useMemo, useState } from 'react';
import { casesApi } from '../api/case-client';
import { openCaseStatuses, type CaseSummary } from '../api/case-types';
import { api } from '../api/client';
import { governanceApi } from '../api/governance-client';
import type { Template } from '../api/governance-types';
import { reviewApi } from '../api/review-client';
import type { DueReview } from '../api/review-types';
import type { Change, FlagRecord, OrgDelivery } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { HomeActiveChange } from '../components/home-active-change';
import { HomeAlertHolds } from '../components/home-alert-holds';
import { HomeAttention } from '../components/home-attention';
import { HomeChangeRow } from '../components/home-change-row';
import { HomeFlagChanges } from '../components/home-flag-changes';
import { HomeSection } from '../components/home-section';
import { Layout } from '../components/layout';
import { Link } from '../components/router';
import { errorMessage, isAbort } from '../lib/errors';
import { attentionItems, openStatuses, splitPending } from '../lib/home';
import './home-page.css';

type HomeData = {
  open: Change[];
  awaitingMe: Change[];
  lastDay: Change[];
  expired: Change[];
  anyChange: boolean;
  flags: FlagRecord[];
  failed: OrgDelivery[];
  cases: CaseSummary[];
  reviews: DueReview[];
  templates: Template[];
  at: Date;
};

const FLAGS_SHOWN = 8;
const none = { status: [], criticality: [], mine: false, q: '' };

// One call per list, all at once: what is in flight (split here into active, pending and what
// needs attention), what awaits my decision, the last 24 h, last week's expirations, the latest
// flag changes, the deliveries that gave up, the open cases (everyone reads them; the session
// does not say who is an approver, so nobody is spared them), the reviews due and the templates.
async function loadHome(signal: AbortSignal): Promise<HomeData> {
  const at = new Date();
  const [open, awaitingMe, lastDay, expired, any, flags, failed, cases, reviews, templates] = await Promise.all([
    api.listChanges({ ...none, status: [...openStatuses] }, signal),
    api.listChanges({ ...none, status: ['pending_approval'], awaiting: 'me' }, signal),
    api.listChanges({ ...none, since: '24h', until: at.toISOString() }, signal),
    api.listChanges({ ...none, status: ['expired'], since: '7d' }, signal),
    api.listChanges({ ...none, limit: 1 }, signal),
    api.flagAudit({}, null, signal),
    api.listDeliveries('failed', signal),
    casesApi.list({ statuses: openCaseStatuses }, signal),
    reviewApi.due(signal),
    governanceApi.listTemplates(signal),
  ]);
  return {
    open: open.changes, awaitingMe: awaitingMe.changes, lastDay: lastDay.changes, expired: expired.changes,
    anyChange: any.changes.length > 0, flags: flags.items.slice(0, FLAGS_SHOWN), failed: failed.deliveries, cases: cases.cases,
    reviews: reviews.items, templates: templates.items, at,
  };
}

export function HomePage() {
  const [data, setData] = useState<HomeData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    loadHome(abort.signal).then(
      (next) => {
        if (abort.signal.aborted) return;
        setData(next);
        setError(null);
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [reloads]);

  const view = useMemo(() => {
    if (data === null) return null;
    const active = data.open.filter((c) => c.status === 'active');
    const pending = splitPending(data.open.filter((c) => c.status === 'pending_approval'), data.awaitingMe);
    return { active, pending, attention: attentionItems(data.open, data.expired, data.failed, data.at, data.cases, data.reviews, data.templates) };
  }, [data]);

  const actions = (
    <>
      <Link className="btn" to="/audit" data-testid="home-audit">
        Audit log
      </Link>
      <Link className="btn btn-primary" to="/changes/new" data-testid="home-register">
        Register a change
      </Link>
    </>
  );
  const count = (n: number): number | null => (view === null ? null : n);

  return (
    <Layout title="Home" actions={actions}>
      <ErrorBanner message={error} testId="home-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {data !== null && !data.anyChange && (
        <section className="card home-welcome" data-testid="home-welcome">
          <h2>No changes yet — register one or connect a pipeline</h2>
          <p className="muted">Every deploy, configuration or infrastructure change becomes one record here. Three ways in:</p>
          <ol className="home-steps">
            <li>
              <Link to="/changes/new" data-testid="home-welcome-register">Register a change</Link> by hand: its components, its window, who approves.
            </li>
            <li>
              <Link to="/tokens" data-testid="home-welcome-pipeline">Create an API token</Link> and let your pipeline register and drive its deploys.
            </li>
            <li>
              <Link to="/catalogue" data-testid="home-welcome-catalogue">Import the catalogue</Link> (changeledger, Backstage or Kubernetes), so changes get a blast radius.
            </li>
          </ol>
        </section>
      )}
      <div className="home-grid">
        <HomeSection
          title="Active now"
          testId="home-active"
          count={count(view?.active.length ?? 0)}
          more={{ to: '/changes?status=active', label: 'All active changes' }}
          empty={<p>Nothing is running now. A change becomes active when its window starts.</p>}
        >
          <ul className="home-list">
            {view?.active.map((c) => <HomeActiveChange key={c.id} change={c} />)}
          </ul>
        </HomeSection>

        <HomeSection
          title="Waiting for approval"
          testId="home-pending"
          count={count((view?.pending.mine.length ?? 0) + (view?.pending.others.length ?? 0))}
          more={{ to: '/changes?status=pending_approval', label: 'All pending changes' }}
          empty={<p>Nothing waits for approval.</p>}
        >
          {view !== null && view.pending.mine.length > 0 && <h3 className="home-subhead" data-testid="home-pending-mine-title">Waiting for you</h3>}
          <ul className="home-list" data-testid="home-pending-list">
            {view?.pending.mine.map((c) => <HomeChangeRow key={c.id} change={c} testId="home-pending-change" approve mine />)}
            {view?.pending.others.map((c) => <HomeChangeRow key={c.id} change={c} testId="home-pending-change" />)}
          </ul>
        </HomeSection>

        {data !== null && <HomeAlertHolds changes={[...data.open, ...data.lastDay]} at={data.at} />}

        <HomeSection
          title="Needs attention"
          testId="home-attention"
          count={count(view?.attention.length ?? 0)}
          more={data !== null && data.cases.length > 0 ? { to: '/cases', label: 'All open cases' } : undefined}
          empty={<p>Nothing needs attention.</p>}
        >
          <HomeAttention items={view?.attention ?? []} />
        </HomeSection>

        <HomeSection
          title="Last 24 hours"
          testId="home-day"
          count={count(data?.lastDay.length ?? 0)}
          more={{ to: '/changes', label: 'All changes' }}
          empty={
            <p>
              No change had its window in the last 24 hours. <Link to="/changes">All changes</Link>
            </p>
          }
        >
          <ul className="home-list">
            {data?.lastDay.map((c) => <HomeChangeRow key={c.id} change={c} testId="home-day-change" />)}
          </ul>
        </HomeSection>

        <HomeSection
          title="Recent flag changes"
          testId="home-flags"
          count={count(data?.flags.length ?? 0)}
          more={{ to: '/flags/audit', label: 'Flag audit' }}
          wide
          empty={
            <p>
              No flag changes yet. <Link to="/flags" data-testid="home-flags-create">Create a flag</Link>: every toggle is recorded with who, why and when.
            </p>
          }
        >
          <HomeFlagChanges records={data?.flags ?? []} />
        </HomeSection>
      </div>
    </Layout>
  );
}
