import { describe, expect, it, vi } from 'vitest';
import { onlineManager, QueryObserver } from '@tanstack/react-query';
import { RequestTimeoutError } from './fetch-with-timeout';

// The connection monitor, driven by the test.
const connectionState = vi.hoisted(() => ({ online: true, listeners: new Set<() => void>() }));
vi.mock('./connection', () => ({
  connection: {
    isOnline: () => connectionState.online,
    subscribe: (listener: () => void) => {
      connectionState.listeners.add(listener);
      return () => connectionState.listeners.delete(listener);
    },
  },
}));
function setOnline(online: boolean) {
  connectionState.online = online;
  connectionState.listeners.forEach((listener) => listener());
}

const { createQueryClient, shouldRetry } = await import('./query-client');

describe('the query client', () => {
  it('retries network hiccups twice, never a refusal or a request that timed out', () => {
    const offline = new TypeError('Failed to fetch');
    expect(shouldRetry(0, offline)).toBe(true);
    expect(shouldRetry(1, offline)).toBe(true);
    expect(shouldRetry(2, offline)).toBe(false);
    expect(shouldRetry(0, { status: 403, message: 'denied' })).toBe(false);
    expect(shouldRetry(0, new RequestTimeoutError(12_000))).toBe(false);
    // As supabase-js reports it.
    expect(
      shouldRetry(0, { message: `TypeError: ${new RequestTimeoutError(12_000).message}` }),
    ).toBe(false);
  });

  it('makes requests while the connection is down, so they fail visibly instead of waiting', () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().queries?.networkMode).toBe('always');
    expect(client.getDefaultOptions().mutations?.networkMode).toBe('always');
    // Not implied by networkMode 'always' (TanStack Query turns it off there).
    expect(client.getDefaultOptions().queries?.refetchOnReconnect).toBe(true);
  });

  it('is online when the API answers, and refetches what failed once it does again', async () => {
    const client = createQueryClient();
    client.mount();
    try {
      setOnline(false);
      expect(onlineManager.isOnline()).toBe(false);
      const queryFn = vi
        .fn()
        .mockRejectedValueOnce(new TypeError('Failed to fetch'))
        .mockResolvedValue(['message']);
      const observer = new QueryObserver(client, { queryKey: ['messages'], queryFn, retry: false });
      const unsubscribe = observer.subscribe(() => undefined);
      await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('error'));
      setOnline(true);
      expect(onlineManager.isOnline()).toBe(true);
      await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(['message']));
      expect(queryFn).toHaveBeenCalledTimes(2);
      unsubscribe();
    } finally {
      client.unmount();
      setOnline(true);
    }
  });
});
