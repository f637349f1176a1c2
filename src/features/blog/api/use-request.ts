// A small request-state hook for the blog's reads: loading, error or data, a retry, and an
// optional quiet refetch when the window regains focus.
import { useCallback, useEffect, useRef, useState } from 'react';

export type RequestState<T> =
  { status: 'loading' } | { status: 'error'; error: Error } | { status: 'success'; data: T };

export interface RequestResult<T> {
  state: RequestState<T>;
  /** Loads again, showing the loading state (used by "Try again"). */
  retry: () => void;
}

const LOADING = { status: 'loading' } as const;

export function useRequest<T>(
  fetcher: () => Promise<T>,
  key: string,
  options: { refetchOnFocus?: boolean } = {},
): RequestResult<T> {
  const [attempt, setAttempt] = useState(0);
  // Each answer is tagged with the request it belongs to; until the current request has answered,
  // the state is "loading" (derived, so no state has to be reset when the key changes).
  const token = `${key}#${attempt}`;
  const [answer, setAnswer] = useState<{ token: string; state: RequestState<T> } | null>(null);
  // The latest fetcher without making it an effect dependency (callers pass inline closures).
  const fetcherRef = useRef(fetcher);
  useEffect(() => {
    fetcherRef.current = fetcher;
  });

  useEffect(() => {
    let active = true;
    fetcherRef.current().then(
      (data) => active && setAnswer({ token, state: { status: 'success', data } }),
      (error: unknown) =>
        active && setAnswer({ token, state: { status: 'error', error: toError(error) } }),
    );
    return () => {
      active = false;
    };
  }, [token]);

  const refetchOnFocus = options.refetchOnFocus ?? false;
  useEffect(() => {
    if (!refetchOnFocus) return;
    let active = true;
    // Keeps what is on screen while refreshing; a failed refresh leaves the old data in place.
    const onFocus = () => {
      fetcherRef.current().then(
        (data) => active && setAnswer({ token, state: { status: 'success', data } }),
        () => undefined,
      );
    };
    window.addEventListener('focus', onFocus);
    return () => {
      active = false;
      window.removeEventListener('focus', onFocus);
    };
  }, [token, refetchOnFocus]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state: answer?.token === token ? answer.state : LOADING, retry };
}

function toError(error: unknown): Error {
  if (error instanceof Error) return error;
  if (
    error &&
    typeof error === 'object' &&
    'message' in error &&
    typeof error.message === 'string'
  ) {
    return new Error(error.message);
  }
  return new Error('The request failed.');
}
