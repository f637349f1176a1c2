import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../components/testing/render';
import { referrerOrigin, ThanksPage } from './thanks-page';

function withReferrer(referrer: string, historyLength = 1) {
  vi.spyOn(document, 'referrer', 'get').mockReturnValue(referrer);
  vi.spyOn(window.history, 'length', 'get').mockReturnValue(historyLength);
}

describe('ThanksPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reduces the referrer to its origin and accepts only http(s)', () => {
    expect(referrerOrigin('https://shop.example.com/contact?x=1')).toBe('https://shop.example.com');
    expect(referrerOrigin('http://127.0.0.1:8080/form')).toBe('http://127.0.0.1:8080');
    expect(referrerOrigin('')).toBeNull();
    expect(referrerOrigin('javascript:alert(1)')).toBeNull();
    expect(referrerOrigin('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(referrerOrigin('file:///etc/passwd')).toBeNull();
    expect(referrerOrigin('not a url')).toBeNull();
  });

  it('links back to the site the form was on, and to nothing of tinyback', () => {
    withReferrer('https://shop.example.com/contact');
    renderWithProviders(<ThanksPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Thanks! Your message has been sent.',
    );
    const links = screen.getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAccessibleName('Back to shop.example.com');
    expect(links[0]).toHaveAttribute('href', 'https://shop.example.com');
    expect(document.title).toBe('Thanks · tinyback.tools');
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute(
      'content',
      'noindex, nofollow',
    );
  });

  it('never turns a javascript: referrer into a link; goes back in the history instead', async () => {
    withReferrer('javascript:alert(document.cookie)', 2);
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    renderWithProviders(<ThanksPage />);
    expect(screen.queryByRole('link')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Go back' }));
    expect(back).toHaveBeenCalledOnce();
  });

  it('does not send the visitor into tinyback when the referrer is our own site', () => {
    withReferrer(`${window.location.origin}/custom`);
    renderWithProviders(<ThanksPage />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('You can close this page now.')).toBeInTheDocument();
  });
});
