import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { SLOW } from '../../components/testing/render';
import { renderWithAuth } from '../../components/testing/render-with-auth';
import {
  failRequests,
  pgError,
  signInAs,
  supabaseDb,
  supabaseRealtime,
  testUser,
} from '../../components/testing/supabase-server';
import { useLiveSync } from '../../lib/live-sync';
import { WHATS_NEW } from '../../config/whats-new';
import { DashboardHome } from './dashboard-home';
import { dashboardLiveBindings } from './live-bindings';

const tools = () => within(screen.getByRole('region', { name: 'Your tools' }));
const toolCard = (name: string) =>
  tools().getByRole('heading', { level: 3, name }).closest('li') as HTMLElement;

describe('DashboardHome', { timeout: 30_000 }, () => {
  it('welcomes the user by display name under the Dashboard heading', async () => {
    signInAs(testUser('ada@example.com', 'Ada Lovelace'));
    renderWithAuth(<DashboardHome recentForms={null} />);
    expect(await screen.findByText('Welcome back, Ada Lovelace', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard');
    expect(document.title).toBe('Dashboard · tinyback.tools');
  });

  it('shows the banner passed in (the plan usage) between the welcome and the tools', async () => {
    signInAs(testUser('ada@example.com', 'Ada'));
    renderWithAuth(<DashboardHome recentForms={null} banner={<p role="alert">85 of 100</p>} />);
    // The welcome waits for the session; the banner shows at once.
    const welcome = await screen.findByText('Welcome back, Ada', {}, SLOW);
    const banner = screen.getByRole('alert');
    const toolsRegion = screen.getByRole('region', { name: 'Your tools' });
    expect(welcome.compareDocumentPosition(banner) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(
      banner.compareDocumentPosition(toolsRegion) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it("says 'there' when the user has no display name", async () => {
    signInAs(testUser('ada@example.com'));
    renderWithAuth(<DashboardHome recentForms={null} />);
    expect(await screen.findByText('Welcome back, there', {}, SLOW)).toBeInTheDocument();
  });

  it("opens every tool with 'Open Tool →', none of them 'Coming soon'", async () => {
    signInAs(testUser());
    renderWithAuth(<DashboardHome recentForms={null} />);
    await screen.findByText(/Welcome back/, {}, SLOW);
    const formBackend = within(toolCard('Form backend'));
    expect(formBackend.getByRole('link', { name: 'Open Tool →' })).toHaveAttribute(
      'href',
      '/dashboard/forms',
    );
    expect(formBackend.queryByText('Coming soon')).toBeNull();
    const analytics = within(toolCard('Analytics'));
    expect(analytics.getByRole('link', { name: 'Open Tool →' })).toHaveAttribute(
      'href',
      '/dashboard/analytics',
    );
    expect(analytics.queryByText('Coming soon')).toBeNull();
    const booking = within(toolCard('Booking'));
    expect(booking.getByRole('link', { name: 'Open Tool →' })).toHaveAttribute(
      'href',
      '/dashboard/booking',
    );
    expect(booking.queryByText('Coming soon')).toBeNull();
    const newsletter = within(toolCard('Newsletter'));
    expect(newsletter.getByRole('link', { name: 'Open Tool →' })).toHaveAttribute(
      'href',
      '/dashboard/newsletter',
    );
    expect(newsletter.queryByText('Coming soon')).toBeNull();
    expect(tools().getAllByRole('link', { name: 'Open Tool →' })).toHaveLength(4);
  });

  it('shows how many confirmed subscribers the lists have on the Newsletter tool', async () => {
    signInAs(testUser());
    const subscriber = (status: string) => ({ id: crypto.randomUUID(), status });
    supabaseDb.seed({
      list_subscribers: [
        subscriber('confirmed'),
        subscriber('confirmed'),
        subscriber('pending'),
        subscriber('unsubscribed'),
      ],
    });
    renderWithAuth(<DashboardHome recentForms={null} />);
    expect(
      await within(toolCard('Newsletter')).findByText('2 subscribers', {}, SLOW),
    ).toBeInTheDocument();
    const [request] = supabaseDb.requested('HEAD', 'list_subscribers');
    expect(request.url.searchParams.get('status')).toBe('eq.confirmed');
    expect(request.headers.get('Prefer')).toContain('count=exact');
  });

  it('counts the subscribers again when Realtime reports one, and says when there are none', async () => {
    signInAs(testUser());
    supabaseDb.seed({ list_subscribers: [] });
    function Live() {
      useLiveSync(testUser().id, dashboardLiveBindings);
      return null;
    }
    renderWithAuth(
      <>
        <Live />
        <DashboardHome recentForms={null} />
      </>,
    );
    await within(toolCard('Newsletter')).findByText('No subscribers yet', {}, SLOW);
    await waitFor(() => expect(supabaseRealtime.channels()).toHaveLength(1), SLOW);
    const confirmed = { id: crypto.randomUUID(), user_id: testUser().id, status: 'confirmed' };
    supabaseDb.rows('list_subscribers').push(confirmed);
    act(() =>
      supabaseRealtime.change({ table: 'list_subscribers', eventType: 'INSERT', new: confirmed }),
    );
    expect(
      await within(toolCard('Newsletter')).findByText('1 subscriber', {}, SLOW),
    ).toBeInTheDocument();
  });

  it('shows how many confirmed bookings are still to come on the Booking tool', async () => {
    signInAs(testUser());
    const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const booking = (hours: number, status = 'confirmed') => ({
      id: crypto.randomUUID(),
      status,
      starts_at: hoursFromNow(hours),
      ends_at: hoursFromNow(hours + 0.5),
    });
    supabaseDb.seed({
      bookings: [booking(2), booking(30), booking(5, 'cancelled'), booking(-10)],
    });
    renderWithAuth(<DashboardHome recentForms={null} />);
    expect(
      await within(toolCard('Booking')).findByText('2 upcoming bookings', {}, SLOW),
    ).toBeInTheDocument();
    const [request] = supabaseDb.requested('HEAD', 'bookings');
    expect(request.url.searchParams.get('status')).toBe('eq.confirmed');
    expect(request.url.searchParams.get('ends_at')).toMatch(/^gt\./);
    expect(request.headers.get('Prefer')).toContain('count=exact');
  });

  it('counts again when Realtime reports a booking', async () => {
    signInAs(testUser());
    const soon = {
      id: crypto.randomUUID(),
      user_id: testUser().id,
      status: 'confirmed',
      starts_at: new Date(Date.now() + 3_600_000).toISOString(),
      ends_at: new Date(Date.now() + 5_400_000).toISOString(),
    };
    supabaseDb.seed({ bookings: [] });
    function Live() {
      useLiveSync(testUser().id, dashboardLiveBindings);
      return null;
    }
    renderWithAuth(
      <>
        <Live />
        <DashboardHome recentForms={null} />
      </>,
    );
    await within(toolCard('Booking')).findByText('No upcoming bookings', {}, SLOW);
    await waitFor(() => expect(supabaseRealtime.channels()).toHaveLength(1), SLOW);
    supabaseDb.rows('bookings').push(soon);
    act(() => supabaseRealtime.change({ table: 'bookings', eventType: 'INSERT', new: soon }));
    expect(
      await within(toolCard('Booking')).findByText('1 upcoming booking', {}, SLOW),
    ).toBeInTheDocument();
  });

  it('says when no bookings are coming up, and shows nothing more when the count fails', async () => {
    signInAs(testUser());
    supabaseDb.seed({ bookings: [] });
    const { unmount } = renderWithAuth(<DashboardHome recentForms={null} />);
    expect(
      await within(toolCard('Booking')).findByText('No upcoming bookings', {}, SLOW),
    ).toBeInTheDocument();
    unmount();
    failRequests('head', 'bookings', pgError('PGRST000', 'down'), 503);
    renderWithAuth(<DashboardHome recentForms={null} />);
    await waitFor(() => expect(supabaseDb.requested('HEAD', 'bookings')).toHaveLength(2), SLOW);
    expect(within(toolCard('Booking')).queryByText(/upcoming booking/)).toBeNull();
    expect(
      within(toolCard('Booking')).getByRole('link', { name: 'Open Tool →' }),
    ).toBeInTheDocument();
  });

  it("shows the recent forms it is given and the 'What's new' list", async () => {
    signInAs(testUser());
    renderWithAuth(<DashboardHome recentForms={<section aria-label="Recent forms" />} />);
    await screen.findByText(/Welcome back/, {}, SLOW);
    expect(screen.getByRole('region', { name: 'Recent forms' })).toBeInTheDocument();
    const news = within(screen.getByRole('region', { name: "What's new" }));
    expect(news.getAllByRole('listitem')).toHaveLength(WHATS_NEW.length);
    expect(news.getByText(WHATS_NEW[0].title)).toBeInTheDocument();
    expect(news.getAllByText('Nov 24, 2026')[0]).toHaveAttribute('datetime', '2026-11-24');
  });
});
