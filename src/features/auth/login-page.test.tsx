import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders } from '../../components/testing/render';
import { createSupabaseMock, fakeSession } from '../../components/testing/supabase-mock';
import { AuthProvider, VisitorRoute } from '../../lib/auth';
import { LoginPage } from './login-page';

const mock = vi.hoisted(() => ({
  current: undefined as unknown as ReturnType<typeof createSupabaseMock>,
}));
vi.mock('../../lib/supabase', () => ({
  get supabase() {
    return mock.current.supabase;
  },
}));

const SLOW = { timeout: 10_000 };

function renderLogin() {
  return renderWithProviders(
    <AuthProvider>
      <Routes>
        <Route element={<VisitorRoute />}>
          <Route path="/login" element={<LoginPage />} />
        </Route>
        <Route path="/dashboard" element={<h1>Dashboard</h1>} />
      </Routes>
    </AuthProvider>,
    { route: '/login' },
  );
}

describe('LoginPage password reset', { timeout: 30_000 }, () => {
  beforeEach(() => {
    mock.current = createSupabaseMock();
  });

  it('sends the reset link back to the login page', async () => {
    mock.current.supabase.auth.resetPasswordForEmail.mockResolvedValue({ data: {}, error: null });
    const user = userEvent.setup();
    renderLogin();
    await user.click(await screen.findByRole('button', { name: 'Forgot password?' }, SLOW));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Reset your password');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('ada@example.com');
    expect(mock.current.supabase.auth.resetPasswordForEmail).toHaveBeenCalledWith(
      'ada@example.com',
      {
        redirectTo: `${window.location.origin}/login`,
      },
    );
  });

  it('asks for a new password after the reset link and then opens the dashboard', async () => {
    mock.current.supabase.auth.updateUser.mockResolvedValue({ data: {}, error: null });
    const user = userEvent.setup();
    renderLogin();
    await screen.findByRole('heading', { level: 1, name: 'Welcome back' }, SLOW);
    act(() => mock.current.setSession(fakeSession('ada@example.com'), 'PASSWORD_RECOVERY'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Set a new password' }, SLOW),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText(/New password/), 'n3w-secret');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    await waitFor(() =>
      expect(mock.current.supabase.auth.updateUser).toHaveBeenCalledWith({
        password: 'n3w-secret',
      }),
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW),
    ).toBeInTheDocument();
  });
});
