import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW } from '../../../components/testing/render';
import { renderWithAuth } from '../../../components/testing/render-with-auth';
import {
  failRequests,
  holdRequests,
  pgError,
  signInAs,
  supabaseDb,
  testUser,
} from '../../../components/testing/supabase-server';
import { notify } from '../../../components/toaster';
import { downloadText } from '../../../lib/download';
import type { NewsletterList, Subscriber } from '../newsletter-types';
import { makeList, makeSubscriber, seedNewsletter } from '../testing/fixtures';
import { SubscribersTable } from './subscribers-table';

vi.mock('../../../components/toaster', () => ({ notify: vi.fn() }));
vi.mock('../../../lib/download', () => ({ downloadText: vi.fn() }));

const table = () => screen.getByRole('table', { name: 'Subscribers' });
const tableEmails = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent);
const count = () => screen.getByRole('status');
/** The reads of the table's pages (not the head counts), oldest first. */
const pageReads = () =>
  supabaseDb
    .requested('GET', 'list_subscribers')
    .map((request) => request.url.searchParams)
    .filter((params) => params.has('limit'));

/** `n` subscribers of a list, newest first as the table orders them. */
function subscribersOf(list: NewsletterList, n: number, overrides: Partial<Subscriber> = {}) {
  return Array.from({ length: n }, () => makeSubscriber(list, overrides)).reverse();
}

function renderTable(list: NewsletterList) {
  return renderWithAuth(<SubscribersTable listId={list.id} listName={list.name} />);
}

beforeEach(() => {
  signInAs(testUser());
  vi.mocked(notify).mockReset();
  vi.mocked(downloadText).mockReset();
});

