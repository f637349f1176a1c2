import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { newsletterKeys } from './api/query-keys';
import { applySubscriberChange } from './newsletter-cache';
import type { Subscriber } from './newsletter-types';
import { makeList, makeSubscriber } from './testing/fixtures';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('applySubscriberChange', () => {
  it("applies a burst of changes together, each to its own list's rows, newest first", () => {
    const client = new QueryClient();
    const list = makeList();
    const other = makeList();
    const old = makeSubscriber(list, { created_at: '2026-11-01T10:00:00.000Z' });
    const kept = makeSubscriber(list, { created_at: '2026-11-02T10:00:00.000Z' });
    client.setQueryData(newsletterKeys.subscribers(list.id), [kept, old]);
    client.setQueryData(newsletterKeys.subscribers(other.id), []);
    const setQueryData = vi.spyOn(client, 'setQueryData');

    const added = Array.from({ length: 2000 }, (_, i) =>
      makeSubscriber(list, {
        created_at: new Date(Date.UTC(2026, 10, 3, 0, 0, i)).toISOString(),
      }),
    );
    for (const row of added)
      applySubscriberChange(client, {
        table: 'list_subscribers',
        eventType: 'INSERT',
        new: row,
        old: {},
      });
    const elsewhere = makeSubscriber(other);
    applySubscriberChange(client, {
      table: 'list_subscribers',
      eventType: 'INSERT',
      new: elsewhere,
      old: {},
    });
    applySubscriberChange(client, {
      table: 'list_subscribers',
      eventType: 'DELETE',
      new: {},
      old: { id: old.id },
    });
    applySubscriberChange(client, {
      table: 'list_subscribers',
      eventType: 'UPDATE',
      new: { ...kept, status: 'unsubscribed' },
      old: {},
    });
    expect(setQueryData).not.toHaveBeenCalled();
    vi.advanceTimersByTime(150);

    const rows = client.getQueryData<Subscriber[]>(newsletterKeys.subscribers(list.id))!;
    expect(rows).toHaveLength(2001);
    expect(rows[0].id).toBe(added[1999].id);
    expect(rows.at(-1)).toMatchObject({ id: kept.id, status: 'unsubscribed' });
    expect(rows.some((row) => row.id === old.id)).toBe(false);
    expect(client.getQueryData(newsletterKeys.subscribers(other.id))).toEqual([elsewhere]);
    // One pass per cached list, not one per change.
    expect(setQueryData).toHaveBeenCalledTimes(2);
  });
});
