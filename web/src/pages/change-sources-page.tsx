import { useState } from 'react';
import { observedApi } from '../api/observed-client';
import type { ChangeSource, ObservedSettings, SourceWithSecret } from '../api/observed-types';
import { ChangeSourceForm } from '../components/change-source-form';
import { ChangeSourceRow } from '../components/change-source-row';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { ObservedSettingsCard } from '../components/observed-settings-card';
import { SecretBox } from '../components/secret-box';
import { useSession } from '../components/session';
import { sourceLabel } from '../lib/record-format';
import { useReloadable } from '../lib/use-reloadable';
import './change-sources-page.css';

type Loaded = { sources: ChangeSource[]; settings: ObservedSettings };
type Shown = { made: SourceWithSecret; why: 'created' | 'rotated' };

// Settings → Change sources: the connections that send or are pulled for observed changes, each
// with the endpoint to paste, what has arrived and a Test; a new connection's secret is shown
// once. Below, the organisation's pull interval, CI namespaces and maps. Owners and admins
// change them; members read them.
export function ChangeSourcesPage() {
  const { session } = useSession();
  const canEdit = session.role === 'owner' || session.role === 'admin';
  const { loaded, setLoaded, error, reload } = useReloadable<Loaded>((signal) =>
    Promise.all([observedApi.listSources(signal), observedApi.settings(signal)]).then(([list, settings]) => ({ sources: list.sources, settings })),
  );
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<Shown | null>(null);
  const created = (made: SourceWithSecret): void => {
    setAdding(false);
    setSecret({ made, why: 'created' });
    reload();
  };

  const actions = canEdit && !adding ? (
    <button type="button" className="btn btn-primary" onClick={() => { setAdding(true); }} data-testid="source-add">
      Add a change source
    </button>
  ) : undefined;

  return (
    <Layout title="Change sources" actions={actions}>
      <ErrorBanner message={error} testId="change-sources-error" onRetry={reload} />
      {!canEdit && (
        <p className="banner banner-warn" data-testid="change-sources-readonly">
          Only owners and admins change the change sources; you can read them.
        </p>
      )}
      {secret !== null && (
        <SecretBox
          testId="source-secret"
          title={`${secret.why === 'created' ? 'Connection created' : 'New secret'}: ${secret.made.source.name}`}
          aside={sourceLabel(secret.made.source.kind)}
          warning="Copy this secret now: you will not see it again. changeledger keeps only a sealed copy to check the sender with."
          value={secret.made.secret}
          copyLabel="Copy the secret"
          dismissLabel="I have copied it"
          onDismiss={() => { setSecret(null); }}
        />
      )}
      {adding && <section className="card"><ChangeSourceForm onCreated={created} onCancel={() => { setAdding(false); }} /></section>}
      {loaded === null && error === null && <p className="muted">Loading the change sources…</p>}
      {loaded !== null && (
        <>
          <section className="card" data-testid="change-sources" aria-labelledby="change-sources-title">
            <h2 id="change-sources-title">Connections</h2>
            {loaded.sources.length === 0 ? (
              <p className="muted" data-testid="change-sources-empty">
                No change source yet. Each connection gets an endpoint on the pipeline listener and a secret; GitHub, GitLab and AWS
                can also be pulled on a schedule.
              </p>
            ) : (
              <ul className="source-list">
                {loaded.sources.map((s) => (
                  <ChangeSourceRow key={s.id} source={s} canEdit={canEdit} onChanged={reload} onSecret={(made) => { setSecret({ made, why: 'rotated' }); }} />
                ))}
              </ul>
            )}
          </section>
          <ObservedSettingsCard settings={loaded.settings} canEdit={canEdit} onSaved={(settings) => { setLoaded((l) => (l === null ? l : { ...l, settings })); }} />
        </>
      )}
    </Layout>
  );
}
