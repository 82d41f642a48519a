import { useState } from 'react';
import type { Member, Role } from '../api/types';
import { personName } from '../lib/change-format';
import { formatUtcMinute } from '../lib/format';

type Props = {
  member: Member;
  isMe: boolean;
  myRole: Role;
  /** How many owners the organisation has: the last one keeps the role. */
  owners: number;
  approver: boolean;
  critical: boolean;
  switchesBusy: boolean;
  onRole: (role: Role) => Promise<void>;
  onRemove: () => Promise<void>;
  onNewLink: () => Promise<void>;
  onApprover: (on: boolean) => void;
  onCritical: (on: boolean) => void;
};

const ROLES: Role[] = ['member', 'admin', 'owner'];

// One person: role, whether they have signed in, the Approver and Critical switches, and Remove
// (asked twice). What the server would refuse (an admin touching an owner, the last owner) is
// not offered, and says why.
export function MemberRow(p: Props) {
  const { member: m } = p;
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const name = personName(m);
  const lastOwner = m.role === 'owner' && p.owners <= 1;
  const ownerOnly = p.myRole !== 'owner' && m.role === 'owner';
  const lockedWhy = lastOwner ? 'The last owner keeps the role: make someone else owner first' : ownerOnly ? 'Only an owner can change or remove an owner' : undefined;
  const roles = p.myRole === 'owner' ? ROLES : ROLES.filter((r) => r !== 'owner' || m.role === 'owner');

  const run = async (action: () => Promise<void>): Promise<void> => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };

  return (
    <tr data-testid="member-row" data-email={m.email} data-role={m.role} data-status={m.status} aria-busy={busy || p.switchesBusy}>
      <td>
        <span className="strong" data-testid="member-name">{name}</span>
        {p.isMe && <span className="muted small"> (you)</span>}
        {name !== m.email && <div className="muted small">{m.email}</div>}
      </td>
      <td>
        <select
          value={m.role}
          disabled={busy || lockedWhy !== undefined}
          title={lockedWhy}
          onChange={(e) => void run(() => p.onRole(e.target.value as Role))}
          aria-label={`Role of ${name}`}
          data-testid="member-role"
        >
          {roles.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
      </td>
      <td data-testid="member-status">
        {m.status === 'active' && <span className="muted">Signed in</span>}
        {m.status === 'invited' && <span>Invited · link until {formatUtcMinute(m.linkExpiresAt)}</span>}
        {m.status === 'link_expired' && <span className="member-expired">Link expired</span>}
        {m.status !== 'active' && !ownerOnly && (
          <button type="button" className="btn btn-small member-new-link" disabled={busy} onClick={() => void run(p.onNewLink)} data-testid="member-new-link">
            New link
          </button>
        )}
      </td>
      <td>
        <input
          type="checkbox"
          role="switch"
          className="switch"
          checked={p.approver}
          disabled={p.switchesBusy}
          onChange={(e) => { p.onApprover(e.target.checked); }}
          aria-label={`Approver: ${name}`}
          data-testid="member-approver"
        />
      </td>
      <td>
        <input
          type="checkbox"
          role="switch"
          className="switch switch-critical"
          checked={p.critical}
          disabled={p.switchesBusy || !p.approver}
          title={p.approver ? undefined : 'Only an approver can be a critical approver'}
          onChange={(e) => { p.onCritical(e.target.checked); }}
          aria-label={`Critical approver: ${name}`}
          data-testid="member-critical"
        />
      </td>
      <td className="member-actions">
        {!confirming && (
          <button type="button" className="btn btn-small" disabled={busy || lockedWhy !== undefined} title={lockedWhy} onClick={() => { setConfirming(true); }} data-testid="member-remove">
            Remove
          </button>
        )}
        {confirming && (
          <span className="member-confirm" data-testid="member-remove-confirm">
            <span className="small">{p.isMe ? 'Remove yourself? You are signed out.' : `Remove ${name}? Their sessions end and their tokens are revoked.`}</span>
            <button type="button" className="btn btn-small btn-danger" disabled={busy} onClick={() => void run(p.onRemove)} data-testid="member-remove-yes">
              Remove
            </button>
            <button type="button" className="btn btn-small" disabled={busy} onClick={() => { setConfirming(false); }}>
              Cancel
            </button>
          </span>
        )}
      </td>
    </tr>
  );
}
