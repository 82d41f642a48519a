import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { ChangeSettingsView, Member } from '../api/types';
import { ApproverList } from '../components/approver-list';
import { ChangeSettingsForm } from '../components/change-settings-form';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { useSession } from '../components/session';
import { TicketingCard } from '../components/ticketing-card';
import { errorMessage, isAbort } from '../lib/errors';
import './change-settings-page.css';

// Settings → Change approvals: whether changes wait for approval and for how many, who
// approves (critical approvers marked), and where each change's ticket goes. Owners and
// admins only.
export function ChangeSettingsPage() {
  const { session } = useSession();
  const orgId = session.organization.id;
  const manager = session.role === 'owner' || session.role === 'admin';
  const [view, setView] = useState<ChangeSettingsView | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    if (!manager) return;
    const abort = new AbortController();
    Promise.all([api.changeSettings(orgId, abort.signal), api.listMembers(orgId, abort.signal)]).then(
      ([settings, list]) => {
        if (abort.signal.aborted) return;
        setView(settings);
        setMembers([...list.members].sort((a, b) => a.email.localeCompare(b.email)));
        setError(null);
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [orgId, manager, reloads]);

  if (!manager) {
    return (
      <Layout title="Change approvals">
        <p className="card muted" data-testid="settings-forbidden">
          Only owners and admins read and change the change settings.
        </p>
      </Layout>
    );
  }

  return (
    <Layout title="Change approvals">
      <ErrorBanner message={error} testId="settings-load-error" onRetry={() => { setReloads((n) => n + 1); }} />
      {view === null && error === null && <p className="muted">Loading the settings…</p>}
      {view !== null && (
        <div className="settings-columns">
          <div>
            <ChangeSettingsForm orgId={orgId} view={view} onSaved={setView} />
            <TicketingCard orgId={orgId} view={view} onSaved={setView} />
          </div>
          <ApproverList orgId={orgId} members={members} view={view} onSaved={setView} />
        </div>
      )}
    </Layout>
  );
}
