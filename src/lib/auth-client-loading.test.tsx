// When the auth state loads supabase-js: at once when a session may be stored (or arrives in the
// URL), otherwise not at all until a page loads the client, whose events it then follows.
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { signInAs, testUser } from '../components/testing/supabase-server';
import { AuthProvider, hasAuthResultInUrl, useAuth } from './auth';
import { sessionStore } from './session-storage';
import { onClientLoaded } from './supabase-ready';

// src/lib/supabase.ts announces the client when it is loaded (once per file).
let loads = 0;
onClientLoaded(() => (loads += 1));

function Probe() {
  const { loading, user } = useAuth();
  return <p>{loading ? 'checking' : (user?.email ?? 'visitor')}</p>;
}

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
    expect(loads).toBe(0);

    // A page (login) loads the client for its own needs: the auth state follows it from then on.
    const { supabase } = await act(() => import('./supabase'));
    expect(loads).toBe(1);
    await act(() => supabase.auth.signInWithPassword({ email: 'ada@example.com', password: 'x' }));
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
  });

  it('loads the client at once when a session may be stored, and waits for its answer', async () => {
    vi.mocked(sessionStore.mayHaveSession).mockReturnValue(true);
    signInAs(testUser('grace@example.com'));
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
