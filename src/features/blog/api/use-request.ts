// A small request-state hook for the blog's reads: loading, error or data, a retry, and an
// optional quiet refetch when the window regains focus.
import { useCallback, useEffect, useRef, useState } from 'react';

export type RequestState<T> =
  | { status: 'loading' }
  | { status: 'error'; error: Error }
  | { status: 'success'; data: T };

export interface RequestResult<T> {
  state: RequestState<T>;
  /** Loads again, showing the loading state (used by "Try again"). */
  retry: () => void;
}

export function useRequest<T>(
  fetcher: () => Promise<T>,
  key: string,
  options: { refetchOnFocus?: boolean } = {},
): RequestResult<T> {
  const [state, setState] = useState<RequestState<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // The latest fetcher without making it an effect dependency (callers pass inline closures).
  const fetcherRef = useRef(fetcher);
  useEffect(() => {
    fetcherRef.current = fetcher;
  });

  useEffect(() => {
    let active = true;
    setState({ status: 'loading' });
    fetcherRef.current().then(
      (data) => active && setState({ status: 'success', data }),
      (error: unknown) => active && setState({ status: 'error', error: toError(error) }),
    );
    return () => {
      active = false;
    };
  }, [key, attempt]);

  const refetchOnFocus = options.refetchOnFocus ?? false;
  useEffect(() => {
    if (!refetchOnFocus) return;
    let active = true;
    // Keeps what is on screen while refreshing; a failed refresh leaves the old data in place.
    const onFocus = () => {
      fetcherRef.current().then(
        (data) => active && setState({ status: 'success', data }),
        () => undefined,
      );
    };
    window.addEventListener('focus', onFocus);
    return () => {
      active = false;
      window.removeEventListener('focus', onFocus);
    };
  }, [key, refetchOnFocus]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}

function toError(error: unknown): Error {
  if (error instanceof Error) return error;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
    return new Error(error.message);
  }
  return new Error('The request failed.');
}
