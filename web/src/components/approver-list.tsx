import { useState } from 'react';
import { api } from '../api/client';
import type { ChangeSettingsView, Member } from '../api/types';
import { errorField, errorMessage } from '../lib/errors';
import { personName } from '../lib/change-format';
import './approver-list.css';

type Props = {
  orgId: string;
  members: readonly Member[];
  view: ChangeSettingsView;
  onSaved: (view: ChangeSettingsView) => void;
};

// The members with an Approver and a Critical switch each. A switch saves the whole list at
// once (PUT …/change-approvers); a refusal (the list cannot shrink below the quorum) leaves
// the switches as they were and says why.
export function ApproverList({ orgId, members, view, onSaved }: Props) {
  // The list being saved, shown at once; dropped (the switches go back) if the server refuses it.
  const [pending, setPending] = useState<{ userIds: string[]; critical: string[] } | null>(null);
  // A refusal, with the settings it was judged against: once the quorum or the approval mode
  // changes (lowered on the settings card, say), it no longer applies and leaves the screen.
  const [refusal, setRefusal] = useState<{ message: string; field: string | null; against: string } | null>(null);
  const against = `${view.settings.approvalRequired}:${String(view.settings.quorum)}`;
  const error = refusal !== null && refusal.against === against ? refusal : null;

  const approverIds = pending?.userIds ?? view.approvers.map((a) => a.userId);
  const criticalIds = pending?.critical ?? view.approvers.filter((a) => a.critical).map((a) => a.userId);
  const busy = pending !== null;

  const save = async (userIds: string[], critical: string[]): Promise<void> => {
    const next = { userIds, critical: critical.filter((id) => userIds.includes(id)) };
    setPending(next);
    setRefusal(null);
    try {
      onSaved(await api.setChangeApprovers(orgId, next.userIds, next.critical));
    } catch (caught) {
      setRefusal({ message: errorMessage(caught), field: errorField(caught), against });
    } finally {
      setPending(null);
    }
  };

  const toggleApprover = (userId: string, on: boolean): void => {
    const ids = on ? [...approverIds, userId] : approverIds.filter((id) => id !== userId);
    void save(ids, on ? criticalIds : criticalIds.filter((id) => id !== userId));
  };

  const toggleCritical = (userId: string, on: boolean): void => {
    void save(approverIds, on ? [...criticalIds, userId] : criticalIds.filter((id) => id !== userId));
  };

  return (
    <section className="card card-flush approver-settings" data-testid="approver-list">
      <div className="card-title">
        <h2>Approvers</h2>
        <p className="muted small">
          Only listed approvers decide on changes — never the person who registered one. A critical change needs one approval from a critical
          approver. {approverIds.length} of at most 50 designated; quorum {view.settings.quorum}.
        </p>
      </div>
      {error !== null && (
        <div className="banner banner-error approver-error" role="alert" data-testid="approvers-error" data-field={error.field ?? undefined}>
          <span className="banner-text">{error.message}</span>
        </div>
      )}
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Role</th>
            <th scope="col">Approver</th>
            <th scope="col">Critical</th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const approver = approverIds.includes(m.userId);
            const critical = criticalIds.includes(m.userId);
            const saved = view.approvers.find((a) => a.userId === m.userId);
            const name = personName(m);
            return (
              <tr key={m.userId} aria-busy={busy} data-testid="approver-row" data-email={m.email} data-approver={saved !== undefined} data-critical={saved?.critical === true}>
                <td>
                  <span className="strong">{name}</span> {name !== m.email && <span className="muted small">{m.email}</span>}
                </td>
                <td>
                  <span className="role-pill role-pill-plain">{m.role}</span>
                </td>
                <td>
                  <span className="field-row">
                    <input
                      id={`approver-${m.userId}`}
                      type="checkbox"
                      role="switch"
                      className="switch"
                      checked={approver}
                      disabled={busy}
                      onChange={(e) => { toggleApprover(m.userId, e.target.checked); }}
                      aria-label={`Approver: ${name}`}
                      data-testid="approver-switch"
                    />
                  </span>
                </td>
                <td>
                  <span className="field-row">
                    <input
                      id={`critical-${m.userId}`}
                      type="checkbox"
                      role="switch"
                      className="switch switch-critical"
                      checked={critical}
                      disabled={busy || !approver}
                      onChange={(e) => { toggleCritical(m.userId, e.target.checked); }}
                      aria-label={`Critical approver: ${name}`}
                      title={approver ? undefined : 'Make them an approver first'}
                      data-testid="critical-switch"
                    />
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
