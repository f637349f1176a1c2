import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate, Route, Routes } from 'react-router-dom';
import { currentLocation, SLOW } from '../../components/testing/render';
import { renderWithAuth } from '../../components/testing/render-with-auth';
import {
  authError,
  expireStoredSession,
  makeSession,
  signInAs,
  supabaseAuth,
  testUser,
} from '../../components/testing/supabase-server';
import { ProtectedRoute, useAuth, VisitorRoute } from '../../lib/auth';
import { supabase } from '../../lib/supabase';
import { LoginPage } from './login-page';

function renderLogin() {
  return renderWithAuth(
    <Routes>
      <Route element={<VisitorRoute />}>
        <Route path="/login" element={<LoginPage />} />
      </Route>
      <Route path="/dashboard" element={<h1>Dashboard</h1>} />
    </Routes>,
    { route: '/login' },
  );
}

describe('LoginPage password reset', { timeout: 30_000 }, () => {
  it('sends the reset link back to the login page', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(await screen.findByRole('button', { name: 'Forgot password?' }, SLOW));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Reset your password');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('ada@example.com');
    expect(supabaseAuth.requests('post', 'recover')).toContainEqual({
      body: { email: 'ada@example.com' },
      query: { redirect_to: `${window.location.origin}/login` },
    });
  });

  it('asks for a new password after the reset link and then opens the dashboard', async () => {
    // The reset link's token gives a session, which supabase-js reports as PASSWORD_RECOVERY.
    supabaseAuth.addAccount(testUser());
    supabaseAuth.answer('verify', () => makeSession(testUser()));
    const user = userEvent.setup();
    renderLogin();
    await screen.findByRole('heading', { level: 1, name: 'Welcome back' }, SLOW);
    await act(() => supabase.auth.verifyOtp({ type: 'recovery', token_hash: 'reset-link' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Set a new password' }, SLOW),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText(/New password/), 'n3w-secret');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    await waitFor(() =>
      expect(supabaseAuth.sent('put', 'user')).toContainEqual({ password: 'n3w-secret' }),
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW),
    ).toBeInTheDocument();
  });
});

/** A protected page with a sign-out button, as the header and sidebar offer. */
function SettingsStub() {
  const { signOut } = useAuth();
  return (
    <>
      <h1>Settings</h1>
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </>
  );
}

/** The app's guards around a protected page, the login page and the dashboard. */
function renderGuarded(route: string) {
  return renderWithAuth(
    <Routes>
      <Route element={<VisitorRoute />}>
        <Route path="/login" element={<LoginPage />} />
      </Route>
      <Route element={<ProtectedRoute />}>
        <Route path="/settings" element={<SettingsStub />} />
        <Route path="/dashboard" element={<h1>Dashboard</h1>} />
      </Route>
      {/* Arrives at the login page with router state a script could have set. */}
      <Route
        path="/crafted"
        element={<Navigate to="/login" state={{ from: 'https://evil.example/phish' }} />}
      />
    </Routes>,
    { route },
  );
}

/** Signs in as Ada through the login form (the auth server accepts her password). */
async function signInThroughTheForm() {
  const user = userEvent.setup();
  await screen.findByRole('heading', { level: 1, name: 'Welcome back' }, SLOW);
  await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/), 'secret123');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginPage return to the requested page', { timeout: 30_000 }, () => {
  it('returns to the protected page that sent the visitor to log in', async () => {
    renderGuarded('/settings?section=password');
    await signInThroughTheForm();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/settings\?section=password$/);
  });

  it('goes to the dashboard when the login page was opened directly', async () => {
    renderGuarded('/login');
    await signInThroughTheForm();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/dashboard$/);
  });

  it('never follows a return address outside the app', async () => {
    renderGuarded('/crafted');
    await signInThroughTheForm();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/dashboard$/);
  });

  it('starts at the dashboard again after signing out on purpose', async () => {
    signInAs(testUser());
    const user = userEvent.setup();
    renderGuarded('/settings');
    await user.click(await screen.findByRole('button', { name: 'Sign out' }, SLOW));
    await screen.findByRole('heading', { level: 1, name: 'Welcome back' }, SLOW);
    await signInThroughTheForm();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/dashboard$/);
  });

  it('returns to the page after a session ended there by itself', async () => {
    signInAs(testUser());
    renderGuarded('/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    // As when the refresh token is refused: supabase-js signs out on its own.
    expireStoredSession();
    supabaseAuth.answer('token?grant_type=refresh_token', () =>
      authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
    );
    await act(() => supabase.auth.refreshSession());
    await signInThroughTheForm();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW),
    ).toBeInTheDocument();
  });
});
