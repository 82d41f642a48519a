import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import type { ChangeSettingsView, Member, MemberLinkSent, Role } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { Layout } from '../components/layout';
import { MemberInviteForm } from '../components/member-invite-form';
import { MemberLink } from '../components/member-link';
import { MemberRow } from '../components/member-row';
import { useRouter } from '../components/router';
import { useSession } from '../components/session';
import { errorMessage, isAbort } from '../lib/errors';
import './members-page.css';
import { sentence } from '../lib/format.js';

// Organisation → Members (owners and admins): invite, re-role, remove, and the Approver and
// Critical switches beside each person — the organisation's one approver list, saved whole
// (PUT …/change-approvers) as the Change approvals page saves it.
export function MembersPage() {
  const { session, setSession } = useSession();
  const { navigate } = useRouter();
  const orgId = session.organization.id;
  const manager = session.role === 'owner' || session.role === 'admin';
  const [members, setMembers] = useState<Member[] | null>(null);
  const [view, setView] = useState<ChangeSettingsView | null>(null);
  const [sent, setSent] = useState<MemberLinkSent | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [switching, setSwitching] = useState<{ ids: string[]; critical: string[] } | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    if (!manager) return;
    const abort = new AbortController();
    Promise.all([api.listMembers(orgId, abort.signal), api.changeSettings(orgId, abort.signal)]).then(
      ([list, settings]) => {
        setMembers(list.members);
        setView(settings);
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [orgId, manager, reloads]);

  const reload = useCallback(() => { setReloads((n) => n + 1); }, []);
  const attempt = async (action: () => Promise<void>): Promise<void> => {
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(errorMessage(caught));
    }
  };

  if (!manager) {
    return (
      <Layout title="Members">
        <p className="card muted" data-testid="members-forbidden">Only owners and admins manage the members of the organisation.</p>
      </Layout>
    );
  }

  // The list being saved shows at once; if the server refuses it the switches go back.
  const approverIds = switching?.ids ?? view?.approvers.map((a) => a.userId) ?? [];
  const criticalIds = switching?.critical ?? view?.approvers.filter((a) => a.critical).map((a) => a.userId) ?? [];
  // Critical only for an approver: switching Approver off ends Critical with it.
  const saveApprovers = (ids: string[], critical: string[]): void => {
    const next = { ids, critical: critical.filter((id) => ids.includes(id)) };
    setSwitching(next);
    void attempt(async () => {
      setView(await api.setChangeApprovers(orgId, next.ids, next.critical));
    }).finally(() => { setSwitching(null); });
  };
  const owners = members?.filter((m) => m.role === 'owner').length ?? 0;
  const replace = (m: Member): void => { setMembers((list) => list?.map((x) => (x.userId === m.userId ? m : x)) ?? null); };

  return (
    <Layout title="Members">
      <MemberInviteForm orgId={orgId} myRole={session.role} onInvited={(s) => { setSent(s); reload(); }} />
      {sent !== null && <MemberLink sent={sent} onDismiss={() => { setSent(null); }} />}
      <ErrorBanner message={error} testId="members-error" onRetry={members === null ? reload : undefined} />
      {view?.warnings.map((w) => (
        <div key={w.field} className="banner banner-warn" role="status" data-testid="members-warning">
          <span className="banner-text">{sentence(w.message)}</span>
        </div>
      ))}
      {members === null && error === null && <p className="muted">Loading the members…</p>}
      {members !== null && (
        <section className="card card-flush">
          <div className="card-title">
            <h2>People</h2>
            <p className="muted small">
              Approvers decide on changes (never on their own); a critical change also needs a critical approver. {approverIds.length} of at most 50
              approvers{view !== null ? `; quorum ${String(view.settings.quorum)}` : ''}.
            </p>
          </div>
          <table className="data-table members-table" data-testid="members-table">
            <thead>
              <tr>
                <th scope="col">Person</th>
                <th scope="col">Role</th>
                <th scope="col">Sign-in</th>
                <th scope="col">Approver</th>
                <th scope="col">Critical</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <MemberRow
                  key={m.userId}
                  member={m}
                  isMe={m.userId === session.user.id}
                  myRole={session.role}
                  owners={owners}
                  approver={approverIds.includes(m.userId)}
                  critical={criticalIds.includes(m.userId)}
                  switchesBusy={switching !== null || view === null}
                  onRole={(role: Role) => attempt(async () => {
                    replace((await api.setMemberRole(orgId, m.userId, role)).member);
                    if (m.userId === session.user.id) setSession({ ...session, role });
                  })}
                  onRemove={() => attempt(async () => {
                    await api.removeMember(orgId, m.userId);
                    if (m.userId === session.user.id) {
                      setSession(null);
                      navigate('/signin', { replace: true });
                      return;
                    }
                    setMembers((list) => list?.filter((x) => x.userId !== m.userId) ?? null);
                    setView(await api.changeSettings(orgId));
                  })}
                  onNewLink={() => attempt(async () => {
                    const s = await api.newMemberLink(orgId, m.userId);
                    setSent(s);
                    replace(s.member);
                  })}
                  onApprover={(on) => { saveApprovers(on ? [...approverIds, m.userId] : approverIds.filter((id) => id !== m.userId), criticalIds); }}
                  onCritical={(on) => { saveApprovers(approverIds, on ? [...criticalIds, m.userId] : criticalIds.filter((id) => id !== m.userId)); }}
                />
              ))}
            </tbody>
          </table>
        </section>
      )}
    </Layout>
  );
}
