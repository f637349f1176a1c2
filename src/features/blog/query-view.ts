// What a blog view shows for a query: a loading state, an error (with "Try again"), or the data.
import type { UseQueryResult } from '@tanstack/react-query';

export type QueryView<T> =
  { status: 'loading' } | { status: 'error'; error: Error } | { status: 'success'; data: T };

export function queryView<T>(
  query: Pick<UseQueryResult<T, Error>, 'data' | 'error' | 'status' | 'isFetching'>,
): QueryView<T> {
  // Data on screen stays there through a refresh, even a failed one.
  if (query.data !== undefined) return { status: 'success', data: query.data };
  // A retry after an error shows the loading state again, so "Try again" visibly does something.
  if (query.status === 'error' && !query.isFetching && query.error) {
    return { status: 'error', error: query.error };
  }
  return { status: 'loading' };
}
