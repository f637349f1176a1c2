import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { SLOW } from '../../components/testing/render';
import { renderWithAuth } from '../../components/testing/render-with-auth';
import { signInAs, testUser } from '../../components/testing/supabase-server';
import { WHATS_NEW } from '../../config/whats-new';
import { DashboardHome } from './dashboard-home';

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

  it("opens active tools with 'Open Tool →' and marks the others 'Coming soon'", async () => {
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
    for (const name of ['Booking', 'Newsletter']) {
      const card = within(toolCard(name));
      expect(card.getByText('Coming soon')).toBeInTheDocument();
      expect(card.queryByRole('link')).toBeNull();
    }
    expect(tools().getAllByRole('link', { name: 'Open Tool →' })).toHaveLength(2);
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
