import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { holdRequests, sentTo } from '../../../components/testing/supabase-server';
import { makeCounts, makeForm, seedForms } from '../testing/fixtures';
import { RecentForms } from './recent-forms';

beforeEach(() => {
  seedForms();
});

describe('RecentForms', () => {
  it('shows nothing when there are no forms', async () => {
    const { container } = renderWithProviders(<RecentForms />);
    await vi.waitFor(() => expect(sentTo('get', 'forms')).not.toEqual([]));
    await vi.waitFor(() =>
      expect(screen.queryByRole('status', { name: 'Loading recent forms' })).toBeNull(),
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('shows a loading state', () => {
    holdRequests('get', 'forms');
    renderWithProviders(<RecentForms />);
    expect(screen.getByRole('status', { name: 'Loading recent forms' })).toBeInTheDocument();
  });

  it('lists the five newest forms with counts and links to their messages', async () => {
    // Stored newest first, as the query returns them.
    const forms = Array.from({ length: 7 }, (_, i) => makeForm({ name: `Form ${7 - i}` }));
    forms.reverse();
    seedForms({ forms, counts: [makeCounts(forms[0].id, 4, 2)] });
    renderWithProviders(<RecentForms />);

    const section = within(await screen.findByRole('region', { name: 'Recent forms' }, SLOW));
    const items = section.getAllByRole('listitem');
    expect(items).toHaveLength(5);
    const newest = within(items[0]);
    const link = newest.getByRole('link', { name: forms[0].name });
    expect(link).toHaveAttribute('href', `/dashboard/forms?tab=messages&form=${forms[0].id}`);
    expect(await newest.findByText('4 messages')).toBeInTheDocument();
    expect(newest.getByText('2 unread')).toBeInTheDocument();
    expect(newest.getByText(new RegExp(forms[0].target_email))).toBeInTheDocument();
    expect(within(items[1]).getByText('0 messages')).toBeInTheDocument();
    expect(section.queryByRole('link', { name: forms[5].name })).not.toBeInTheDocument();
    expect(section.getByRole('link', { name: 'View all' })).toHaveAttribute(
      'href',
      '/dashboard/forms',
    );
  });

  it("shows bidirectional controls in a form's name as visible tokens", async () => {
    seedForms({ forms: [makeForm({ name: 'Invoice\u202Efdp.exe' })] });
    renderWithProviders(<RecentForms />);
    const section = within(await screen.findByRole('region', { name: 'Recent forms' }, SLOW));
    expect(section.getByRole('link', { name: 'Invoice[U+202E]fdp.exe' })).toBeInTheDocument();
  });
});
