import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

// A minimal History API router: the app has a handful of flat routes, which does not
// justify a routing dependency. The server answers index.html for every non-/api path.

export type RouteLocation = { pathname: string; search: string; hash: string };

type NavigateOptions = { replace?: boolean };

type RouterValue = {
  location: RouteLocation;
  navigate: (to: string, options?: NavigateOptions) => void;
};

const RouterContext = createContext<RouterValue | null>(null);

function readLocation(): RouteLocation {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash };
}

export function RouterProvider({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState<RouteLocation>(readLocation);

  useEffect(() => {
    const onPopState = (): void => { setLocation(readLocation()); };
    window.addEventListener('popstate', onPopState);
    return () => { window.removeEventListener('popstate', onPopState); };
  }, []);

  const navigate = useCallback((to: string, options: NavigateOptions = {}) => {
    const current = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    if (to !== current) {
      if (options.replace === true) window.history.replaceState(null, '', to);
      else window.history.pushState(null, '', to);
    }
    setLocation(readLocation());
  }, []);

  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (value === null) throw new Error('useRouter must be used inside <RouterProvider>');
  return value;
}

export function useSearchParams(): URLSearchParams {
  const { location } = useRouter();
  return useMemo(() => new URLSearchParams(location.search), [location.search]);
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

export function Link({ to, onClick, children, ...rest }: LinkProps) {
  const { navigate } = useRouter();

  const handleClick = (event: MouseEvent<HTMLAnchorElement>): void => {
    onClick?.(event);
    // Leave modified clicks (new tab, download…) and non-primary buttons to the browser.
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      rest.target === '_blank'
    ) {
      return;
    }
    event.preventDefault();
    navigate(to);
  };

  return (
    <a href={to} onClick={handleClick} {...rest}>
      {children}
    </a>
  );
}

// Only same-origin absolute paths are accepted as a post-sign-in destination, so a
// crafted `?next=` cannot bounce the user to another site.
export function safeNextPath(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) {
    return '/';
  }
  if (next === '/signin' || next.startsWith('/signin?') || next.startsWith('/signin/')) return '/';
  return next;
}
