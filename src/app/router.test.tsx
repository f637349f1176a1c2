import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { renderWithProviders } from '../components/testing/render';
import { createSupabaseMock, fakeSession } from '../components/testing/supabase-mock';
import { AuthProvider } from '../lib/auth';
import { AppRoutes } from './router';

const mock = vi.hoisted(() => ({
  current: undefined as unknown as ReturnType<typeof createSupabaseMock>,
}));
vi.mock('../lib/supabase', () => ({
  get supabase() {
    return mock.current.supabase;
  },
}));

// The whole app renders in jsdom here; on a busy machine that takes a while.
const SLOW = { timeout: 10_000 };

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderAt(route: string) {
  return renderWithProviders(
    <AuthProvider>
      <AppRoutes />
      <Location />
    </AuthProvider>,
    { route },
  );
}

describe('routes', { timeout: 30_000 }, () => {
  beforeEach(() => {
    mock.current = createSupabaseMock();
  });

  it('sends a visitor from the dashboard to the login page', async () => {
    renderAt('/dashboard/forms');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
  });

  it('sends a signed-in user from login and register to the dashboard', async () => {
    mock.current.setSession(fakeSession());
    const { unmount } = renderAt('/login');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/);
    unmount();
    renderAt('/register');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW),
    ).toBeInTheDocument();
  });

  it('lets a signed-in user open the dashboard pages', async () => {
    mock.current.setSession(fakeSession());
    renderAt('/dashboard/booking');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your Booking Forms' }, SLOW),
    ).toBeInTheDocument();
  });

  it('redirects an unknown path home', async () => {
    renderAt('/no/such/page');
    expect(
      await screen.findByRole('heading', { level: 1, name: /form backend for/i }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('forwards /auth to the register form with the chosen plan', async () => {
    renderAt('/auth?plan=pro');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Create your account' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/register?plan=pro');
    expect(screen.getByText(/Pro · €19\/month/)).toBeInTheDocument();
  });

  it('drops an unknown plan on the way to register', async () => {
    renderAt('/auth?plan=gold');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Create your account' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/register$/);
  });
});
