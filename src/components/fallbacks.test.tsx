// The full fallbacks: the error panel (what happened, try again, reload, home; the heading takes
// the focus) and each toast in words when the toasts' renderer could not be loaded.
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from './testing/render';
import { ErrorPanel, errorTexts, homeFor, ToastFallback } from './fallbacks';
import { signalToast } from './toaster-signal';

const chunkError = new TypeError(
  'Failed to fetch dynamically imported module: https://site.example/assets/settings-Ab12.js',
);

afterEach(() => vi.useRealTimers());

describe('errorTexts', () => {
  it('tells a page that did not arrive from a page that broke, and offline from online', () => {
    expect(errorTexts(chunkError, true).title).toBe('This page could not be loaded');
    expect(errorTexts(chunkError, true).text).toMatch(/new version of the site/);
    expect(errorTexts(chunkError, false).text).toMatch(/offline/);
    expect(errorTexts(new Error('boom'), true).title).toBe('Something went wrong on this page');
  });

  it('leads home to the dashboard from its pages, else to the home page', () => {
    expect(homeFor('/dashboard/forms')).toEqual({
      href: '/dashboard',
      label: 'Back to the dashboard',
    });
    expect(homeFor('/settings')).toEqual({ href: '/dashboard', label: 'Back to the dashboard' });
    expect(homeFor('/pricing')).toEqual({ href: '/', label: 'Go to the home page' });
    expect(homeFor('/dashboarding')).toEqual({ href: '/', label: 'Go to the home page' });
  });
});

describe('ErrorPanel', () => {
  it('says what happened, takes the focus, and offers try again, reload and home', async () => {
    const user = userEvent.setup();
    const reset = vi.fn();
    renderWithProviders(<ErrorPanel error={chunkError} reset={reset} />, { route: '/pricing' });
    const heading = screen.getByRole('heading', {
      level: 1,
      name: 'This page could not be loaded',
    });
    expect(heading).toHaveFocus();
    expect(screen.getByRole('region', { name: 'This page could not be loaded' })).toBeVisible();
    // Reachable by keyboard, in reading order.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Try again' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Reload page' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(reset).toHaveBeenCalledTimes(1);
  });
});

describe('ToastFallback', () => {
  it('tells each toast in a polite status region for as long as the toast would show', async () => {
    vi.useFakeTimers();
    renderWithProviders(<ToastFallback />);
    const region = screen.getByRole('status');
    act(() =>
      signalToast({
        type: 'error',
        title: 'Could not mark the message as read',
        description: 'Check your connection and try again.',
        duration: 8000,
      }),
    );
    expect(region).toHaveTextContent('Could not mark the message as read');
    expect(region).toHaveTextContent('Check your connection and try again.');
    await act(() => vi.advanceTimersByTimeAsync(8000));
    expect(region).toHaveTextContent('');
    act(() => signalToast({ type: 'success', title: 'Saved', duration: 4000 }));
    expect(region).toHaveTextContent('Saved');
  });
});
