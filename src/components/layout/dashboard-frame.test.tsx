import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { currentLocation, SLOW } from '../testing/render';
import { renderWithAuth } from '../testing/render-with-auth';
import { clearStoredSession, signInAs, supabaseAuth, testUser } from '../testing/supabase-server';
import type { LiveStatus } from '../../lib/live-sync';
import { DashboardFrame } from './dashboard-frame';
import { Header } from './header';
import { pageContent } from '../page-content';

function renderFrame(
  route = '/dashboard/forms',
  { unreadCount = 3, liveStatus = 'live' as LiveStatus } = {},
) {
  return renderWithAuth(
    // As the page layout holds it: the site's <main>, where 'Skip to content' lands.
    <main id="main" tabIndex={-1}>
      <Routes>
        <Route
          element={
            <>
              <Header />
              <DashboardFrame unreadCount={unreadCount} liveStatus={liveStatus} />
            </>
          }
        >
          <Route path="/dashboard" element={<h1>Dashboard</h1>} />
          <Route path="/dashboard/forms" element={<h1>Forms</h1>} />
          <Route path="/dashboard/booking" element={<h1>Your Booking Forms</h1>} />
          <Route path="/settings" element={<h1>Settings</h1>} />
        </Route>
        <Route path="/login" element={<h1>Login</h1>} />
      </Routes>
    </main>,
    { route },
  );
}

/** The always-present sidebar (the drawer holds a second one while open). */
const sidebarNav = () => screen.getAllByRole('navigation', { name: 'Dashboard' })[0];

