import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../components/testing/render';
import {
  NewsletterConfirmedPage,
  NewsletterInvalidLinkPage,
  NewsletterUnsubscribedPage,
} from './newsletter-link-pages';

describe('newsletter link pages', () => {
  it.each([
    [NewsletterConfirmedPage, "You're subscribed", /every e-mail has a link to unsubscribe/],
    [NewsletterUnsubscribedPage, "You're unsubscribed", /no more newsletter e-mail/],
    [NewsletterInvalidLinkPage, 'This link is not valid', /works once, for 7 days/],
  ])('%o states the outcome, names the page and leads home', (Page, title, text) => {
    renderWithProviders(<Page />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(title);
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the home page' })).toHaveAttribute(
      'href',
      '/',
    );
    expect(document.title).toBe(`${title} · tinyback.tools`);
  });
});
