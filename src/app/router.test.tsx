import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentLocation, SLOW } from '../components/testing/render';
import { renderWithAuth } from '../components/testing/render-with-auth';
import { signInAs, supabaseAuth, testUser } from '../components/testing/supabase-server';
import { AppRoutes } from './router';

function renderAt(route: string) {
  return renderWithAuth(<AppRoutes />, { route });
}

describe('routes', { timeout: 30_000 }, () => {
  it('sends a visitor from the dashboard to the login page', async () => {
    renderAt('/dashboard/forms');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back' }, SLOW),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/login$/);
    expect(document.title).toBe('Login · tinyback.tools');
  });

  it('sends a signed-in user from login and register to the dashboard', async () => {
    signInAs(testUser());
    const { unmount } = renderAt('/login');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/dashboard$/);
    unmount();
    renderAt('/register');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW),
    ).toBeInTheDocument();
  });

  it('lets a signed-in user open the dashboard pages', async () => {
    signInAs(testUser());
    renderAt('/dashboard/booking');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your Booking Forms' }, SLOW),
    ).toBeInTheDocument();
  });

  it('returns a visitor to the requested page after signing in', async () => {
    supabaseAuth.addAccount(testUser('ada@example.com', 'Ada'));
    const user = userEvent.setup();
    renderAt('/settings');
    await screen.findByRole('heading', { level: 1, name: 'Welcome back' }, SLOW);
    expect(currentLocation()).toHaveTextContent(/^\/login$/);
    // The page's own form, not the footer's newsletter sign-up.
    const main = within(screen.getByRole('main'));
    await user.type(main.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(main.getByLabelText(/^Password/), 'secret123');
    await user.click(main.getByRole('button', { name: 'Sign in' }));
    // The whole signed-in chunk loads here for the first time: a wider waiting budget.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Settings' }, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/settings$/);
  });

  it('redirects an unknown path home', async () => {
    renderAt('/no/such/page');
    expect(
      await screen.findByRole('heading', { level: 1, name: /form backend for/i }, SLOW),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/$/);
    expect(document.title).toBe('tinyback.tools — form backend for any website');
  });

  it('forwards /auth to the register form with the chosen plan', async () => {
    renderAt('/auth?plan=pro');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Create your account' }, SLOW),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent('/register?plan=pro');
    expect(document.title).toBe('Create your account · tinyback.tools');
    expect(screen.getByText(/Pro · €19\/month/)).toBeInTheDocument();
  });

  it('drops an unknown plan on the way to register', async () => {
    renderAt('/auth?plan=gold');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Create your account' }, SLOW),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/register$/);
  });

  it('carries Annual from pricing through Get Started to the price shown on register', async () => {
    const user = userEvent.setup();
    renderAt('/pricing');
    await user.click(await screen.findByText('Annual · 2 months free', {}, SLOW));
    const getStarted = screen.getByRole('link', { name: 'Get Started with Pro' });
    await waitFor(() =>
      expect(getStarted).toHaveAttribute('href', '/auth?plan=pro&billing=annual'),
    );
    await user.click(getStarted);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Create your account' }, SLOW),
    ).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent('/register?plan=pro&billing=annual');
    expect(screen.getByText('Pro · €190/year')).toBeInTheDocument();
    expect(screen.queryByText(/€19\/month/)).toBeNull();
  });

  it('keeps signed-in pages out of search results', async () => {
    signInAs(testUser());
    renderAt('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW);
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute(
      'content',
      'noindex, nofollow',
    );
  });

  it('shows /thanks without the tinyback header, navigation, newsletter or footer', async () => {
    renderAt('/thanks');
    expect(
      await screen.findByRole('heading', { level: 1, name: /Thanks! Your message/ }, SLOW),
    ).toBeInTheDocument();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
    expect(screen.queryByText('Get product updates')).toBeNull();
    expect(screen.queryByRole('link', { name: /tinyback/ })).toBeNull();
  });

  it('shows the refusal page /form-error in the same frame as /thanks', async () => {
    renderAt('/form-error?code=rate_limited&retry=30');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Too many messages in a short time' },
        SLOW,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute(
      'content',
      'noindex, nofollow',
    );
  });
});
