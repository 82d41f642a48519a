import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, api, onUnauthorized, setCsrfToken } from './api/client';
import type { Session } from './api/types';
import { ErrorBanner } from './components/error-banner';
import { RouterProvider, useRouter } from './components/router';
import { SessionProvider } from './components/session';
import { errorMessage } from './lib/errors';
import { AccountPage } from './pages/account-page';
import { AlertSourcesPage } from './pages/alert-sources-page';
import { AlertsPage } from './pages/alerts-page';
import { AuditPage } from './pages/audit-page';
import { BlastPreviewPage } from './pages/blast-preview-page';
import { CasePage } from './pages/case-page';
import { CasesPage } from './pages/cases-page';
import { CalendarPage } from './pages/calendar-page';
import { CatalogueEntityPage } from './pages/catalogue-entity-page';
import { CataloguePage } from './pages/catalogue-page';
import { EvidenceSettingsPage } from './pages/evidence-settings-page';
import { ChangeNewPage } from './pages/change-new-page';
import { ChangePage } from './pages/change-page';
import { ChangeSettingsPage } from './pages/change-settings-page';
import { ChangesPage } from './pages/changes-page';
import { FlagAuditPage } from './pages/flag-audit-page';
import { FlagPage } from './pages/flag-page';
import { FlagsPage } from './pages/flags-page';
import { HomePage } from './pages/home-page';
import { MembersPage } from './pages/members-page';
import { NotFoundPage } from './pages/not-found-page';
import { ObservedChangePage } from './pages/observed-change-page';
import { ChangeSourcesPage } from './pages/change-sources-page';
import { SignInLinkPage } from './pages/signin-link-page';
import { SignInPage } from './pages/signin-page';
import { TemplatesPage } from './pages/templates-page';
import { TokensPage } from './pages/tokens-page';
import { UnmanagedChangesPage } from './pages/unmanaged-changes-page';

type SessionState =
  | { status: 'loading' }
  | { status: 'signed-in'; session: Session }
  | { status: 'signed-out' }
  | { status: 'error'; message: string };

export function App() {
  return (
    <RouterProvider>
      <SessionGate />
    </RouterProvider>
  );
}

