// When the auth state loads supabase-js: at once when a session may be stored (or arrives in the
// URL), otherwise not at all until a page loads the client, whose events it then follows.
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createSupabaseMock, fakeSession } from '../components/testing/supabase-mock';
import { AuthProvider, hasAuthResultInUrl, useAuth } from './auth';
import { sessionStore } from './session-storage';

const loads = vi.hoisted(() => ({ count: 0 }));
const double = vi.hoisted(() => ({
  current: undefined as ReturnType<typeof createSupabaseMock> | undefined,
}));

// Stands in for src/lib/supabase.ts and, like it, announces the client when loaded.
vi.mock('./supabase', async () => {
  const { announceClient } = await import('./supabase-ready');
  loads.count += 1;
  // Loaded once per file: every call reaches the current test's double.
  const client = {
    get auth() {
      return double.current!.supabase.auth;
    },
  };
  announceClient(client as never);
  return { supabase: client };
});

function Probe() {
  const { loading, user } = useAuth();
  return <p>{loading ? 'checking' : (user?.email ?? 'visitor')}</p>;
}

beforeEach(() => {
  double.current = createSupabaseMock();
});

describe('AuthProvider', () => {
  it('knows a visitor without a stored session is signed out, without loading the client', async () => {
    vi.mocked(sessionStore.mayHaveSession).mockReturnValue(false);
    render(
      <AuthProvider>
        <Probe />
      </AuthProvider>,
    );
    expect(screen.getByText('visitor')).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(loads.count).toBe(0);

    // A page (login) loads the client for its own needs: the auth state follows it from then on.
    await act(async () => {
      await import('./supabase');
    });
    expect(loads.count).toBe(1);
    act(() => double.current!.setSession(fakeSession('ada@example.com')));
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
  });

  it('loads the client at once when a session may be stored, and waits for its answer', async () => {
    vi.mocked(sessionStore.mayHaveSession).mockReturnValue(true);
    double.current!.setSession(fakeSession('grace@example.com'));
    render(
      <AuthProvider>
        <Probe />
      </AuthProvider>,
    );
    expect(screen.getByText('checking')).toBeInTheDocument();
    expect(await screen.findByText('grace@example.com')).toBeInTheDocument();
  });
});

describe('hasAuthResultInUrl', () => {
  it('sees a session or an error from an e-mail link, or a PKCE code', () => {
    expect(hasAuthResultInUrl({ hash: '#access_token=a&type=signup', search: '' })).toBe(true);
    expect(hasAuthResultInUrl({ hash: '#error=x&error_description=expired', search: '' })).toBe(
      true,
    );
    expect(hasAuthResultInUrl({ hash: '', search: '?code=abc' })).toBe(true);
    expect(hasAuthResultInUrl({ hash: '#self-hosting', search: '?plan=pro' })).toBe(false);
  });
});
