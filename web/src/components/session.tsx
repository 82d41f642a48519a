import { createContext, useContext, type ReactNode } from 'react';
import type { Session } from '../api/types';

// The signed-in session as the rest of the UI sees it. `setSession` is how sign-in,
// sign-out and the password form publish a new session answer.

type SessionValue = {
  session: Session;
  setSession: (session: Session | null) => void;
  refreshSession: () => Promise<void>;
};

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ value, children }: { value: SessionValue; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (value === null) throw new Error('useSession must be used inside a signed-in page');
  return value;
}