function SessionGate() {
  const { location, navigate } = useRouter();
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // Set once anything (sign-in form, link exchange, sign-out) publishes a session: a
  // slower initial GET /api/session answering 401 must not then undo that sign-in.
  const superseded = useRef(false);

  const applySession = useCallback((session: Session | null) => {
    setCsrfToken(session?.csrfToken ?? null);
    setState(session === null ? { status: 'signed-out' } : { status: 'signed-in', session });
  }, []);

  const setSession = useCallback(
    (session: Session | null) => {
      superseded.current = true;
      applySession(session);
    },
    [applySession],
  );

  const refreshSession = useCallback(async () => {
    try {
      setSession(await api.getSession());
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setSession(null);
      else throw error;
    }
  }, [setSession]);

  useEffect(() => {
    let cancelled = false;
    const stale = (): boolean => cancelled || superseded.current;
    api.getSession().then(
      (session) => {
        if (!stale()) applySession(session);
      },
      (error: unknown) => {
        if (stale()) return;
        if (error instanceof ApiError && error.status === 401) applySession(null);
        else setState({ status: 'error', message: errorMessage(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [attempt, applySession]);

  // Any API call answering 401 mid-session means the session is gone server-side.
  useEffect(() => {
    onUnauthorized(() => { setSession(null); });
    return () => { onUnauthorized(null); };
  }, [setSession]);

  const isPublic = location.pathname === '/signin' || location.pathname === '/signin/link';
  const signedOut = state.status === 'signed-out';
  // The links in e-mails (/?view=changes&change=<id>&approve=1) open the change page. They
  // are rewritten before anything else looks at the URL, so a sign-in remembers the page.
  const legacy = legacyLinkTarget(location.pathname, location.search);

  useEffect(() => {
    if (legacy !== null) navigate(legacy, { replace: true });
  }, [legacy, navigate]);

  // Protected page without a session: remember where the user was going.
  useEffect(() => {
    if (signedOut && !isPublic && legacy === null) {
      const wanted = `${location.pathname}${location.search}`;
      const next = wanted === '/' ? '' : `?next=${encodeURIComponent(wanted)}`;
      navigate(`/signin${next}`, { replace: true });
    }
  }, [signedOut, isPublic, legacy, location.pathname, location.search, navigate]);

  const sessionValue = useMemo(
    () => (state.status === 'signed-in' ? { session: state.session, setSession, refreshSession } : null),
    [state, setSession, refreshSession],
  );

  if (location.pathname === '/signin/link') return <SignInLinkPage onSession={setSession} />;
  if (state.status === 'loading') return <div className="boot" data-testid="boot">Loading…</div>;
  if (state.status === 'error') {
    return (
      <div className="boot">
        <ErrorBanner message={state.message} testId="boot-error" onRetry={() => { setAttempt((n) => n + 1); }} />
      </div>
    );
  }
  if (location.pathname === '/signin') {
    return <SignInPage signedIn={state.status === 'signed-in'} onSession={setSession} />;
  }
  if (sessionValue === null) return <div className="boot">Redirecting to sign-in…</div>;

  return (
    <SessionProvider value={sessionValue}>
      <Routes pathname={location.pathname} />
    </SessionProvider>
  );
}

function Routes({ pathname }: { pathname: string }) {
  switch (pathname) {
    case '/':
      return <HomePage />;
    case '/audit':
      return <AuditPage />;
    case '/tokens':
      return <TokensPage />;
    case '/account':
      return <AccountPage />;
    case '/flags':
      return <FlagsPage />;
    case '/flags/audit':
      return <FlagAuditPage />;
    case '/catalogue':
      return <CataloguePage />;
    case '/changes':
      return <ChangesPage />;
    case '/cases':
      return <CasesPage />;
    case '/change-templates':
      return <TemplatesPage />;
    case '/change-calendar':
      return <CalendarPage />;
    case '/changes/new':
      return <ChangeNewPage />;
    case '/changes/preview':
      return <BlastPreviewPage />;
    case '/settings/changes':
      return <ChangeSettingsPage />;
    case '/settings/members':
      return <MembersPage />;
    case '/alerts':
      return <AlertsPage />;
    case '/settings/alerts':
      return <AlertSourcesPage />;
    case '/settings/evidence':
      return <EvidenceSettingsPage />;
    case '/settings/change-sources':
      return <ChangeSourcesPage />;
    case '/settings/unmanaged-changes':
      return <UnmanagedChangesPage />;
    default: {
      // Keyed so moving between flags or entities starts each page fresh.
      const flagKey = keyUnder('flags', pathname);
      if (flagKey !== null) return <FlagPage key={flagKey} flagKey={flagKey} />;
      const entityKey = keyUnder('catalogue', pathname);
      if (entityKey !== null) return <CatalogueEntityPage key={entityKey} entityKey={entityKey} />;
      const caseId = keyUnder('cases', pathname);
      if (caseId !== null) return <CasePage key={caseId} caseId={caseId} />;
      const changeId = keyUnder('changes', pathname);
      // One list, two pages: an observed change's id starts obs_, a planned change's chg_.
      if (changeId?.startsWith('obs_') === true) return <ObservedChangePage key={changeId} observedId={changeId} />;
      if (changeId !== null) return <ChangePage key={changeId} changeId={changeId} />;
      return <NotFoundPage />;
    }
  }
}

// /flags/{key}, /catalogue/{key}: one path segment after the prefix, URL-encoded (an
// entity key's own slashes, db:orders-pg/orders, arrive as %2F).
function keyUnder(prefix: string, pathname: string): string | null {
  const match = new RegExp(`^/${prefix}/([^/]+)/?$`).exec(pathname);
  if (match?.[1] === undefined) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

// /?view=changes&change=<id>[&approve=1] → /changes/<id>[?approve=1]; /?view=changes → /changes.
function legacyLinkTarget(pathname: string, search: string): string | null {
  if (pathname !== '/') return null;
  const params = new URLSearchParams(search);
  if (params.get('view') !== 'changes') return null;
  const id = params.get('change')?.trim() ?? '';
  if (id === '') return '/changes';
  return `/changes/${encodeURIComponent(id)}${params.get('approve') === '1' ? '?approve=1' : ''}`;
}
