// The share link in the browser, against the mocked Supabase: the owner's Share panel creates,
// shows and revokes the link; the public page shows a site's stats through its token without the
// owner's controls, and "This link no longer works" for a malformed, unknown or revoked token.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router-dom';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithAuth } from '../../../components/testing/render-with-auth';
import { renderWithProviders, SLOW } from '../../../components/testing/render';
import {
  pgError,
  sentTo,
  signInAs,
  supabaseDb,
  testUser,
} from '../../../components/testing/supabase-server';
import { busyStats, makeSite, seedAnalytics } from '../testing/fixtures';
import { AnalyticsPage } from './analytics-page';
import { SharedStatsPage } from './shared-stats-page';

vi.mock('uplot', () => ({
  default: Object.assign(
    class {
      setSize() {}
      destroy() {}
    },
    { tzDate: (date: Date) => date },
  ),
}));

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';
const GONE = pgError(
  'PT404',
  'This share link does not exist or has been revoked.',
  'analytics_share_not_found',
);

function renderShared(token = TOKEN) {
  return renderWithProviders(
    <Routes>
      <Route path="/share/analytics/:token" element={<SharedStatsPage />} />
    </Routes>,
    { route: `/share/analytics/${token}` },
  );
}

describe('the public share page', () => {
  beforeEach(() => {
    seedAnalytics({ stats: () => busyStats() });
  });

  it("shows the site's stats through the token, without the owner's controls", async () => {
    supabaseDb.rpc('analytics_shared_site', () => ({
      name: 'Shop <b>',
      domains: ['shop.example'],
    }));
    supabaseDb.rpc('analytics_shared_stats', () => busyStats());
    supabaseDb.rpc('analytics_shared_visitors_now', () => 3);
    renderShared();
    expect(
      await screen.findByRole('heading', { name: 'Shop <b>', level: 1 }, SLOW),
    ).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: /^Top pages/ }, SLOW)).toBeInTheDocument();
    expect(await screen.findByText('3 visitors now')).toBeInTheDocument();
    const call = sentTo('post', 'rpc/analytics_shared_stats').at(-1) as Record<string, unknown>;
    expect(call).toMatchObject({ p_token: TOKEN, p_filters: {} });
    // Nothing read with the owner's functions, and none of their controls.
    expect(sentTo('post', 'rpc/analytics_stats')).toHaveLength(0);
    expect(sentTo('post', 'rpc/analytics_visitors_now')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete site' })).toBeNull();
  });

  it('says that an unknown or revoked link no longer works, with a way home', async () => {
    supabaseDb.rpc('analytics_shared_site', () => {
      throw GONE;
    });
    supabaseDb.rpc('analytics_shared_stats', () => {
      throw GONE;
    });
    renderShared();
    expect(
      await screen.findByRole('heading', { name: 'This link no longer works' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the home page' })).toHaveAttribute(
      'href',
      '/',
    );
    // A dead link is not asked again and again.
    expect(sentTo('post', 'rpc/analytics_shared_site')).toHaveLength(1);
  });

  it('does not even ask about a token of the wrong shape', async () => {
    supabaseDb.rpc('analytics_shared_site', () => ({ name: 'x', domains: ['x.example'] }));
    renderShared('short');
    expect(
      await screen.findByRole('heading', { name: 'This link no longer works' }, SLOW),
    ).toBeInTheDocument();
    expect(sentTo('post', 'rpc/analytics_shared_site')).toHaveLength(0);
  });
});

describe('the Share panel', () => {
  beforeEach(() => {
    signInAs(testUser());
  });

  it('creates the link, shows it to copy, and revokes it after asking', async () => {
    const site = makeSite({ name: 'Shop', domains: ['shop.example.com'] });
    seedAnalytics({ sites: [site], stats: () => busyStats() });
    let token: string | null = null;
    supabaseDb.rpc('analytics_share_get', () => token);
    supabaseDb.rpc('analytics_share_create', () => (token = TOKEN));
    supabaseDb.rpc('analytics_share_revoke', () => {
      token = null;
      return true;
    });
    const user = userEvent.setup();
    renderWithAuth(<AnalyticsPage />, { route: '/dashboard/analytics' });
    const share = await screen.findByRole('button', { name: 'Share' }, SLOW);
    expect(share).toHaveAttribute('aria-expanded', 'false');
    await user.click(share);
    expect(share).toHaveAttribute('aria-expanded', 'true');
    await user.click(await screen.findByRole('button', { name: 'Create a public link' }, SLOW));
    const field = await screen.findByLabelText('Anyone with this link can see the stats', {}, SLOW);
    expect(field).toHaveValue(`${window.location.origin}/share/analytics/${TOKEN}`);
    expect(field).toHaveAttribute('readonly');
    expect(sentTo('post', 'rpc/analytics_share_create')).toEqual([{ p_site_id: site.id }]);
    expect(screen.getByRole('button', { name: 'Copy: public link' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke the public link?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(
      await screen.findByRole('button', { name: 'Create a public link' }, SLOW),
    ).toBeInTheDocument();
    expect(sentTo('post', 'rpc/analytics_share_revoke')).toEqual([{ p_site_id: site.id }]);
  });
});
