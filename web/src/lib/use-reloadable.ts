import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { errorMessage, isAbort } from './errors';

export type Reloadable<T> = {
  /** null until the first load answers. */
  loaded: T | null;
  setLoaded: Dispatch<SetStateAction<T | null>>;
  /** What went wrong with the last load, in words; null once one succeeds. */
  error: string | null;
  /** Loads again (after a write, or from the error banner's Retry). */
  reload: () => void;
};

/**
 * A settings page's data: loaded on mount and on reload(), the request aborted when the page goes
 * away or a newer load starts, so a slow answer never overwrites a newer one.
 */
export function useReloadable<T>(load: (signal: AbortSignal) => Promise<T>): Reloadable<T> {
  const [loaded, setLoaded] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  // The latest loader, without making every render's new closure start a load.
  const loader = useRef(load);
  loader.current = load;

  useEffect(() => {
    const abort = new AbortController();
    loader.current(abort.signal).then(
      (value) => {
        if (abort.signal.aborted) return;
        setLoaded(value);
        setError(null);
      },
      (caught: unknown) => {
        if (!abort.signal.aborted && !isAbort(caught)) setError(errorMessage(caught));
      },
    );
    return () => { abort.abort(); };
  }, [reloads]);

  const reload = useCallback(() => { setReloads((n) => n + 1); }, []);
  return { loaded, setLoaded, error, reload };
}
