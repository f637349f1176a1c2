import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { refetchSoon, REFETCH_WINDOW_MS } from './refetch-soon';

describe('refetchSoon', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('marks at once and reads each shown query once per burst, the hidden ones never', async () => {
    const client = new QueryClient();
    const reads = { counts: 0, usage: 0, hidden: 0 };
    const watch = (key: 'counts' | 'usage') =>
      new QueryObserver(client, {
        queryKey: [key],
        queryFn: () => ++reads[key],
        staleTime: Infinity,
      }).subscribe(() => {});
    const stop = [watch('counts'), watch('usage')];
    client.setQueryData(['hidden'], 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toEqual({ counts: 1, usage: 1, hidden: 0 });

    for (let i = 0; i < 20; i++) {
      refetchSoon(client, ['counts']);
      refetchSoon(client, ['usage']);
      refetchSoon(client, ['hidden']);
    }
    expect(client.getQueryState(['counts'])!.isInvalidated).toBe(true);
    expect(client.getQueryState(['hidden'])!.isInvalidated).toBe(true);
    await vi.advanceTimersByTimeAsync(REFETCH_WINDOW_MS - 1);
    expect(reads).toEqual({ counts: 1, usage: 1, hidden: 0 });
    await vi.advanceTimersByTimeAsync(1);
    expect(reads).toEqual({ counts: 2, usage: 2, hidden: 0 });

    // The next burst gets its own read.
    refetchSoon(client, ['counts']);
    await vi.advanceTimersByTimeAsync(REFETCH_WINDOW_MS);
    expect(reads).toEqual({ counts: 3, usage: 2, hidden: 0 });
    stop.forEach((unsubscribe) => unsubscribe());
  });
});
