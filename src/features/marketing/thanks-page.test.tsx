import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../components/testing/render';
import { referrerOrigin, ThanksPage } from './thanks-page';

describe('ThanksPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reduces the referrer to its origin and ignores anything else', () => {
    expect(referrerOrigin('https://shop.example.com/contact?x=1')).toBe('https://shop.example.com');
    expect(referrerOrigin('')).toBeNull();
    expect(referrerOrigin('javascript:alert(1)')).toBeNull();
    expect(referrerOrigin('not a url')).toBeNull();
  });

  it('links back to the site the form was on', () => {
    vi.spyOn(document, 'referrer', 'get').mockReturnValue('https://shop.example.com/contact');
    renderWithProviders(<ThanksPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Thanks! Your message has been sent.',
    );
    expect(screen.getByRole('link', { name: 'Back to shop.example.com' })).toHaveAttribute(
      'href',
      'https://shop.example.com',
    );
    expect(document.title).toBe('Thanks · tinyback.tools');
  });

  it('links home without a referrer', () => {
    vi.spyOn(document, 'referrer', 'get').mockReturnValue('');
    renderWithProviders(<ThanksPage />);
    expect(screen.getByRole('link', { name: 'Back to the home page' })).toHaveAttribute(
      'href',
      '/',
    );
  });
});
