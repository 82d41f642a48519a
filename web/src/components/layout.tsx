import { useState, type ReactNode } from 'react';
import { api } from '../api/client';
import { Link, useRouter } from './router';
import { useSession } from './session';

type NavItem = { to: string; label: string; testId: string; managers?: true };

const navItems: readonly NavItem[] = [
  { to: '/', label: 'Home', testId: 'nav-home' },
  { to: '/audit', label: 'Audit log', testId: 'nav-audit' },
  { to: '/changes', label: 'Changes', testId: 'nav-changes' },
  { to: '/change-calendar', label: 'Calendar', testId: 'nav-change-calendar' },
  { to: '/change-templates', label: 'Templates', testId: 'nav-change-templates' },
  { to: '/cases', label: 'Cases', testId: 'nav-cases' },
  { to: '/flags', label: 'Flags', testId: 'nav-flags' },
  { to: '/flags/audit', label: 'Flag audit', testId: 'nav-flag-audit' },
  { to: '/alerts', label: 'Alerts', testId: 'nav-alerts' },
  { to: '/catalogue', label: 'Catalogue', testId: 'nav-catalogue' },
  { to: '/changes/preview', label: 'Blast radius preview', testId: 'nav-blast-preview' },
  { to: '/settings/members', label: 'Members', testId: 'nav-members', managers: true },
  { to: '/settings/changes', label: 'Change approvals', testId: 'nav-change-settings', managers: true },
  { to: '/settings/alerts', label: 'Alert sources', testId: 'nav-alert-sources' },
  { to: '/settings/evidence', label: 'Evidence', testId: 'nav-evidence' },
  { to: '/settings/change-sources', label: 'Change sources', testId: 'nav-change-sources' },
  { to: '/settings/unmanaged-changes', label: 'Unmanaged changes', testId: 'nav-unmanaged-changes' },
  { to: '/tokens', label: 'API tokens', testId: 'nav-tokens' },
  { to: '/account', label: 'Account', testId: 'nav-account' },
];

// The most specific item wins: /flags/audit is "Flag audit", not also "Flags".
function activeItem(pathname: string): string | null {
  let best: string | null = null;
  for (const item of navItems) {
    const matches = pathname === item.to || pathname.startsWith(`${item.to}/`);
    if (matches && (best === null || item.to.length > best.length)) best = item.to;
  }
  return best;
}

type LayoutProps = {
  title: string;
  // Identifiers (an entity key) read as such: in the monospace face.
  titleMono?: boolean;
  actions?: ReactNode;
  children: ReactNode;
};

export function Layout({ title, titleMono = false, actions, children }: LayoutProps) {
  const { session, setSession } = useSession();
  const { location, navigate } = useRouter();
  const [signingOut, setSigningOut] = useState(false);
  const activeNav = activeItem(location.pathname);
  // Settings pages only owners and admins may read are not offered to members.
  const manager = session.role === 'owner' || session.role === 'admin';
  const shown = navItems.filter((item) => item.managers !== true || manager);

  const signOut = async (): Promise<void> => {
    setSigningOut(true);
    try {
      await api.signOut();
    } catch {
      // Even if the server call fails the user asked to leave; drop the local session
      // so the UI never keeps showing data after "Sign out".
    }
    setSession(null);
    navigate('/signin', { replace: true });
  };

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">◆</span> changeledger
        </div>
        <ul className="nav-list">
          {shown.map((item) => {
            const active = item.to === activeNav;
            return (
              <li key={item.to}>
                <Link
                  to={item.to}
                  className={active ? 'nav-link active' : 'nav-link'}
                  aria-current={active ? 'page' : undefined}
                  data-testid={item.testId}
                >
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <header className="topbar">
        <div className="topbar-org" data-testid="header-org" title={session.organization.slug}>
          {session.organization.name}
        </div>
        <div className="topbar-user">
          <span data-testid="header-user" title={session.user.email}>
            {session.user.displayName !== '' ? session.user.displayName : session.user.email}
          </span>
          <span className="role-pill">{session.role}</span>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => void signOut()}
            disabled={signingOut}
            data-testid="sign-out"
          >
            Sign out
          </button>
        </div>
      </header>
      <main className="content">
        <div className="page-head">
          <h1 className={titleMono ? 'mono-title' : undefined}>{title}</h1>
          {actions !== undefined && <div className="page-actions">{actions}</div>}
        </div>
        {children}
      </main>
    </div>
  );
}
