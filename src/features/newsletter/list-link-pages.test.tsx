import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import {
  currentLocation,
  LocationProbe,
  renderWithProviders,
  SLOW,
} from '../../components/testing/render';
import { failFunction, sentTo, supabaseDb } from '../../components/testing/supabase-server';
import { paths } from '../../config/paths';
import {
  ListCheckInboxPage,
  NewsletterConfirmRoute,
  NewsletterUnsubscribeRoute,
} from './list-link-pages';

const TOKEN = 'Ab_-'.repeat(10) + 'xyz';
const SUBSCRIBER = '7d6c5b4a-3928-4716-a5b4-c3d2e1f00112';
const CAMPAIGN = 'a1b2c3d4-e5f6-4789-8abc-def012345678';
const SIGNATURE = 'S1g_-'.repeat(8) + 'abc';
const UNSUBSCRIBE_PATH = `newsletter/u/${SUBSCRIBER}/${CAMPAIGN}/${SIGNATURE}`;
const unsubscribeLink = `${paths.newsletterUnsubscribe}?u=${SUBSCRIBER}&c=${CAMPAIGN}&sig=${SIGNATURE}`;

const newsletterRequests = () =>
  supabaseDb.requests.filter((r) => r.path.startsWith('functions/newsletter'));

function renderAt(route: string, { strict = false } = {}) {
  const pages = (
    <>
      <Routes>
        <Route path={paths.newsletterConfirm} element={<NewsletterConfirmRoute />} />
        <Route path={paths.newsletterUnsubscribe} element={<NewsletterUnsubscribeRoute />} />
        <Route path={paths.newsletterCheckInbox} element={<ListCheckInboxPage />} />
      </Routes>
      <LocationProbe />
    </>
  );
  return renderWithProviders(pages, { route, reactStrictMode: strict });
}

describe("a list's confirmation link", () => {
  it('confirms only when the button is pressed, names the list and drops the token', async () => {
    supabaseDb.edgeFunction('newsletter', () => ({ ok: true, listName: 'Shop News' }));
    const user = userEvent.setup();
    renderAt(`${paths.newsletterConfirm}?list=1&token=${TOKEN}`);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Confirm your subscription',
    );
    expect(screen.getByText(/receive this list's e-mail/)).toBeInTheDocument();
    // Opening the link (as a mail scanner does) changes nothing.
    expect(newsletterRequests()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Confirm subscription' }));
    const heading = await screen.findByRole(
      'heading',
      { level: 1, name: "You're subscribed to Shop News" },
      SLOW,
    );
    expect(sentTo('post', 'functions/newsletter/lists/confirm')).toContainEqual({ token: TOKEN });
    expect(currentLocation()).toHaveTextContent(/^\/newsletter\/confirm\?list=1$/);
    await waitFor(() => expect(heading).toHaveFocus());
    expect(document.title).toBe("You're subscribed · tinyback.tools");
  });

  it('says the link is not valid when the function does not know the token', async () => {
    failFunction('newsletter/lists/confirm', 404);
    const user = userEvent.setup();
    renderAt(`${paths.newsletterConfirm}?list=1&token=${TOKEN}`);
    await user.click(screen.getByRole('button', { name: 'Confirm subscription' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link is not valid' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByText(/works once, for 7 days/)).toBeInTheDocument();
  });

  it('keeps the page with an alert when the request fails, and lets the reader retry', async () => {
    failFunction('newsletter/lists/confirm', 503, { once: true });
    supabaseDb.edgeFunction('newsletter', () => ({ ok: true, listName: 'Shop News' }));
    const user = userEvent.setup();
    renderAt(`${paths.newsletterConfirm}?list=1&token=${TOKEN}`);
    await user.click(screen.getByRole('button', { name: 'Confirm subscription' }));
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'That did not work. Check your connection and try again.',
    );
    await user.click(screen.getByRole('button', { name: 'Confirm subscription' }));
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: "You're subscribed to Shop News" },
        SLOW,
      ),
    ).toBeInTheDocument();
  });

  it("leaves the footer newsletter's links to its own page", () => {
    renderAt(`${paths.newsletterConfirm}?token=${TOKEN}`);
    expect(screen.getByText(/receive product updates/)).toBeInTheDocument();
  });
});

describe("a campaign's unsubscribe link", () => {
  it('unsubscribes as soon as the page opens, with one request, naming the list', async () => {
    supabaseDb.edgeFunction('newsletter', () => ({ ok: true, listName: 'Shop News' }));
    // Strict mode runs the page's effects twice, as development builds do: still one request.
    renderAt(unsubscribeLink, { strict: true });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Unsubscribe from this list',
    );
    expect(screen.getByRole('status')).toHaveTextContent('Unsubscribing…');
    expect(screen.queryByRole('button')).toBeNull();
    const heading = await screen.findByRole(
      'heading',
      { level: 1, name: "You're unsubscribed" },
      SLOW,
    );
    expect(screen.getByRole('status')).toHaveTextContent('You are unsubscribed from Shop News.');
    expect(newsletterRequests().map((r) => [r.method, r.path])).toEqual([
      ['POST', `functions/${UNSUBSCRIBE_PATH}`],
    ]);
    // The signature leaves the address bar, and the outcome takes the focus.
    expect(currentLocation()).toHaveTextContent(/^\/newsletter\/unsubscribe\?list=1$/);
    await waitFor(() => expect(heading).toHaveFocus());
    expect(document.title).toBe("You're unsubscribed · tinyback.tools");
    await new Promise((r) => setTimeout(r, 50));
    expect(newsletterRequests()).toHaveLength(1);
  });

  it('asks nothing of the function for a link that cannot be signed, and says so', async () => {
    renderAt(`${paths.newsletterUnsubscribe}?u=${SUBSCRIBER}&c=${CAMPAIGN}&sig=short`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link is not valid' }, SLOW),
    ).toBeInTheDocument();
    expect(newsletterRequests()).toEqual([]);
  });

  it('says the link is not valid when the function refuses its signature', async () => {
    failFunction(UNSUBSCRIBE_PATH, 403);
    renderAt(unsubscribeLink);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link is not valid' }, SLOW),
    ).toBeInTheDocument();
    expect(newsletterRequests()).toHaveLength(1);
  });

  it('says so when the request fails, and unsubscribes on Try again', async () => {
    failFunction(UNSUBSCRIBE_PATH, 503, { once: true });
    supabaseDb.edgeFunction('newsletter', () => ({ ok: true, listName: 'Shop News' }));
    const user = userEvent.setup();
    renderAt(unsubscribeLink);
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'You are not unsubscribed yet',
    );
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: "You're unsubscribed" }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('You are unsubscribed from Shop News.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(newsletterRequests()).toHaveLength(2);
  });
});

describe('the check-your-inbox page', () => {
  it('says what happens next, the same for every address', () => {
    renderAt(paths.newsletterCheckInbox);
    expect(screen.getByRole('heading', { level: 1, name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByText(/If this address is not on the list yet/)).toBeInTheDocument();
  });
});
