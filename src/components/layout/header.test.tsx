import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentLocation, SLOW } from '../testing/render';
import { renderWithAuth } from '../testing/render-with-auth';
import { signInAs, supabaseAuth, testUser } from '../testing/supabase-server';
import { Header } from './header';

const renderHeader = () => renderWithAuth(<Header />);

const mobileToggle = () => screen.getByRole('button', { name: /(Open|Close) menu/ });
const profileTrigger = () => screen.getByRole('button', { name: 'Open profile menu' });

describe('Header', { timeout: 30_000 }, () => {
  it('shows the wordmark, the main links and a Login link to a visitor', async () => {
    renderHeader();
    expect(await screen.findByRole('link', { name: 'Login' }, SLOW)).toHaveAttribute(
      'href',
      '/login',
    );
    expect(screen.getByRole('link', { name: 'tinyback.tools home' })).toHaveTextContent(
      'tinyback.tools',
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Tools', 'Pricing', 'Docs', 'Blog', 'Custom Web']);
  });

  it('offers a Sign up button beside Login, in the bar and in the mobile menu', async () => {
    const user = userEvent.setup();
    renderHeader();
    const banner = await screen.findByRole('banner', {}, SLOW);
    expect(await within(banner).findByRole('link', { name: 'Sign up' }, SLOW)).toHaveAttribute(
      'href',
      '/register',
    );
    expect(within(banner).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    await user.click(mobileToggle());
    const menu = document.getElementById('mobile-menu')!;
    expect(within(menu).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(within(menu).getByRole('link', { name: 'Sign up' })).toHaveAttribute(
      'href',
      '/register',
    );
  });

  it.each([
    ['/login', 'Login', 'Sign up'],
    ['/register', 'Sign up', 'Login'],
  ])(
    'on %s links only to the other way in, never to the page itself',
    async (route, self, other) => {
      const user = userEvent.setup();
      renderWithAuth(<Header />, { route });
      const banner = await screen.findByRole('banner', {}, SLOW);
      await within(banner).findByRole('link', { name: other }, SLOW);
      await user.click(mobileToggle());
      const hrefs = within(banner)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href'));
      expect(hrefs).not.toContain(route);
      expect(within(banner).queryByRole('link', { name: self })).toBeNull();
      expect(within(banner).getAllByRole('link', { name: other })).toHaveLength(2);
    },
  );

  it('highlights the active link', async () => {
    renderWithAuth(<Header />, { route: '/pricing' });
    const nav = await screen.findByRole('navigation', { name: 'Main' }, SLOW);
    expect(within(nav).getByRole('link', { name: 'Pricing' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Tools' })).not.toHaveAttribute('aria-current');
  });

  it('keeps at most one menu open and closes both on navigation', async () => {
    signInAs(testUser('ada@example.com'));
    const user = userEvent.setup();
    renderHeader();
    await screen.findByRole('button', { name: 'Open profile menu' }, SLOW);

    await user.click(mobileToggle());
    expect(mobileToggle()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('navigation', { name: 'Mobile' })).toBeInTheDocument();

    // Opening the profile menu closes the mobile menu…
    await user.click(profileTrigger());
    await waitFor(() => expect(profileTrigger()).toHaveAttribute('aria-expanded', 'true'));
    expect(mobileToggle()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
    const menu = screen.getByRole('menu');
    expect(within(menu).getByText('Unknown User')).toBeInTheDocument();
    expect(within(menu).getByText('ada@example.com')).toBeInTheDocument();

    // …and the reverse.
    await user.click(mobileToggle());
    expect(mobileToggle()).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(profileTrigger()).toHaveAttribute('aria-expanded', 'false'));

    // A completed navigation closes the mobile menu…
    await user.click(
      within(screen.getByRole('navigation', { name: 'Mobile' })).getByRole('link', {
        name: 'Pricing',
      }),
    );
    expect(currentLocation()).toHaveTextContent('/pricing');
    expect(mobileToggle()).toHaveAttribute('aria-expanded', 'false');

    // …and the profile menu.
    await user.click(profileTrigger());
    await waitFor(() => expect(profileTrigger()).toHaveAttribute('aria-expanded', 'true'));
    await user.click(screen.getByRole('menuitem', { name: /Dashboard/ }));
    expect(currentLocation()).toHaveTextContent('/dashboard');
    await waitFor(() => expect(profileTrigger()).toHaveAttribute('aria-expanded', 'false'));
  });

  it('closes the mobile menu with Escape and returns focus to its toggle', async () => {
    const user = userEvent.setup();
    renderHeader();
    await screen.findByRole('link', { name: 'Login' }, SLOW);
    await user.click(mobileToggle());
    expect(screen.getByRole('navigation', { name: 'Mobile' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).not.toBeInTheDocument();
    expect(mobileToggle()).toHaveFocus();
  });

  it('shows the display name and signs out to the login page', async () => {
    signInAs(testUser('ada@example.com', 'Ada Lovelace'));
    const user = userEvent.setup();
    renderHeader();
    await user.click(await screen.findByRole('button', { name: 'Open profile menu' }, SLOW));
    expect(await screen.findByText('Ada Lovelace', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /Settings/ })).toHaveAttribute('href', '/settings');
    await user.click(screen.getByRole('menuitem', { name: /Sign out/ }));
    await waitFor(() => expect(currentLocation()).toHaveTextContent('/login'), SLOW);
    expect(supabaseAuth.sent('post', 'logout')).not.toEqual([]);
    // Signed out, on /login: the header offers Sign up, not a link to the page itself.
    expect(await screen.findByRole('link', { name: 'Sign up' }, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
  });
});
