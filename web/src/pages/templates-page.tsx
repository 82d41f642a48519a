import { useEffect, useState } from 'react';
import { governanceApi } from '../api/governance-client';
import type { Template } from '../api/governance-types';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { useSession } from '../components/session';
import { TemplateForm } from '../components/template-form';
import { TemplateTable } from '../components/template-table';
import { errorMessage, isAbort } from '../lib/errors';
import { pluralize } from '../lib/format';
import './templates-page.css';

type Editing = { template: Template | null } | null;

// Standard-change templates: the pre-approved operations. Owners and admins draft and edit
// them; a different owner or designated approver certifies each version; anyone allowed
// withdraws one, saying why. A change a certified template covers is standard (L1).
export function TemplatesPage() {
  const { session } = useSession();
  const manager = session.role === 'owner' || session.role === 'admin';
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    governanceApi.listTemplates(abort.signal).then(
      (answer) => {
        if (abort.signal.aborted) return;
        setTemplates([...answer.items].sort((a, b) => a.name.localeCompare(b.name)));
        setError(null);
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [reloads]);

  const done = (text: string): void => {
    setNotice(text);
    setEditing(null);
    setReloads((n) => n + 1);
  };

  const actions = manager && editing === null ? (
    <button type="button" className="btn btn-primary" onClick={() => { setEditing({ template: null }); setNotice(null); }} data-testid="template-new">
      Draft a template
    </button>
  ) : undefined;

  return (
    <Layout title="Standard-change templates" actions={actions}>
      <p className="lede muted">
        A template pre-approves an operation: a change of its kind whose components, environment, pipeline and repository it covers, within its blast radius
        and hops, is <strong>standard</strong> (risk L1) once a different owner or designated approver has certified the template. Editing it makes a new,
        uncertified version.
      </p>
      <ErrorBanner message={error} testId="templates-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {notice !== null && (
        <div className="banner banner-ok" role="status" data-testid="templates-notice">
          <span className="banner-text">{notice}</span>
          <button type="button" className="btn btn-small" onClick={() => { setNotice(null); }}>
            Dismiss
          </button>
        </div>
      )}
      {editing !== null && (
        <TemplateForm key={editing.template?.id ?? 'new'} template={editing.template} onSaved={done} onCancel={() => { setEditing(null); }} />
      )}
      <section className="card card-flush">
        {templates === null && error === null && <p className="muted pad pad-top">Loading the templates…</p>}
        {templates !== null && templates.length === 0 && (
          <p className="empty-state" data-testid="templates-empty">
            No template yet: every change is normal or an emergency.{manager ? ' Draft one with “Draft a template”.' : ' Owners and admins draft them.'}
          </p>
        )}
        {templates !== null && templates.length > 0 && (
          <>
            <TemplateTable templates={templates} session={session} onEdit={(t) => { setEditing({ template: t }); setNotice(null); }} onDone={done} />
            <div className="list-footer muted" data-testid="templates-count">
              {pluralize(templates.length, 'template')} · {templates.filter((t) => t.state === 'certified').length.toLocaleString('en-US')} certified
            </div>
          </>
        )}
      </section>
    </Layout>
  );
}
