import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithAuth } from '../../../components/testing/render-with-auth';
import { currentLocation, SLOW } from '../../../components/testing/render';
import {
  failRequests,
  holdRequests,
  pgError,
  sentTo,
  server,
  signInAs,
  supabaseRealtime,
  testUser,
} from '../../../components/testing/supabase-server';
import { presetRange } from '../date-range';
import { busyStats, makeSite, OWNER_ID, seedAnalytics } from '../testing/fixtures';
import { AnalyticsPage } from './analytics-page';

// uPlot draws on a canvas, which jsdom has not: a stand-in records what it was given.
const charts = vi.hoisted(() => ({ data: [] as unknown[] }));
vi.mock('uplot', () => ({
  default: Object.assign(
    class {
      constructor(_options: unknown, data: unknown) {
        charts.data.push(data);
      }
      setSize() {}
      destroy() {}
    },
    { tzDate: (date: Date) => date },
  ),
}));

function renderPage(route = '/dashboard/analytics') {
  return renderWithAuth(<AnalyticsPage />, { route });
}

const statsCalls = () => sentTo('post', 'rpc/analytics_stats') as Record<string, unknown>[];
const lastStatsCall = () => statsCalls().at(-1)!;
const location = () => new URL(currentLocation().textContent!, 'http://x');

beforeEach(() => {
  signInAs(testUser());
  charts.data = [];
});

describe('AnalyticsPage: sites', () => {
  it('shows "No sites yet" with the add form, validates it, and adds a site with its domains normalised', async () => {
    seedAnalytics();
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No sites yet' }, SLOW)).toBeInTheDocument();
    const form = within(screen.getByRole('form', { name: 'Add a site' }));
    await user.click(form.getByRole('button', { name: 'Add site' }));
    expect(await form.findByText('Enter a name for the site.')).toBeInTheDocument();
    expect(form.getByText('Enter the domain of your site, e.g. example.com.')).toBeInTheDocument();
    await user.type(form.getByLabelText(/Site name/), '  My blog ');
    await user.type(form.getByLabelText(/Domains/), 'https://Example.com/, bad_host.com');
    await user.click(form.getByRole('button', { name: 'Add site' }));
    expect(
      await form.findByText(
        '"bad_host.com" is not a domain. Enter host names such as example.com.',
      ),
    ).toBeInTheDocument();
    expect(sentTo('post', 'analytics_sites')).toEqual([]);

    await user.clear(form.getByLabelText(/Domains/));
    await user.type(
      form.getByLabelText(/Domains/),
      'https://Example.com/about, www.example.com:443',
    );
    await user.click(form.getByRole('button', { name: 'Add site' }));
    await waitFor(() => expect(sentTo('post', 'analytics_sites')).toHaveLength(1), SLOW);
    expect(sentTo('post', 'analytics_sites')[0]).toEqual({
      name: 'My blog',
      domains: ['example.com', 'www.example.com'],
      retention_days: 395,
    });
    // The new site has nothing counted yet: its snippet is the page.
    expect(
      await screen.findByRole('heading', { name: 'No data yet — here is your snippet' }, SLOW),
    ).toBeInTheDocument();
    // The new site is the one selected, in the URL.
    await waitFor(() => expect(location().searchParams.get('site')).toBeTruthy(), SLOW);
    const site = location().searchParams.get('site');
    expect(screen.getByText(/<script defer src=/).textContent).toBe(
      `<script defer src="${window.location.origin}/tb.js" data-site="${site}" data-api="http://127.0.0.1:54321/functions/v1/analytics/collect"></script>`,
    );
    expect(screen.getByRole('button', { name: /Copy/ })).toBeInTheDocument();
  });

  it("shows the database's refusal in its own words", async () => {
    seedAnalytics();
    failRequests(
      'post',
      'analytics_sites',
      pgError(
        '23514',
        'An account can have at most 50 analytics sites. Delete one to add another.',
        'analytics_site_limit',
      ),
    );
    const user = userEvent.setup();
    renderPage();
    const form = within(await screen.findByRole('form', { name: 'Add a site' }, SLOW));
    await user.type(form.getByLabelText(/Site name/), 'One more');
    await user.type(form.getByLabelText(/Domains/), 'example.org');
    await user.click(form.getByRole('button', { name: 'Add site' }));
    expect(await form.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'An account can have at most 50 analytics sites. Delete one to add another.',
    );
  });

  it('edits a site and deletes it after asking', async () => {
    const site = makeSite({ name: 'Shop', domains: ['shop.example.com'] });
    seedAnalytics({ sites: [site] });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Edit site' }, SLOW));
    const form = within(screen.getByRole('form', { name: 'Edit Shop' }));
    expect(form.getByLabelText(/Domains/)).toHaveValue('shop.example.com');
    await user.clear(form.getByLabelText(/Site name/));
    await user.type(form.getByLabelText(/Site name/), 'Shop EU');
    await user.type(form.getByLabelText(/Domains/), ', SHOP.example.eu');
    await user.clear(form.getByLabelText(/Keep raw events/));
    await user.type(form.getByLabelText(/Keep raw events/), '90');
    await user.click(form.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(sentTo('patch', 'analytics_sites')).toHaveLength(1), SLOW);
    expect(sentTo('patch', 'analytics_sites')[0]).toEqual({
      name: 'Shop EU',
      domains: ['shop.example.com', 'shop.example.eu'],
      retention_days: 90,
    });
    expect(await screen.findByText(/raw events kept 90 days/, {}, SLOW)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete site' }));
    const dialog = within(
      await screen.findByRole('alertdialog', { name: 'Delete "Shop EU"?' }, SLOW),
    );
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: 'No sites yet' }, SLOW)).toBeInTheDocument();
    expect(sentTo('delete', 'analytics_sites')).toEqual([{ id: `eq.${site.id}`, select: 'id' }]);
  });

  it('shows a load error with a retry', async () => {
    seedAnalytics({ sites: [makeSite({ name: 'Blog' })] });
    failRequests('get', 'analytics_sites', pgError('PGRST000', 'down'), 500);
    const user = userEvent.setup();
    renderPage();
    expect(
      await screen.findByText('Your sites could not be loaded.', {}, SLOW),
    ).toBeInTheDocument();
    server.resetHandlers();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('option', { name: 'Blog' }, SLOW)).toBeInTheDocument();
  });
});

