import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { resetSupabaseMock } from '../components/testing/mocked-supabase';
import { createTestQueryClient } from '../components/testing/render';
import type { SupabaseMock } from '../components/testing/supabase-mock';
import { useLiveSync, type LiveBinding } from './live-sync';

vi.mock('./supabase', () => import('../components/testing/mocked-supabase'));

let mock: SupabaseMock;
beforeEach(() => {
  mock = resetSupabaseMock();
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

/** The handler the hook registered for a table's postgres_changes. */
function handlerFor(table: string) {
  const call = mock.channel.on.mock.calls.find(
    (args) =>
      (args as unknown[])[1] && ((args as unknown[])[1] as { table: string }).table === table,
  ) as unknown[] | undefined;
  return call?.[2] as (payload: Record<string, unknown>) => void;
}

describe('useLiveSync', () => {
  it('subscribes once per owner with a filter on the owner for each bound table', async () => {
    const noop = () => {};
    const { hook } = setup('u1', [
      { table: 'forms', apply: noop, queryKey: ['forms'] },
      { table: 'entries', apply: noop, queryKey: ['entries'] },
      { table: 'entries', apply: noop, queryKey: ['entries', 'counts'] },
    ]);
    await waitFor(() => expect(hook.result.current).toBe('live'));
    expect(mock.supabase.channel).toHaveBeenCalledTimes(1);
    const filters = mock.channel.on.mock.calls.map((args) => (args as unknown[])[1]);
    expect(filters).toEqual([
      { event: '*', schema: 'public', table: 'entries', filter: 'user_id=eq.u1' },
      { event: '*', schema: 'public', table: 'forms', filter: 'user_id=eq.u1' },
    ]);
  });

  it('hands each change to the bindings of its table, with the query client', async () => {
    const onEntries = vi.fn();
    const onForms = vi.fn();
    const { client } = setup('u1', [
      { table: 'entries', apply: onEntries, queryKey: ['entries'] },
      { table: 'forms', apply: onForms, queryKey: ['forms'] },
    ]);
    await waitFor(() => expect(handlerFor('entries')).toBeTypeOf('function'));
    act(() =>
      handlerFor('entries')({
        table: 'entries',
        eventType: 'DELETE',
        new: {},
        old: { id: 'e1' },
      }),
    );
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
    const report = mock.channel.subscribe.mock.calls[0][0] as (status: string) => void;
    act(() => report('CHANNEL_ERROR'));
    expect(hook.result.current).toBe('reconnecting');
    expect(invalidate).not.toHaveBeenCalled();
    act(() => report('SUBSCRIBED'));
    expect(hook.result.current).toBe('live');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['forms'] });
  });

  it('removes its channel on unmount and subscribes to nothing without a user', async () => {
    const { hook } = setup('u1', [{ table: 'forms', apply: () => {}, queryKey: ['forms'] }]);
    await waitFor(() => expect(hook.result.current).toBe('live'));
    hook.unmount();
    expect(mock.supabase.removeChannel).toHaveBeenCalledWith(mock.channel);

    mock = resetSupabaseMock();
    setup(undefined, [{ table: 'forms', apply: () => {}, queryKey: ['forms'] }]);
    expect(mock.supabase.channel).not.toHaveBeenCalled();
  });
});
