import { useCallback } from 'react';
import { api } from '../api/client';
import type { AlertDestination, Alertmanager, AlertSettings } from '../api/types';
import { AlertDestinationsCard } from '../components/alert-destinations-card';
import { AlertHoldMode } from '../components/alert-hold-mode';
import { AlertLabelMapping } from '../components/alert-label-mapping';
import { AlertmanagersCard } from '../components/alert-managers-card';
import { AlertSnippets } from '../components/alert-snippets';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { useSession } from '../components/session';
import { useReloadable } from '../lib/use-reloadable';
import './alert-sources-page.css';

type Loaded = { settings: AlertSettings; alertmanagers: Alertmanager[]; destinations: AlertDestination[] };

// Settings → Alert sources: how alerts are held, the Alertmanagers and relay destinations, which
// labels name what an alert is about, and what to paste so alerts arrive. Owners and admins
// change them; members read them.
export function AlertSourcesPage() {
  const { session } = useSession();
  const canEdit = session.role === 'owner' || session.role === 'admin';
  const { loaded, setLoaded, error, reload } = useReloadable<Loaded>(
    (signal) => Promise.all([api.alertSettings(signal), api.listAlertmanagers(signal), api.listAlertDestinations(signal)]).then(([settings, ams, dests]) => ({ settings, alertmanagers: ams.alertmanagers, destinations: dests.destinations })),
  );
  const setSettings = useCallback((settings: AlertSettings) => { setLoaded((l) => (l === null ? l : { ...l, settings })); }, []);

  return (
    <Layout title="Alert sources">
      <ErrorBanner message={error} testId="alert-sources-error" onRetry={reload} />
      {!canEdit && (
        <p className="banner banner-warn" data-testid="alert-sources-readonly">
          Only owners and admins change the alert sources; you can read them.
        </p>
      )}
      {loaded === null && error === null && <p className="muted">Loading the alert sources…</p>}
      {loaded !== null && (
        <div className="alert-sources-columns">
          <div>
            <AlertHoldMode settings={loaded.settings} canEdit={canEdit} onSaved={setSettings} />
            <AlertmanagersCard alertmanagers={loaded.alertmanagers} canEdit={canEdit} onChanged={reload} />
            <AlertDestinationsCard destinations={loaded.destinations} canEdit={canEdit} onChanged={reload} />
            <AlertLabelMapping settings={loaded.settings} canEdit={canEdit} onSaved={setSettings} />
          </div>
          <div>
            <AlertSnippets />
          </div>
        </div>
      )}
    </Layout>
  );
}
