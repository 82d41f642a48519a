import { useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import type { MemberLinkSent, Role } from '../api/types';
import { errorField, errorMessage } from '../lib/errors';
import { ErrorBanner } from './error-banner';

type Props = { orgId: string; myRole: Role; onInvited: (sent: MemberLinkSent) => void };

// Invite by e-mail with a role. Only an owner may invite an owner, so admins are not offered it.
export function MemberInviteForm({ orgId, myRole, onInvited }: Props) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  const roles: Role[] = myRole === 'owner' ? ['member', 'admin', 'owner'] : ['member', 'admin'];

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (email.trim() === '') {
      setError({ message: 'E-mail is required.', field: 'email' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const sent = await api.inviteMember(orgId, { email: email.trim(), role, ...(name.trim() !== '' ? { name: name.trim() } : {}) });
      setEmail('');
      setName('');
      setRole('member');
      onInvited(sent);
    } catch (caught) {
      setError({ message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setBusy(false);
    }
  };
  const invalid = (f: string): true | undefined => (error?.field === f ? true : undefined);

  return (
    <form className="card member-invite" onSubmit={(e) => void submit(e)} noValidate data-testid="member-invite">
      <h2>Invite someone</h2>
      <ErrorBanner message={error?.message ?? null} testId="member-invite-error" />
      <div className="member-invite-fields">
        <div className="field">
          <label htmlFor="invite-email">E-mail</label>
          <input id="invite-email" type="email" value={email} onChange={(e) => { setEmail(e.target.value); }} aria-invalid={invalid('email')} data-testid="invite-email" />
        </div>
        <div className="field">
          <label htmlFor="invite-name">Name (optional)</label>
          <input id="invite-name" type="text" value={name} onChange={(e) => { setName(e.target.value); }} aria-invalid={invalid('name')} data-testid="invite-name" />
        </div>
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => { setRole(e.target.value as Role); }} aria-invalid={invalid('role')} data-testid="invite-role">
            {roles.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="invite-submit">
          {busy ? 'Inviting…' : 'Invite'}
        </button>
      </div>
      <p className="muted small">
        They get a one-time sign-in link, valid 24 hours: by e-mail when a mail server is set up, otherwise shown here once for you to pass on.
      </p>
    </form>
  );
}