describe('SubscribersTable', { timeout: 30_000 }, () => {
  it('reads one page at a time from the server and moves between pages', async () => {
    const list = makeList();
    const rows = subscribersOf(list, 120);
    seedNewsletter({ lists: [list, makeList()], subscribers: rows });
    const user = userEvent.setup();
    renderTable(list);
    await screen.findByRole('table', { name: 'Subscribers' }, SLOW);
    expect(tableEmails()).toEqual(rows.slice(0, 50).map((row) => row.email));
    expect(count()).toHaveTextContent('Showing 1–50 of 120 subscribers');
    expect(count()).toHaveAttribute('aria-live', 'polite');
    const [first] = pageReads();
    expect(first.get('list_id')).toBe(`eq.${list.id}`);
    expect(first.get('order')).toBe('created_at.desc,id.desc');
    expect([first.get('offset'), first.get('limit')]).toEqual(['0', '50']);

    const pages = screen.getByRole('navigation', { name: 'Subscriber pages' });
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(count()).toHaveTextContent('Showing 51–100 of 120 subscribers'));
    expect(tableEmails()).toEqual(rows.slice(50, 100).map((row) => row.email));
    expect(pageReads().at(-1)?.get('offset')).toBe('50');
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(count()).toHaveTextContent('Showing 101–120 of 120 subscribers'));
    expect(tableEmails()).toEqual(rows.slice(100).map((row) => row.email));
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(within(pages).getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(count()).toHaveTextContent('Showing 51–100 of 120 subscribers'));
  });

  it('searches on the server by e-mail or name, any case, once typing pauses', async () => {
    const list = makeList();
    const ada = makeSubscriber(list, { email: 'ada@example.com', name: 'Ada Lovelace' });
    const grace = makeSubscriber(list, { email: 'grace@navy.example', name: 'Grace Hopper' });
    const odd = makeSubscriber(list, { email: 'odd,(1)_%@example.com' });
    seedNewsletter({ lists: [list], subscribers: [...subscribersOf(list, 60), ada, grace, odd] });
    const user = userEvent.setup();
    renderTable(list);
    await screen.findByRole('table', { name: 'Subscribers' }, SLOW);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(count()).toHaveTextContent('Showing 51–63 of 63 subscribers'));

    const reads = pageReads().length;
    await user.type(screen.getByRole('searchbox', { name: 'Search subscribers' }), 'LOVELACE');
    await waitFor(() => expect(tableEmails()).toEqual(['ada@example.com']), SLOW);
    expect(count()).toHaveTextContent('Showing 1–1 of 1 matching subscriber');
    // One read for the typed word, from the first page, not one per key.
    const searched = pageReads().slice(reads);
    expect(searched).toHaveLength(1);
    expect(searched[0].get('or')).toBe('(email.ilike."%LOVELACE%",name.ilike."%LOVELACE%")');
    expect(searched[0].get('offset')).toBe('0');

    await user.clear(screen.getByRole('searchbox', { name: 'Search subscribers' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search subscribers' }), 'navy');
    await waitFor(() => expect(tableEmails()).toEqual(['grace@navy.example']));
    // The search's own characters match themselves: no wildcard, no broken filter.
    await user.clear(screen.getByRole('searchbox', { name: 'Search subscribers' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search subscribers' }), ',(1)_%');
    await waitFor(() => expect(tableEmails()).toEqual(['odd,(1)_%@example.com']));
    await user.clear(screen.getByRole('searchbox', { name: 'Search subscribers' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search subscribers' }), ')_%');
    await waitFor(() => expect(tableEmails()).toEqual(['odd,(1)_%@example.com']));
    // As wildcards, _ and % would match "1)…"; escaped, they do not.
    await user.clear(screen.getByRole('searchbox', { name: 'Search subscribers' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search subscribers' }), '1_%');
    expect(
      await screen.findByText('No subscribers match. Change the search or the status.', {}, SLOW),
    ).toBeInTheDocument();
    expect(count()).toHaveTextContent('No matching subscribers');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('filters by status on the server, with the search', async () => {
    const list = makeList();
    seedNewsletter({
      lists: [list],
      subscribers: [
        makeSubscriber(list, { email: 'bounce1@example.com', status: 'bounced' }),
        makeSubscriber(list, { email: 'pending1@example.com', status: 'pending' }),
        makeSubscriber(list, { email: 'bounce2@example.com', status: 'bounced' }),
        makeSubscriber(list, { email: 'left@example.com', status: 'unsubscribed' }),
        makeSubscriber(list, { email: 'here@example.com' }),
      ],
    });
    const user = userEvent.setup();
    renderTable(list);
    await screen.findByRole('table', { name: 'Subscribers' }, SLOW);
    expect(count()).toHaveTextContent('Showing 1–5 of 5 subscribers');
    expect(screen.queryByRole('navigation', { name: 'Subscriber pages' })).toBeNull();
    await user.selectOptions(screen.getByLabelText('Status'), 'Bounced');
    await waitFor(() =>
      expect(tableEmails()).toEqual(['bounce2@example.com', 'bounce1@example.com']),
    );
    expect(pageReads().at(-1)?.get('status')).toBe('eq.bounced');
    expect(count()).toHaveTextContent('Showing 1–2 of 2 matching subscribers');
    await user.type(screen.getByRole('searchbox', { name: 'Search subscribers' }), 'bounce1');
    await waitFor(() => expect(tableEmails()).toEqual(['bounce1@example.com']));
    await user.selectOptions(screen.getByLabelText('Status'), 'Pending');
    expect(
      await screen.findByText('No subscribers match. Change the search or the status.', {}, SLOW),
    ).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Status'), 'All');
    await user.clear(screen.getByRole('searchbox', { name: 'Search subscribers' }));
    await waitFor(() => expect(count()).toHaveTextContent('Showing 1–5 of 5 subscribers'));
  });

  it('shows a loading state, an error with a retry, and the empty list', async () => {
    // A list with nobody on it yet says how people get there.
    const empty = makeList();
    seedNewsletter({ lists: [empty] });
    const first = renderTable(empty);
    expect(await screen.findByText('No subscribers yet', {}, SLOW)).toBeInTheDocument();
    first.unmount();
    const list = makeList();
    seedNewsletter({ lists: [list] });
    holdRequests('get', 'list_subscribers');
    const held = renderTable(list);
    expect(await screen.findByRole('status', {}, SLOW)).toHaveTextContent('Loading subscribers…');
    held.unmount();
    failRequests('get', 'list_subscribers', pgError('PGRST000', 'down'), 503);
    renderTable(list);
    expect(
      await screen.findByText('The subscribers could not be loaded.', {}, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('exports every matching subscriber, read in chunks of 1 000, not only the page shown', async () => {
    const list = makeList({ name: 'Shop News!' });
    const confirmed = subscribersOf(list, 2100);
    const bounced = subscribersOf(list, 30, { status: 'bounced' });
    seedNewsletter({ lists: [list], subscribers: [...confirmed, ...bounced] });
    const user = userEvent.setup();
    renderTable(list);
    await screen.findByRole('table', { name: 'Subscribers' }, SLOW);
    expect(count()).toHaveTextContent('Showing 1–50 of 2,130 subscribers');
    const before = supabaseDb.requested('GET', 'list_subscribers').length;
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloadText).toHaveBeenCalledTimes(1), SLOW);
    const [csv, fileName] = vi.mocked(downloadText).mock.calls[0];
    expect(fileName).toMatch(/^shop-news-subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 2130);
    expect(new Set(lines.slice(1)).size).toBe(2130);
    expect(notify).toHaveBeenCalledWith('success', 'Export ready', '2130 subscribers exported.');
    // Three full chunks' worth: 1 000, 1 000, 130, then an empty one that ends the walk.
    const chunks = supabaseDb
      .requested('GET', 'list_subscribers')
      .slice(before)
      .map((request) => request.url.searchParams);
    expect(chunks.map((params) => params.get('limit'))).toEqual(['1000', '1000', '1000', '1000']);
    expect(chunks[0].has('or')).toBe(false);
    expect(chunks[1].get('or')).toMatch(/^\(created_at\.lt\."[^"]+",and\(created_at\.eq\./);

    // Under a filter, the export is what the filter holds.
    await user.selectOptions(screen.getByLabelText('Status'), 'Bounced');
    await waitFor(() => expect(count()).toHaveTextContent('of 30 matching subscribers'));
    await user.click(screen.getByRole('button', { name: 'Export matching' }));
    await waitFor(() => expect(downloadText).toHaveBeenCalledTimes(2), SLOW);
    expect(vi.mocked(downloadText).mock.calls[1][0].trimEnd().split('\r\n')).toHaveLength(31);
  });

  it('removes a subscriber after asking, and the next row moves up', async () => {
    const list = makeList();
    const rows = subscribersOf(list, 51);
    seedNewsletter({ lists: [list], subscribers: rows });
    const user = userEvent.setup();
    renderTable(list);
    await screen.findByRole('table', { name: 'Subscribers' }, SLOW);
    await user.click(screen.getByRole('button', { name: `Remove ${rows[0].email}` }));
    const confirm = await screen.findByRole('alertdialog', { name: `Remove ${rows[0].email}?` });
    await user.click(within(confirm).getByRole('button', { name: 'Remove subscriber' }));
    await waitFor(() => expect(count()).toHaveTextContent('Showing 1–50 of 50 subscribers'));
    await waitFor(() => expect(tableEmails()).toEqual(rows.slice(1, 51).map((row) => row.email)));
    expect(screen.queryByRole('navigation', { name: 'Subscriber pages' })).toBeNull();
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Subscriber removed',
      `${rows[0].email} is off the list.`,
    );
  });
});
