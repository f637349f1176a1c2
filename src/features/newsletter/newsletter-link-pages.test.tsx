import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import {
  currentLocation,
  LocationProbe,
  renderWithProviders,
  SLOW,
} from '../../components/testing/render';
import { paths } from '../../config/paths';
import {
  NewsletterConfirmedPage,
  NewsletterConfirmPage,
  NewsletterInvalidLinkPage,
  NewsletterUnsubscribedPage,
  NewsletterUnsubscribePage,
} from './newsletter-link-pages';

// The edge of the app: supabase-js's functions.invoke, which calls the `newsletter` function.
const invoke = vi.fn();
vi.mock('../../lib/supabase', () => ({
  supabase: { functions: { invoke: (name: string, options: unknown) => invoke(name, options) } },
}));

const TOKEN = 'Ab_-'.repeat(10) + 'xyz';
/** What supabase-js resolves with for a non-2xx answer: the Response is in `context`. */
const httpError = (status: number) =>
  Object.assign(new Error('Edge Function returned a non-2xx status code'), {
    context: new Response(null, { status }),
  });

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
  beforeEach(() => invoke.mockReset());

  it('confirms only when the button is pressed, then shows the outcome without the token', async () => {
    invoke.mockResolvedValue({ data: { ok: true, status: 'confirmed' }, error: null });
    const user = userEvent.setup();
    renderAt(`${paths.newsletterConfirm}?token=${TOKEN}`);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Confirm your subscription',
    );
    // Opening the link (as a mail scanner does) changes nothing.
    expect(invoke).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Confirm subscription' }));
    const heading = await screen.findByRole(
      'heading',
      { level: 1, name: "You're subscribed" },
      SLOW,
    );
    expect(invoke).toHaveBeenCalledWith('newsletter/confirm', { body: { token: TOKEN } });
    expect(currentLocation()).toHaveTextContent(/^\/newsletter\/confirmed$/);
    await waitFor(() => expect(heading).toHaveFocus());
    expect(document.title).toBe("You're subscribed · tinyback.tools");
  });

  it('unsubscribes only when the button is pressed', async () => {
    invoke.mockResolvedValue({ data: { ok: true, status: 'unsubscribed' }, error: null });
    const user = userEvent.setup();
    renderAt(`${paths.newsletterUnsubscribe}?token=${TOKEN}`);
    expect(invoke).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: "You're unsubscribed" }, SLOW),
    ).toBeInTheDocument();
    expect(invoke).toHaveBeenCalledWith('newsletter/unsubscribe', { body: { token: TOKEN } });
    expect(screen.getByText(/no more newsletter e-mail at this address/)).toBeInTheDocument();
  });

  it('shows the invalid-link page for a token the function does not know', async () => {
    invoke.mockResolvedValue({ data: null, error: httpError(404) });
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
    expect(invoke).not.toHaveBeenCalled();
  });

  it('keeps the page with an alert when the request fails, and lets the reader retry', async () => {
    invoke.mockResolvedValueOnce({ data: null, error: httpError(503) });
    invoke.mockResolvedValueOnce({ data: { ok: true, status: 'confirmed' }, error: null });
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
