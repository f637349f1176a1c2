import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { REFETCH_WINDOW_MS } from '../../lib/refetch-soon';
import { newsletterKeys } from './api/query-keys';
import { applySubscriberChange, removeSubscriberFromPages } from './newsletter-cache';
import type { SubscriberPage, SubscriberPageQuery } from './subscriber-query';
import { makeList, makeSubscriber } from './testing/fixtures';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const FIRST: SubscriberPageQuery = { search: '', status: '', page: 0 };
const CONFIRMED: SubscriberPageQuery = { search: '', status: 'confirmed', page: 0 };

/** A query client holding these pages of subscribers. */
function clientWithPages(pages: [readonly unknown[], SubscriberPage][]) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  for (const [key, page] of pages) client.setQueryData(key, page);
  return { client };
}

describe('applySubscriberChange', () => {
  it('patches a changed status in place on every cached page that holds the row, at once', () => {
    const list = makeList();
    const ada = makeSubscriber(list, { email: 'ada@example.com' });
    const bob = makeSubscriber(list, { email: 'bob@example.com' });
    const { client } = clientWithPages([
      [newsletterKeys.subscriberPage(list.id, FIRST), { rows: [bob, ada], total: 2 }],
      [newsletterKeys.subscriberPage(list.id, CONFIRMED), { rows: [bob, ada], total: 2 }],
    ]);
    applySubscriberChange(client, {
      table: 'list_subscribers',
      eventType: 'UPDATE',
      new: { ...ada, status: 'unsubscribed' },
      old: {},
    });
    // Gathered for a short window, then applied together.
    expect(
      client.getQueryData<SubscriberPage>(newsletterKeys.subscriberPage(list.id, FIRST))!.rows[1]
        .status,
    ).toBe('confirmed');
    vi.advanceTimersByTime(150);
    for (const query of [FIRST, CONFIRMED]) {
      const page = client.getQueryData<SubscriberPage>(
        newsletterKeys.subscriberPage(list.id, query),
      )!;
      expect(page.rows.map((row) => [row.email, row.status])).toEqual([
        ['bob@example.com', 'confirmed'],
        ['ada@example.com', 'unsubscribed'],
      ]);
    }
    // Then the server says which rows the confirmed filter still holds.
    expect(
      client.getQueryState(newsletterKeys.subscriberPage(list.id, CONFIRMED))?.isInvalidated,
    ).toBe(true);
  });

  it('takes a deleted row off its page and lowers the total; reads the pages again', () => {
    const list = makeList();
    const ada = makeSubscriber(list);
    const bob = makeSubscriber(list);
    const key = newsletterKeys.subscriberPage(list.id, FIRST);
    const { client } = clientWithPages([[key, { rows: [bob, ada], total: 60 }]]);
    applySubscriberChange(client, {
      table: 'list_subscribers',
      eventType: 'DELETE',
      new: {},
      old: { id: ada.id },
    });
    vi.advanceTimersByTime(150);
    expect(client.getQueryData<SubscriberPage>(key)).toEqual({ rows: [bob], total: 59 });
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });

  it("has a burst of signups read each list's pages once, not once per change", async () => {
    const list = makeList();
    const other = makeList();
    const known = makeSubscriber(list);
    const elsewhere = makeSubscriber(other);
    const page = newsletterKeys.subscriberPage(list.id, FIRST);
    const second = newsletterKeys.subscriberPage(list.id, { ...FIRST, page: 1 });
    const otherPage = newsletterKeys.subscriberPage(other.id, FIRST);
    const { client } = clientWithPages([
      [page, { rows: [known], total: 51 }],
      [second, { rows: [known], total: 51 }],
      [otherPage, { rows: [elsewhere], total: 1 }],
    ]);
    const refetch = vi.spyOn(client, 'refetchQueries');
    const setQueryData = vi.spyOn(client, 'setQueryData');
    for (let i = 0; i < 2000; i++)
      applySubscriberChange(client, {
        table: 'list_subscribers',
        eventType: 'INSERT',
        new: makeSubscriber(list) as unknown as Record<string, unknown>,
        old: {},
      });
    vi.advanceTimersByTime(150);
    // One pass over the cached pages for the whole burst.
    expect(setQueryData).toHaveBeenCalledTimes(3);
    expect(client.getQueryState(page)?.isInvalidated).toBe(true);
    expect(client.getQueryState(second)?.isInvalidated).toBe(true);
    // Another list's pages are left alone.
    expect(client.getQueryState(otherPage)?.isInvalidated).toBe(false);
    expect(client.getQueryData(otherPage)).toEqual({ rows: [elsewhere], total: 1 });
    vi.advanceTimersByTime(REFETCH_WINDOW_MS);
    // The subscribers of the list, its counts and the confirmed counts: one read each.
    const keys = refetch.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    expect(keys.sort()).toEqual(
      [
        newsletterKeys.confirmedCounts(),
        newsletterKeys.subscriberCounts(list.id),
        newsletterKeys.subscribers(list.id),
      ]
        .map((key) => JSON.stringify(key))
        .sort(),
    );
  });
});

describe('applySubscriberChange and the counts by status', () => {
  it('moves the counts at once as far as the cached pages tell, then reads them again', () => {
    const list = makeList();
    const ada = makeSubscriber(list, { status: 'confirmed' });
    const bob = makeSubscriber(list, { status: 'pending' });
    const { client } = clientWithPages([
      [newsletterKeys.subscriberPage(list.id, FIRST), { rows: [bob, ada], total: 2 }],
    ]);
    const countsKey = newsletterKeys.subscriberCounts(list.id);
    client.setQueryData(countsKey, { pending: 1, confirmed: 1, unsubscribed: 0, bounced: 0 });
    const change = (eventType: 'INSERT' | 'UPDATE' | 'DELETE', row: object) =>
      applySubscriberChange(client, {
        table: 'list_subscribers',
        eventType,
        new: eventType === 'DELETE' ? {} : (row as Record<string, unknown>),
        old: eventType === 'DELETE' ? { id: (row as { id: string }).id } : {},
      });
    change('UPDATE', { ...ada, status: 'unsubscribed' });
    change('UPDATE', { ...bob, status: 'confirmed' });
    change('INSERT', makeSubscriber(list, { status: 'pending' }));
    // Unknown to every cached page: its old status is not known here, so it waits for the read.
    change('UPDATE', makeSubscriber(list, { status: 'bounced' }));
    change('DELETE', { ...bob });
    vi.advanceTimersByTime(150);
    expect(client.getQueryData(countsKey)).toEqual({
      pending: 1,
      confirmed: 0,
      unsubscribed: 1,
      bounced: 0,
    });
    expect(client.getQueryState(countsKey)?.isInvalidated).toBe(true);
  });
});

describe('removeSubscriberFromPages', () => {
  it("takes the removed subscriber off its list's cached pages", async () => {
    const list = makeList();
    const ada = makeSubscriber(list);
    const bob = makeSubscriber(list);
    const key = newsletterKeys.subscriberPage(list.id, { search: 'a', status: '', page: 0 });
    const { client } = clientWithPages([[key, { rows: [bob, ada], total: 2 }]]);
    void removeSubscriberFromPages(client, ada);
    expect(client.getQueryData(key)).toEqual({ rows: [bob], total: 1 });
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });
});
