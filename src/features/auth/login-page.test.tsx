import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate, Route, Routes } from 'react-router-dom';
import { resetSupabaseMock } from '../../components/testing/mocked-supabase';
import { currentLocation, SLOW } from '../../components/testing/render';
import { renderWithAuth } from '../../components/testing/render-with-auth';
import { fakeSession, type SupabaseMock } from '../../components/testing/supabase-mock';
import { ProtectedRoute, useAuth, VisitorRoute } from '../../lib/auth';
import { LoginPage } from './login-page';

vi.mock('../../lib/supabase', () => import('../../components/testing/mocked-supabase'));

let mock: SupabaseMock;

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
  beforeEach(() => {
    mock = resetSupabaseMock();
  });

  it('sends the reset link back to the login page', async () => {
    mock.supabase.auth.resetPasswordForEmail.mockResolvedValue({ data: {}, error: null });
    const user = userEvent.setup();
    renderLogin();
    await user.click(await screen.findByRole('button', { name: 'Forgot password?' }, SLOW));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Reset your password');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('ada@example.com');
    expect(mock.supabase.auth.resetPasswordForEmail).toHaveBeenCalledWith('ada@example.com', {
      redirectTo: `${window.location.origin}/login`,
    });
  });

  it('asks for a new password after the reset link and then opens the dashboard', async () => {
    mock.supabase.auth.updateUser.mockResolvedValue({ data: {}, error: null });
    const user = userEvent.setup();
    renderLogin();
    await screen.findByRole('heading', { level: 1, name: 'Welcome back' }, SLOW);
    act(() => mock.setSession(fakeSession('ada@example.com'), 'PASSWORD_RECOVERY'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Set a new password' }, SLOW),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText(/New password/), 'n3w-secret');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    await waitFor(() =>
      expect(mock.supabase.auth.updateUser).toHaveBeenCalledWith({
        password: 'n3w-secret',
      }),
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

async function signInThroughTheForm() {
  mock.supabase.auth.signInWithPassword.mockImplementation(async () => {
    mock.setSession(fakeSession('ada@example.com'));
    return { data: {}, error: null };
  });
  const user = userEvent.setup();
  await screen.findByRole('heading', { level: 1, name: 'Welcome back' }, SLOW);
  await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/), 'secret123');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginPage return to the requested page', { timeout: 30_000 }, () => {
  beforeEach(() => {
    mock = resetSupabaseMock();
  });

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
    mock.setSession(fakeSession('ada@example.com'));
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
    mock.setSession(fakeSession('ada@example.com'));
    renderGuarded('/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    // As when the refresh token is refused: supabase-js signs out on its own.
    act(() => mock.setSession(null));
    await signInThroughTheForm();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW),
    ).toBeInTheDocument();
  });
});