describe('AnalyticsPage: stats', () => {
  it('asks for the last 30 days by default, then for the range chosen, kept in the URL', async () => {
    const site = makeSite();
    seedAnalytics({ sites: [site], stats: () => busyStats() });
    const user = userEvent.setup();
    renderPage();
    expect(
      await screen
        .findByRole('group', { name: /Totals/ })
        .catch(() => screen.findByLabelText('Totals', {}, SLOW)),
    ).toBeInTheDocument();
    const thirty = presetRange('30d', new Date());
    expect(lastStatsCall()).toEqual({
      p_site_id: site.id,
      p_from: thirty.from,
      p_to: thirty.to,
      p_filters: {},
    });
    await user.selectOptions(screen.getByLabelText('Date range'), 'Last 7 days');
    const seven = presetRange('7d', new Date());
    await waitFor(
      () => expect(lastStatsCall()).toMatchObject({ p_from: seven.from, p_to: seven.to }),
      SLOW,
    );
    expect(location().searchParams.get('range')).toBe('7d');
    await user.selectOptions(screen.getByLabelText('Date range'), 'Today');
    await waitFor(
      () => expect(lastStatsCall()).toMatchObject({ p_from: seven.to, p_to: seven.to }),
      SLOW,
    );

    await user.selectOptions(screen.getByLabelText('Date range'), 'Custom');
    const custom = within(screen.getByRole('form', { name: 'Custom date range' }));
    await user.clear(custom.getByLabelText('From'));
    await user.type(custom.getByLabelText('From'), '2026-03-10');
    await user.clear(custom.getByLabelText('To'));
    await user.type(custom.getByLabelText('To'), '2026-03-01');
    await user.click(custom.getByRole('button', { name: 'Apply' }));
    expect(custom.getByRole('alert')).toHaveTextContent(
      'The start date must not be after the end date.',
    );
    await user.clear(custom.getByLabelText('From'));
    await user.type(custom.getByLabelText('From'), '2026-02-01');
    await user.click(custom.getByRole('button', { name: 'Apply' }));
    await waitFor(
      () => expect(lastStatsCall()).toMatchObject({ p_from: '2026-02-01', p_to: '2026-03-01' }),
      SLOW,
    );
    expect(location().search).toContain('range=custom&from=2026-02-01&to=2026-03-01');
  });

  it('shows the headline numbers with their change, the chart and the top lists', async () => {
    seedAnalytics({ sites: [makeSite()], stats: () => busyStats() });
    renderPage();
    const totals = within(await screen.findByLabelText('Totals', {}, SLOW));
    expect(totals.getByText('120')).toBeInTheDocument();
    expect(screen.getByTestId('change-visitors')).toHaveTextContent('↑ 20%');
    expect(totals.getByText('up 20% from the previous period')).toBeInTheDocument();
    expect(screen.getByTestId('change-pageviews')).toHaveTextContent('↓ 20%');
    expect(screen.getByTestId('change-visits')).toHaveTextContent('±0%');
    expect(screen.getByTestId('change-bounce_rate')).toHaveTextContent('↑ 4 pts');
    expect(screen.getByTestId('change-events')).toHaveTextContent('new');
    // The chart got the series; its figures are in a table for screen readers too.
    await waitFor(() => expect(charts.data).toHaveLength(1), SLOW);
    expect(charts.data[0]).toEqual([
      [Date.parse('2026-11-29T00:00:00Z') / 1000, Date.parse('2026-11-30T00:00:00Z') / 1000],
      [50, 70],
      [180, 220],
    ]);
    expect(
      screen.getByRole('table', { name: 'Visitors and page views per day' }),
    ).toBeInTheDocument();
    const countries = within(screen.getByRole('table', { name: /^Countries/ }));
    expect(countries.getByRole('columnheader', { name: 'Country' })).toBeInTheDocument();
    expect(countries.getByRole('button', { name: 'Germany' })).toBeInTheDocument();
    const events = within(screen.getByRole('table', { name: /^Custom events/ }));
    expect(events.getByRole('columnheader', { name: 'Events' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: /^Referrers/ })).getByRole('button', {
        name: '(direct)',
      }),
    ).toBeInTheDocument();
  });

  it('filters by a clicked row, through p_filters and the URL, and removes the filter with its chip', async () => {
    seedAnalytics({ sites: [makeSite()], stats: () => busyStats() });
    const user = userEvent.setup();
    renderPage();
    const pages = within(await screen.findByRole('table', { name: /^Top pages/ }, SLOW));
    await user.click(pages.getByRole('button', { name: '/pricing' }));
    await waitFor(() => expect(lastStatsCall().p_filters).toEqual({ page: '/pricing' }), SLOW);
    expect(location().searchParams.get('page')).toBe('/pricing');
    await user.click(
      within(await screen.findByRole('table', { name: /^Countries/ }, SLOW)).getByRole('button', {
        name: 'Germany',
      }),
    );
    await waitFor(
      () => expect(lastStatsCall().p_filters).toEqual({ page: '/pricing', country: 'DE' }),
      SLOW,
    );
    const chips = within(screen.getByRole('list', { name: 'Filters' }));
    await user.click(chips.getByRole('button', { name: 'Remove filter Page: /pricing' }));
    await waitFor(() => expect(lastStatsCall().p_filters).toEqual({ country: 'DE' }), SLOW);
    expect(location().searchParams.has('page')).toBe(false);
    expect(
      chips.getByRole('button', { name: 'Remove filter Country: Germany' }),
    ).toBeInTheDocument();
  });

  it('opens a shared view with its range and filters', async () => {
    const site = makeSite();
    seedAnalytics({ sites: [makeSite(), site], stats: () => busyStats() });
    renderPage(
      `/dashboard/analytics?site=${site.id}&range=custom&from=2026-01-01&to=2026-01-31&utm_source=newsletter`,
    );
    await waitFor(() => expect(statsCalls()).toHaveLength(1), SLOW);
    expect(lastStatsCall()).toEqual({
      p_site_id: site.id,
      p_from: '2026-01-01',
      p_to: '2026-01-31',
      p_filters: { utm_source: 'newsletter' },
    });
    expect(
      await screen.findByRole('button', { name: 'Remove filter UTM source: newsletter' }, SLOW),
    ).toBeInTheDocument();
  });

  it('shows skeletons while loading, and an error with a retry', async () => {
    seedAnalytics({ sites: [makeSite()], stats: () => busyStats() });
    holdRequests('post', 'rpc/analytics_stats');
    const { unmount } = renderPage();
    expect(
      await screen.findByRole('status', { name: 'Loading the stats' }, SLOW),
    ).toBeInTheDocument();
    unmount();
    server.resetHandlers();
    failRequests('post', 'rpc/analytics_stats', pgError('PGRST000', 'down'), 500);
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('The stats could not be loaded.', {}, SLOW)).toBeInTheDocument();
    server.resetHandlers();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Totals', {}, SLOW)).toBeInTheDocument();
  });

  it('keeps "visitors now" live from the owner\'s analytics_live changes and reads the stats again', async () => {
    const site = makeSite();
    seedAnalytics({ sites: [site], stats: () => busyStats(), visitorsNow: 3 });
    renderPage();
    expect(await screen.findByText('3 visitors now', {}, SLOW)).toBeInTheDocument();
    await waitFor(
      () =>
        expect(supabaseRealtime.channels()).toContainEqual(
          expect.objectContaining({
            changes: [
              expect.objectContaining({
                table: 'analytics_live',
                filter: `user_id=eq.${OWNER_ID}`,
              }),
            ],
          }),
        ),
      SLOW,
    );
    await screen.findByLabelText('Totals', {}, SLOW);
    const before = statsCalls().length;
    supabaseRealtime.change({
      table: 'analytics_live',
      eventType: 'UPDATE',
      new: {
        site_id: site.id,
        user_id: OWNER_ID,
        visitors_now: 7,
        updated_at: new Date().toISOString(),
      },
    });
    expect(await screen.findByText('7 visitors now', {}, SLOW)).toBeInTheDocument();
    await waitFor(() => expect(statsCalls().length).toBe(before + 1), SLOW);
    // Another site's figure is not this one's.
    supabaseRealtime.change({
      table: 'analytics_live',
      eventType: 'UPDATE',
      new: { site_id: makeSite().id, user_id: OWNER_ID, visitors_now: 99 },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.getByText('7 visitors now')).toBeInTheDocument();
    // Events in the live row's 5-second window after the last change bring no change of their
    // own: once the site has been quiet that long, the stats are read once more.
    await waitFor(() => expect(statsCalls().length).toBe(before + 2), { timeout: 12_000 });
  }, 40_000);

  it("says when a site is not the caller's", async () => {
    seedAnalytics({ sites: [makeSite()], stats: () => null });
    renderPage();
    expect(
      await screen.findByText('This site no longer exists, or it is not yours.', {}, SLOW),
    ).toBeInTheDocument();
  });
});
