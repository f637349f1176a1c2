import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders, SLOW } from '../../../components/testing/render';
import { failRequests, pgError, supabaseDb } from '../../../components/testing/supabase-server';
import { AccountLimitNotice, accountLimitText } from './account-limit-notice';

describe('accountLimitText', () => {
  it('speaks only at the cap', () => {
    expect(accountLimitText({ events: 0, limit: null })).toBeNull();
    expect(accountLimitText({ events: 99_999, limit: 100_000 })).toBeNull();
    expect(accountLimitText({ events: 100_000, limit: 100_000 })).toBe(
      'This account reached its daily limit of 100,000 events; events are counted again from midnight UTC.',
    );
  });
});

describe('AccountLimitNotice', () => {
  it("shows the notice when analytics_account_today() says today's count is at the cap", async () => {
    supabaseDb.rpc('analytics_account_today', () => ({ events: 250, limit: 250 }));
    renderWithProviders(<AccountLimitNotice />);
    const notice = await screen.findByTestId('account-limit-notice', undefined, SLOW);
    expect(notice).toHaveTextContent(
      'This account reached its daily limit of 250 events; events are counted again from midnight UTC.',
    );
    expect(notice).toHaveTextContent('the events your sites send are not stored');
  });

  it('renders nothing under the cap, before the first event, or when the count cannot be read', async () => {
    supabaseDb.rpc('analytics_account_today', () => ({ events: 249, limit: 250 }));
    const first = renderWithProviders(<AccountLimitNotice />);
    await waitFor(() =>
      expect(supabaseDb.requested('POST', 'rpc/analytics_account_today')).toHaveLength(1),
    );
    expect(first.container).toBeEmptyDOMElement();
    first.unmount();

    supabaseDb.rpc('analytics_account_today', () => ({ events: 0, limit: null }));
    const second = renderWithProviders(<AccountLimitNotice />);
    await waitFor(() =>
      expect(supabaseDb.requested('POST', 'rpc/analytics_account_today')).toHaveLength(2),
    );
    expect(second.container).toBeEmptyDOMElement();
    second.unmount();

    failRequests('post', 'rpc/analytics_account_today', pgError('', 'offline'));
    const third = renderWithProviders(<AccountLimitNotice />);
    await waitFor(() =>
      expect(supabaseDb.requested('POST', 'rpc/analytics_account_today')).toHaveLength(3),
    );
    expect(third.container).toBeEmptyDOMElement();
  });
});
