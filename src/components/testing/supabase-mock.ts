// Test double for the edge of the app, the Supabase client: an auth listener whose session a
// test controls, and spies for the calls the pages make. Tests reach it through mocked-supabase.ts.
import { vi } from 'vitest';
import type { Session } from '@supabase/supabase-js';

type Listener = (event: string, session: Session | null) => void;

export function createSupabaseMock() {
  let session: Session | null = null;
  const listeners = new Set<Listener>();
  const emit = (event: string, next: Session | null) => {
    session = next;
    listeners.forEach((listener) => listener(event, next));
  };
  const auth = {
    onAuthStateChange: vi.fn((listener: Listener) => {
      listeners.add(listener);
      queueMicrotask(() => listener('INITIAL_SESSION', session));
      return { data: { subscription: { unsubscribe: () => listeners.delete(listener) } } };
    }),
    signOut: vi.fn(async () => {
      emit('SIGNED_OUT', null);
      return { error: null };
    }),
    signInWithPassword: vi.fn(),
    signUp: vi.fn(),
    resetPasswordForEmail: vi.fn(),
    resend: vi.fn(),
    updateUser: vi.fn(),
  };
  const insert = vi.fn(async () => ({ error: null }));
  // Realtime: a channel that records its bindings and reports itself joined.
  const channel = {
    on: vi.fn(() => channel),
    subscribe: vi.fn((callback?: (status: string) => void) => {
      queueMicrotask(() => callback?.('SUBSCRIBED'));
      return channel;
    }),
  };
  return {
    supabase: {
      auth,
      from: vi.fn((_table: string) => ({ insert })),
      channel: vi.fn((_name: string) => channel),
      removeChannel: vi.fn(async (_channel: unknown) => 'ok'),
    },
    channel,
    insert,
    /** Sets the session reported to new listeners (before render) and to current ones. */
    setSession(next: Session | null, event = next ? 'SIGNED_IN' : 'SIGNED_OUT') {
      if (listeners.size === 0) session = next;
      else emit(event, next);
    },
  };
}

export type SupabaseMock = ReturnType<typeof createSupabaseMock>;

export function fakeSession(email = 'ada@example.com', name?: string): Session {
  return {
    access_token: 'token',
    refresh_token: 'refresh',
    expires_in: 3600,
    token_type: 'bearer',
    user: {
      id: '00000000-0000-4000-8000-000000000001',
      email,
      aud: 'authenticated',
      app_metadata: {},
      user_metadata: name ? { name } : {},
      created_at: '2026-01-01T00:00:00Z',
    },
  } as Session;
}
