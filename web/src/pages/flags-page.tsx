import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import type { BulkResult, Environment, Flag } from '../api/types';
import { EnvironmentSettings } from '../components/environment-settings';
import { ErrorBanner } from '../components/error-banner';
import { FlagCreateForm } from '../components/flag-create-form';
import { FlagTable } from '../components/flag-table';
import { KillSwitch } from '../components/kill-switch';
import { Layout } from '../components/layout';
import { Link, useRouter, useSearchParams } from '../components/router';
import { useSession } from '../components/session';
import { errorMessage, isAbort } from '../lib/errors';
import { flagHref } from '../lib/flag-format';
import { pluralize } from '../lib/format';
import './flags-page.css';

type Notice = { kind: 'created'; key: string } | { kind: 'bulk'; result: BulkResult; env: string };

function bulkSummary(result: BulkResult, env: string): string {
  const count = (kind: string): number => result.results.filter((r) => r.result === kind).length;
  const parts = [`${pluralize(count('changed'), 'flag')} turned off in ${env}`];
  if (count('unchanged') > 0) parts.push(`${String(count('unchanged'))} already off`);
  if (count('proposed') > 0) parts.push(`${pluralize(count('proposed'), 'change request')} proposed for approval`);
  return parts.join(', ');
}

export function FlagsPage() {
  const { navigate } = useRouter();
  const { session } = useSession();
  const params = useSearchParams();
  // The namespace lives in the URL so a filtered list can be shared as a link.
  const namespace = (params.get('namespace') ?? '').trim();
  const [draft, setDraft] = useState(namespace);
  const [flags, setFlags] = useState<Flag[] | null>(null);
  const [environments, setEnvironments] = useState<Environment[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  useEffect(() => { setDraft(namespace); }, [namespace]);

  useEffect(() => {
    const abort = new AbortController();
    setError(null);
    Promise.all([api.listFlags(namespace, abort.signal), api.listEnvironments()]).then(
      ([flagList, envList]) => {
        if (abort.signal.aborted) return;
        setFlags(flagList.items);
        setEnvironments([...envList.items].sort((a, b) => a.position - b.position || a.key.localeCompare(b.key)));
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [namespace, reloads]);

  const reload = useCallback(() => { setReloads((n) => n + 1); }, []);

  const search = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const ns = draft.trim();
    navigate(ns === '' ? '/flags' : `/flags?${new URLSearchParams({ namespace: ns }).toString()}`);
  };

  const onCreated = (flag: Flag): void => {
    setCreating(false);
    setNotice({ kind: 'created', key: flag.key });
    reload();
  };

  const canEdit = session.role === 'owner' || session.role === 'admin';
  const isNamespace = namespace.endsWith('*');

  const actions = (
    <>
      <Link className="btn" to={`/flags/audit${namespace === '' ? '' : `?${new URLSearchParams({ namespace }).toString()}`}`} data-testid="flags-audit-link">
        Flag audit
      </Link>
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => {
          setCreating(true);
          setNotice(null);
        }}
        disabled={creating}
        data-testid="flag-new"
      >
        New flag
      </button>
    </>
  );

  return (
    <Layout title="Feature flags" actions={actions}>
      {creating && <FlagCreateForm onCreated={onCreated} onCancel={() => { setCreating(false); }} />}
      {notice?.kind === 'created' && (
        <div className="banner banner-ok" role="status" data-testid="flag-created">
          <span className="banner-text">
            Flag <Link to={flagHref(notice.key)} className="mono">{notice.key}</Link> created — off in every
            environment.
          </span>
          <button type="button" className="btn btn-small" onClick={() => { setNotice(null); }}>
            Dismiss
          </button>
        </div>
      )}
      {notice?.kind === 'bulk' && (
        <div className="banner banner-ok" role="status" data-testid="kill-switch-done">
          <span className="banner-text">
            {bulkSummary(notice.result, notice.env)} · correlation{' '}
            <span className="mono">{notice.result.correlationId}</span>
          </span>
          <button type="button" className="btn btn-small" onClick={() => { setNotice(null); }}>
            Dismiss
          </button>
        </div>
      )}
      <form className="filter-bar namespace-search" onSubmit={search} role="search" data-testid="flag-search">
        <div className="field field-inline field-wide">
          <label htmlFor="flag-namespace">Namespace</label>
          <input
            id="flag-namespace"
            type="search"
            className="mono-input"
            value={draft}
            placeholder="ops.payments.*"
            onChange={(e) => { setDraft(e.target.value); }}
            spellCheck={false}
            autoComplete="off"
            data-testid="flag-namespace"
          />
        </div>
        <div className="filter-actions">
          <button type="submit" className="btn btn-primary" data-testid="flag-search-submit">
            Search
          </button>
          <button
            type="button"
            className="btn"
            disabled={namespace === ''}
            onClick={() => { navigate('/flags'); }}
            data-testid="flag-search-clear"
          >
            Clear
          </button>
        </div>
        <p className="muted small filter-hint">
          <code>ops.payments.*</code> lists every flag under it; a full key finds one flag.
        </p>
      </form>
      <ErrorBanner message={error} testId="flags-error" onRetry={reload} />
      {isNamespace && flags !== null && flags.length > 0 && (
        <KillSwitch
          namespace={namespace}
          flags={flags}
          environments={environments}
          onDone={(result, env) => {
            setNotice({ kind: 'bulk', result, env });
            reload();
          }}
        />
      )}
      <section className="card card-flush">
        {flags === null && error === null && <p className="muted pad">Loading flags…</p>}
        {flags !== null && flags.length === 0 && (
          <p className="empty-state" data-testid="flags-empty">
            {namespace === '' ? 'No flags yet. Create the first one with “New flag”.' : `No flags match ${namespace}.`}
          </p>
        )}
        {flags !== null && flags.length > 0 && (
          <>
            <FlagTable flags={flags} environments={environments} highlight={notice?.kind === 'created' ? notice.key : null} />
            <div className="list-footer muted" data-testid="flags-count">
              {pluralize(flags.length, 'flag')}
            </div>
          </>
        )}
      </section>
      <EnvironmentSettings environments={environments} canEdit={canEdit} onChanged={reload} />
    </Layout>
  );
}
