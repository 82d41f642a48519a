import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { unmanagedApi } from '../api/unmanaged-client';
import type { ItsmTicket, UnmanagedSettings } from '../api/unmanaged-types';
import { ErrorBanner } from '../components/error-banner';
import { ItsmTicketsTable } from '../components/itsm-tickets-table';
import { ItsmTokenCard } from '../components/itsm-token-card';
import { Layout } from '../components/layout';
import { Link } from '../components/router';
import { useSession } from '../components/session';
import { UnmanagedSettingsForm } from '../components/unmanaged-settings-form';
import { useReloadable } from '../lib/use-reloadable';
import './unmanaged-changes-page.css';

type Loaded = { settings: UnmanagedSettings; tickets: ItsmTicket[] };

// Settings → Unmanaged changes: the reference rule that flags audit-log writes nothing vouches
// for, what may vouch (authorized principals, change tickets from ITSM tools and how they are
// matched), whether denied attempts open a case, a dry run over the last 7 days, the ITSM webhook
// token and the tickets received. Owners switch the rule; owners and admins change the rest;
// members read it and may try settings (a try writes nothing).
export function UnmanagedChangesPage() {
  const { session } = useSession();
  const isOwner = session.role === 'owner';
  const canEdit = isOwner || session.role === 'admin';
  const { loaded, setLoaded, error, reload } = useReloadable<Loaded>((signal) =>
    Promise.all([unmanagedApi.settings(signal), unmanagedApi.tickets(signal)]).then(([settings, list]) => ({ settings, tickets: list.tickets })),
  );
  // Where the ITSM tools post: the pipeline listener's address as this server runs it.
  const [pipelineUrl, setPipelineUrl] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    api.pipelineListener(abort.signal).then(
      (answer) => { if (!abort.signal.aborted) setPipelineUrl(answer.url); },
      () => undefined, // the card says the address is not known
    );
    return () => { abort.abort(); };
  }, []);

  const saved = (settings: UnmanagedSettings): void => { setLoaded((l) => (l === null ? l : { ...l, settings })); };
  const minted = (mintedAt: string): void => {
    setLoaded((l) => (l === null ? l : { ...l, settings: { ...l.settings, itsmTokenSet: true, itsmTokenMintedAt: mintedAt } }));
  };

  return (
    <Layout title="Unmanaged changes">
      <ErrorBanner message={error} testId="unmanaged-load-error" onRetry={reload} />
      <p className="muted unmanaged-intro">
        Changes nobody registered reach changeledger from the audit logs connected in <Link to="/settings/change-sources">Change sources</Link>.
        Here you decide which of them need a reference, and what counts as one.
      </p>
      {!canEdit && (
        <p className="banner banner-warn" data-testid="unmanaged-readonly">
          Only owners and admins change these settings; you can read them and try settings.
        </p>
      )}
      {loaded === null && error === null && <p className="muted">Loading the settings…</p>}
      {loaded !== null && (
        <>
          <UnmanagedSettingsForm settings={loaded.settings} canEdit={canEdit} isOwner={isOwner} onSaved={saved} />
          <ItsmTokenCard settings={loaded.settings} orgId={session.organization.id} orgSlug={session.organization.slug} canEdit={canEdit} pipelineUrl={pipelineUrl} onMinted={minted} />
          <ItsmTicketsTable tickets={loaded.tickets} />
        </>
      )}
    </Layout>
  );
}
