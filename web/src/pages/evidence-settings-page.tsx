import { useCallback } from 'react';
import { evidenceApi } from '../api/evidence-client';
import type { AiProvider, EvidenceSettings, EvidenceSource } from '../api/types';
import { AiProviderCard } from '../components/ai-provider-card';
import { ErrorBanner } from '../components/error-banner';
import { EvidenceSourceList } from '../components/evidence-source-list';
import { Layout } from '../components/layout';
import { RedTemplatesForm } from '../components/red-templates-form';
import { useSession } from '../components/session';
import { ThresholdsForm } from '../components/thresholds-form';
import { useReloadable } from '../lib/use-reloadable';
import './evidence-settings-page.css';

type Loaded = { sources: EvidenceSource[]; settings: EvidenceSettings; provider: AiProvider | null };

// Settings → Evidence: where a change's evidence comes from (metrics and logs; alerts come from
// the alert history), which PromQL gives RED, the thresholds of the verdict, and the AI assessment
// beside it. Owners and admins change them (the AI switch: owners only); members read them.
export function EvidenceSettingsPage() {
  const { session } = useSession();
  const isOwner = session.role === 'owner';
  const canEdit = isOwner || session.role === 'admin';
  const { loaded, setLoaded, error, reload } = useReloadable<Loaded>(
    (signal) => Promise.all([evidenceApi.listSources(signal), evidenceApi.settings(signal), evidenceApi.aiProvider(signal)]).then(([s, settings, p]) => ({ sources: s.sources, settings, provider: p.provider })),
  );
  const setSettings = useCallback((settings: EvidenceSettings) => { setLoaded((l) => (l === null ? l : { ...l, settings })); }, []);

  return (
    <Layout title="Evidence">
      <ErrorBanner message={error} testId="evidence-settings-error" onRetry={reload} />
      {!canEdit && (
        <p className="banner banner-warn" data-testid="evidence-readonly">
          Only owners and admins change the evidence settings; you can read them.
        </p>
      )}
      {loaded === null && error === null && <p className="muted">Loading the evidence settings…</p>}
      {loaded !== null && (
        <div className="settings-columns">
          <div>
            <EvidenceSourceList sources={loaded.sources} canEdit={canEdit} onChanged={reload} />
            <RedTemplatesForm settings={loaded.settings} canEdit={canEdit} onSaved={setSettings} />
          </div>
          <div>
            <ThresholdsForm settings={loaded.settings} canEdit={canEdit} onSaved={setSettings} />
            <AiProviderCard provider={loaded.provider} settings={loaded.settings} canEdit={canEdit} isOwner={isOwner} onChanged={reload} onSettings={setSettings} />
          </div>
        </div>
      )}
    </Layout>
  );
}
