import { describe, expect, it } from 'vitest';
import { queryView } from './query-view';

const failure = new Error('offline');

describe('queryView', () => {
  it('is loading until the first answer', () => {
    expect(
      queryView({ status: 'pending', data: undefined, error: null, isFetching: true }),
    ).toEqual({ status: 'loading' });
  });

  it('shows an error once the request has failed', () => {
    expect(
      queryView({ status: 'error', data: undefined, error: failure, isFetching: false }),
    ).toEqual({ status: 'error', error: failure });
  });

  it('is loading again while "Try again" refetches', () => {
    expect(
      queryView({ status: 'error', data: undefined, error: failure, isFetching: true }),
    ).toEqual({ status: 'loading' });
  });

  it('keeps the data after a failed refresh, and a null answer counts as data', () => {
    expect(queryView({ status: 'error', data: [1, 2], error: failure, isFetching: false })).toEqual(
      { status: 'success', data: [1, 2] },
    );
    expect(queryView({ status: 'success', data: null, error: null, isFetching: false })).toEqual({
      status: 'success',
      data: null,
    });
  });
});
