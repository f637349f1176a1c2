import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createTestQueryClient } from '../components/testing/render';
import { supabaseRealtime } from '../components/testing/supabase-server';
import { useLiveSync, type LiveBinding } from './live-sync';
import { supabase } from './supabase';

// The connection monitor, driven by the tests: online unless a test says otherwise.
const connectionState = vi.hoisted(() => ({
  online: true,
  listeners: new Set<() => void>(),
  report: vi.fn(),
  check: vi.fn(async () => true),
}));
vi.mock('./connection', () => ({
  connection: {
    isOnline: () => connectionState.online,
    subscribe: (listener: () => void) => {
      connectionState.listeners.add(listener);
      return () => connectionState.listeners.delete(listener);
    },
    report: connectionState.report,
    check: connectionState.check,
  },
}));

function setOnline(online: boolean) {
  connectionState.online = online;
  connectionState.listeners.forEach((listener) => listener());
}

beforeEach(() => {
  connectionState.online = true;
  connectionState.report.mockClear();
  connectionState.check.mockClear();
});

function setup(userId: string | undefined, bindings: LiveBinding[]) {
  const client = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(({ id }) => useLiveSync(id, bindings), {
    wrapper,
    initialProps: { id: userId },
  });
  return { client, hook };
}

/** The postgres_changes bindings the server holds for the joined channels, without their ids. */
const joinedBindings = () =>
  supabaseRealtime
    .channels()
    .flatMap(({ changes }) => changes.map(({ id: _id, ...filter }) => filter));

/** Reconnecting waits for the client's own timers (socket reconnect, channel rejoin). */
const REJOIN = { timeout: 10_000 };

describe('useLiveSync', () => {
  it('subscribes once per owner with a filter on the owner for each bound table', async () => {
    const noop = () => {};
    const { hook } = setup('u1', [
      { table: 'forms', apply: noop, queryKey: ['forms'] },
      { table: 'entries', apply: noop, queryKey: ['entries'] },
      { table: 'entries', apply: noop, queryKey: ['entries', 'counts'] },
    ]);
    await waitFor(() => expect(hook.result.current).toBe('live'));
    expect(supabaseRealtime.channels()).toHaveLength(1);
    const filters = joinedBindings();
    expect(filters).toEqual([
      { event: '*', schema: 'public', table: 'entries', filter: 'user_id=eq.u1' },
      { event: '*', schema: 'public', table: 'forms', filter: 'user_id=eq.u1' },
    ]);
  });

  it('hands each change to the bindings of its table, with the query client', async () => {
    const onEntries = vi.fn();
    const onForms = vi.fn();
    const { client, hook } = setup('u1', [
      { table: 'entries', apply: onEntries, queryKey: ['entries'] },
      { table: 'forms', apply: onForms, queryKey: ['forms'] },
    ]);
    await waitFor(() => expect(hook.result.current).toBe('live'));
    act(() =>
      supabaseRealtime.change({
        table: 'entries',
        eventType: 'DELETE',
        new: {},
        old: { id: 'e1' },
      }),
    );
    await waitFor(() => expect(onEntries).toHaveBeenCalled());
    expect(onForms).not.toHaveBeenCalled();
    expect(onEntries).toHaveBeenCalledWith(client, {
      table: 'entries',
      eventType: 'DELETE',
      new: {},
      old: { id: 'e1' },
    });
  });

  it('refetches the bound queries after a reconnect, and reports the drop meanwhile', async () => {
    const { client, hook } = setup('u1', [
      { table: 'forms', apply: () => {}, queryKey: ['forms'] },
    ]);
    await waitFor(() => expect(hook.result.current).toBe('live'));
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    act(() => supabaseRealtime.disconnect());
    await waitFor(() => expect(hook.result.current).toBe('reconnecting'));
    expect(invalidate).not.toHaveBeenCalled();
    await waitFor(() => expect(hook.result.current).toBe('live'), REJOIN);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['forms'] });
  });

  it('removes its channel on unmount and subscribes to nothing without a user', async () => {
    const { hook } = setup('u1', [{ table: 'forms', apply: () => {}, queryKey: ['forms'] }]);
    await waitFor(() => expect(hook.result.current).toBe('live'));
    hook.unmount();
    await waitFor(() => expect(supabaseRealtime.channels()).toEqual([]));
    expect(supabase.getChannels()).toEqual([]);

    setup(undefined, [{ table: 'forms', apply: () => {}, queryKey: ['forms'] }]);
    expect(supabase.getChannels()).toEqual([]);
  });

  it('says offline while the connection is down, whatever the channel says, and live once back', async () => {
    const { hook } = setup('u1', [{ table: 'forms', apply: () => {}, queryKey: ['forms'] }]);
    await waitFor(() => expect(hook.result.current).toBe('live'));
    // A join means the API answers.
    expect(connectionState.report).toHaveBeenCalledWith(true);
    act(() => setOnline(false));
    expect(hook.result.current).toBe('offline');
    act(() => setOnline(true));
    expect(hook.result.current).toBe('live');
  });

  it('asks whether the API is reachable when the channel drops', async () => {
    // The join times out (TIMED_OUT).
    supabaseRealtime.answerJoins('timeout');
    const { hook } = setup('u1', [{ table: 'forms', apply: () => {}, queryKey: ['forms'] }]);
    await waitFor(() => expect(hook.result.current).toBe('reconnecting'));
    expect(connectionState.check).toHaveBeenCalledTimes(1);
  });

  it('refetches the bound queries and every failed one when the first join follows a failure', async () => {
    // The API was down when the page loaded: the channel could not join at first.
    supabaseRealtime.answerJoins('error');
    const { client, hook } = setup('u1', [
      { table: 'forms', apply: () => {}, queryKey: ['forms'] },
    ]);
    const failed = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(['inbox']);
    const query = client.getQueryCache().build(client, { queryKey: ['messages'], queryFn: failed });
    await query.fetch().catch(() => undefined);
    expect(query.state.status).toBe('error');
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const refetch = vi.spyOn(client, 'refetchQueries');
    await waitFor(() => expect(hook.result.current).toBe('reconnecting'));
    // Back: the channel's own rejoin succeeds.
    supabaseRealtime.answerJoins('ok');
    await waitFor(() => expect(hook.result.current).toBe('live'), REJOIN);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['forms'] });
    const filters = refetch.mock.calls
      .map(([call]) => call as { predicate?: (query: unknown) => boolean } | undefined)
      .find((call) => typeof call?.predicate === 'function');
    expect(filters?.predicate?.(query)).toBe(true);
  });
});