describe('DashboardFrame sidebar', { timeout: 30_000 }, () => {
  beforeEach(() => {
    signInAs(testUser('ada@example.com', 'Ada Lovelace'));
  });

  it('links the dashboard pages and highlights the current one', async () => {
    renderFrame('/dashboard/forms');
    await screen.findByRole('heading', { level: 1, name: 'Forms' }, SLOW);
    const nav = within(sidebarNav());
    expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(nav.getByRole('link', { name: 'Booking' })).toHaveAttribute(
      'href',
      '/dashboard/booking',
    );
    expect(nav.getByRole('link', { name: 'Analytics' })).toHaveAttribute(
      'href',
      '/dashboard/analytics',
    );
    expect(nav.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    const forms = nav.getByRole('link', { name: 'Forms (3 unread)' });
    expect(forms).toHaveAttribute('href', '/dashboard/forms');
    expect(forms).toHaveAttribute('aria-current', 'page');
    // Dashboard is active on /dashboard only, not on the pages below it.
    expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('shows no unread badge without unread messages', async () => {
    renderFrame('/dashboard', { unreadCount: 0 });
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW);
    expect(within(sidebarNav()).getByRole('link', { name: 'Forms' })).toBeInTheDocument();
  });

  it("links Newsletter to its tool and marks CMS 'Coming soon', without a link", async () => {
    renderFrame();
    await screen.findByRole('heading', { level: 1, name: 'Forms' }, SLOW);
    const nav = within(sidebarNav());
    const newsletter = nav.getByRole('link', { name: 'Newsletter' });
    expect(newsletter).toHaveAttribute('href', '/dashboard/newsletter');
    expect(within(newsletter.closest('li')!).queryByText('Coming soon')).toBeNull();
    expect(nav.queryByRole('link', { name: /CMS/ })).toBeNull();
    const cms = nav.getByText('CMS').closest('li')!;
    expect(within(cms).getByText('Coming soon')).toBeInTheDocument();
    expect(nav.getAllByRole('link')).toHaveLength(6);
  });

  it('filters the menu entries with the search box', async () => {
    const user = userEvent.setup();
    renderFrame();
    await screen.findByRole('heading', { level: 1, name: 'Forms' }, SLOW);
    const search = screen.getAllByRole('searchbox', { name: 'Search the menu' })[0];
    await user.type(search, 'book');
    const nav = within(sidebarNav());
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual(['Booking']);
    expect(nav.queryByText('Newsletter')).toBeNull();
    await user.clear(search);
    await user.type(search, 'news');
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual(['Newsletter']);
    await user.clear(search);
    await user.type(search, 'cms');
    expect(nav.queryAllByRole('link')).toHaveLength(0);
    expect(nav.getByText('CMS')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'visitors');
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual(['Analytics']);
    await user.clear(search);
    await user.type(search, 'zebra');
    expect(nav.getByText('No menu entries match “zebra”.')).toBeInTheDocument();
    await user.clear(search);
    expect(nav.getAllByRole('link')).toHaveLength(6);
  });

  it('shows the display name, else the e-mail, else "User"', async () => {
    const { unmount } = renderFrame();
    const block = await screen.findByTestId('sidebar-user', {}, SLOW);
    expect(within(block).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(block).getByText('ada@example.com')).toBeInTheDocument();
    unmount();

    signInAs(testUser('grace@example.com'));
    const second = renderFrame();
    expect(
      within(await screen.findByTestId('sidebar-user', {}, SLOW)).getByText('grace@example.com'),
    ).toBeInTheDocument();
    second.unmount();

    signInAs(testUser(''));
    renderFrame();
    expect(
      within(await screen.findByTestId('sidebar-user', {}, SLOW)).getByText('User'),
    ).toBeInTheDocument();
  });

  it('shows the user block only while signed in', async () => {
    clearStoredSession();
    renderFrame();
    await screen.findByRole('heading', { level: 1, name: 'Forms' }, SLOW);
    expect(screen.queryByTestId('sidebar-user')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
  });

  it('logs out and goes to the login page', async () => {
    const user = userEvent.setup();
    renderFrame();
    const block = await screen.findByTestId('sidebar-user', {}, SLOW);
    await user.click(within(block).getByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/login$/);
    expect(supabaseAuth.sent('post', 'logout')).toHaveLength(1);
  });

  it.each([
    ['live', 'Live'],
    ['reconnecting', 'Reconnecting…'],
    ['connecting', 'Connecting…'],
    ['offline', 'Offline'],
  ] as const)('shows the %s connection as a status', async (liveStatus, text) => {
    renderFrame('/dashboard', { liveStatus });
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW);
    // One indicator in the sidebar (lg and up), one in the bar above the page (below lg).
    const statuses = screen.getAllByRole('status');
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status).toHaveTextContent(text);
  });
});

describe('DashboardFrame drawer (below lg)', { timeout: 30_000 }, () => {
  beforeEach(() => {
    signInAs(testUser('ada@example.com', 'Ada Lovelace'));
  });

  it('opens the menu in a drawer, closes it with Escape, and closes it on navigation', async () => {
    const user = userEvent.setup();
    renderFrame('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW);
    const menu = await screen.findByRole('button', { name: 'Open menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    // Not mounted while closed: the page holds one menu only.
    expect(screen.getAllByRole('navigation', { name: 'Dashboard' })).toHaveLength(1);

    await user.click(menu);
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    expect(within(drawer).getByRole('navigation', { name: 'Dashboard' })).toBeInTheDocument();
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The focus is back on the button that opened it.
    await waitFor(() => expect(menu).toHaveFocus());

    await user.click(menu);
    const reopened = await screen.findByRole('dialog', { name: 'Menu' });
    await user.click(within(reopened).getByRole('link', { name: 'Booking' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Your Booking Forms' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(currentLocation()).toHaveTextContent(/^\/dashboard\/booking$/);
  });
  it("is the phone's one menu: the header's menu button opens it, with the site's pages and the account", async () => {
    const user = userEvent.setup();
    renderFrame('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW);
    // The frame has no menu button of its own, and the header's opens the drawer, not the
    // site's dropdown.
    expect(screen.queryByRole('button', { name: 'Menu' })).toBeNull();
    const menu = await screen.findByRole('button', { name: 'Open menu' });
    expect(menu).toHaveAttribute('aria-haspopup', 'dialog');
    await user.click(menu);
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    expect(document.getElementById('mobile-menu')).toBeNull();
    const site = within(drawer).getByRole('navigation', { name: 'Site' });
    expect(
      within(site)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Tools', 'Pricing', 'Docs', 'Blog', 'Custom Web']);
    expect(within(drawer).getByRole('link', { name: 'Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
    expect(within(drawer).getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it("moves 'Skip to content' on from <main> to the page, past the sidebar", async () => {
    renderFrame('/dashboard/forms');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Forms' }, SLOW);
    const content = document.getElementById('dashboard-content')!;
    expect(content).toContainElement(heading);
    expect(content).not.toContainElement(sidebarNav());
    expect(pageContent()).toBe(content);
    // The skip link's target is <main>.
    document.getElementById('main')!.focus();
    expect(content).toHaveFocus();
  });
});
