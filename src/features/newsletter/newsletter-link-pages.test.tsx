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
  NewsletterConfirmedPage,
  NewsletterConfirmPage,
  NewsletterInvalidLinkPage,
  NewsletterUnsubscribedPage,
  NewsletterUnsubscribePage,
} from './newsletter-link-pages';

const TOKEN = 'Ab_-'.repeat(10) + 'xyz';
/** The bodies sent to the `newsletter` function's route (`confirm`, `unsubscribe`). */
const sentToNewsletter = (route: string) => sentTo('post', `functions/newsletter/${route}`);
const newsletterRequests = () =>
  supabaseDb.requests.filter((r) => r.path.startsWith('functions/newsletter'));

function renderAt(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path={paths.newsletterConfirm} element={<NewsletterConfirmPage />} />
        <Route path={paths.newsletterUnsubscribe} element={<NewsletterUnsubscribePage />} />
        <Route path={paths.newsletterConfirmed} element={<NewsletterConfirmedPage />} />
        <Route path={paths.newsletterUnsubscribed} element={<NewsletterUnsubscribedPage />} />
        <Route path={paths.newsletterInvalidLink} element={<NewsletterInvalidLinkPage />} />
      </Routes>
      <LocationProbe />
    </>,
    { route },
  );
}

describe('newsletter link pages', () => {
  it('confirms only when the button is pressed, then shows the outcome without the token', async () => {
    supabaseDb.edgeFunction('newsletter', () => ({ ok: true, status: 'confirmed' }));
    const user = userEvent.setup();
    renderAt(`${paths.newsletterConfirm}?token=${TOKEN}`);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Confirm your subscription',
    );
    // Opening the link (as a mail scanner does) changes nothing.
    expect(newsletterRequests()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Confirm subscription' }));
    const heading = await screen.findByRole(
      'heading',
      { level: 1, name: "You're subscribed" },
      SLOW,
    );
    expect(sentToNewsletter('confirm')).toContainEqual({ token: TOKEN });
    expect(currentLocation()).toHaveTextContent(/^\/newsletter\/confirmed$/);
    await waitFor(() => expect(heading).toHaveFocus());
    expect(document.title).toBe("You're subscribed · tinyback.tools");
  });

  it('unsubscribes only when the button is pressed', async () => {
    supabaseDb.edgeFunction('newsletter', () => ({ ok: true, status: 'unsubscribed' }));
    const user = userEvent.setup();
    renderAt(`${paths.newsletterUnsubscribe}?token=${TOKEN}`);
    expect(newsletterRequests()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: "You're unsubscribed" }, SLOW),
    ).toBeInTheDocument();
    expect(sentToNewsletter('unsubscribe')).toContainEqual({ token: TOKEN });
    expect(screen.getByText(/no more newsletter e-mail at this address/)).toBeInTheDocument();
  });

  it('shows the invalid-link page for a token the function does not know', async () => {
    failFunction('newsletter/confirm', 404);
    const user = userEvent.setup();
    renderAt(`${paths.newsletterConfirm}?token=${TOKEN}`);
    await user.click(screen.getByRole('button', { name: 'Confirm subscription' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link is not valid' }, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByText(/works once, for 7 days/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the home page' })).toHaveAttribute(
      'href',
      '/',
    );
  });

  it('asks nothing of the function for a malformed or missing token', async () => {
    const user = userEvent.setup();
    renderAt(paths.newsletterUnsubscribe);
    await user.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link is not valid' }, SLOW),
    ).toBeInTheDocument();
    expect(newsletterRequests()).toEqual([]);
  });

  it('keeps the page with an alert when the request fails, and lets the reader retry', async () => {
    failFunction('newsletter/confirm', 503, { once: true });
    supabaseDb.edgeFunction('newsletter', () => ({ ok: true, status: 'confirmed' }));
    const user = userEvent.setup();
    renderAt(`${paths.newsletterConfirm}?token=${TOKEN}`);
    await user.click(screen.getByRole('button', { name: 'Confirm subscription' }));
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'That did not work. Check your connection and try again.',
    );
    expect(currentLocation()).toHaveTextContent(paths.newsletterConfirm);
    await user.click(screen.getByRole('button', { name: 'Confirm subscription' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: "You're subscribed" }, SLOW),
    ).toBeInTheDocument();
  });
});
