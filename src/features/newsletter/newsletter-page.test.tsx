import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { SLOW } from '../../components/testing/render';
import { renderWithAuth } from '../../components/testing/render-with-auth';
import {
  failRequests,
  holdRequests,
  pgError,
  requestsTo,
  signInAs,
  supabaseDb,
  supabaseRealtime,
  testUser,
} from '../../components/testing/supabase-server';
import { notify } from '../../components/toaster';
import { useLiveSync } from '../../lib/live-sync';
import { IMPORT_CHUNK_SIZE } from './api/import-subscribers';
import { newsletterLiveBindings } from './live-bindings';
import { NewsletterPage } from './newsletter-page';
import { makeList, makeSubscriber, OWNER_ID, seedNewsletter } from './testing/fixtures';

vi.mock('../../components/toaster', () => ({ notify: vi.fn() }));

function Live() {
  useLiveSync(OWNER_ID, newsletterLiveBindings);
  return null;
}

function renderPage(route = '/dashboard/newsletter') {
  return renderWithAuth(
    <>
      <Live />
      <Routes>
        <Route path="/dashboard/newsletter" element={<NewsletterPage />} />
      </Routes>
    </>,
    { route },
  );
}

const subscribersTable = () => screen.getByRole('table', { name: 'Subscribers' });
const tableEmails = () =>
  within(subscribersTable())
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent);

function csvFile(text: string, name = 'people.csv') {
  return new File([text], name, { type: 'text/csv' });
}

beforeEach(() => {
  signInAs(testUser());
  vi.mocked(notify).mockReset();
});

describe('NewsletterPage lists', { timeout: 30_000 }, () => {
  it('shows a loading state, then an error with a retry', async () => {
    seedNewsletter();
    holdRequests('get', 'newsletter_lists');
    const { unmount } = renderPage();
    expect(
      await screen.findByRole('status', { name: 'Loading your lists' }, SLOW),
    ).toBeInTheDocument();
    unmount();
    failRequests('get', 'newsletter_lists', pgError('PGRST000', 'down'), 503);
    renderPage();
    expect(
      await screen.findByText('Your lists could not be loaded.', {}, SLOW),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('checks a new list in the dialog before sending it, then creates it and shows it', async () => {
    seedNewsletter();
    const user = userEvent.setup();
    renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Newsletter' }, SLOW),
    ).toBeInTheDocument();
    expect(document.title).toBe('Newsletter · tinyback.tools');
    expect(await screen.findByText('No lists yet', {}, SLOW)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New list' }));
    const dialog = await screen.findByRole('dialog', { name: 'New list' });
    await user.click(within(dialog).getByRole('button', { name: 'Create list' }));
    expect(await within(dialog).findByText('Enter a name for the list.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Enter the address of the website your signup form is on.'),
    ).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^List name/), 'Product updates');
    await user.type(within(dialog).getByLabelText(/^Sender name/), 'Ada <ada@example.com>');
    await user.type(within(dialog).getByLabelText(/^Reply-to address/), 'nope');
    await user.type(
      within(dialog).getByLabelText(/^Your site's address/),
      'https://Example.com/signup',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create list' }));
    expect(
      await within(dialog).findByText('A sender name is a plain name, without @, < or >.'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('Enter a valid e-mail address, e.g. you@example.com.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/Enter only the site’s address/)).toBeInTheDocument();
    expect(supabaseDb.requested('POST', 'newsletter_lists')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText(/^Sender name/));
    await user.type(within(dialog).getByLabelText(/^Sender name/), 'Ada at Example');
    await user.clear(within(dialog).getByLabelText(/^Reply-to address/));
    await user.clear(within(dialog).getByLabelText(/^Your site's address/));
    await user.type(within(dialog).getByLabelText(/^Your site's address/), 'https://Example.com/');
    await user.type(within(dialog).getByLabelText('Confirmation words'), 'Welcome aboard!');
    await user.click(within(dialog).getByRole('button', { name: 'Create list' }));
    await waitFor(() => expect(supabaseDb.requested('POST', 'newsletter_lists')).toHaveLength(1));
    expect(supabaseDb.requested('POST', 'newsletter_lists')[0].body).toEqual({
      name: 'Product updates',
      from_name: 'Ada at Example',
      reply_to: null,
      allowed_origin: 'https://example.com',
      confirm_message: 'Welcome aboard!',
    });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Product updates' }, SLOW),
    ).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith('success', 'List created', expect.any(String));
    expect(screen.getByText('No subscribers yet')).toBeInTheDocument();
  });

  it('edits a list, and deletes it after asking', async () => {
    const list = makeList({ name: 'Weekly' });
    seedNewsletter({ lists: [list] });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('heading', { level: 2, name: 'Weekly' }, SLOW);
    await user.click(screen.getByRole('button', { name: 'Edit list' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit list' });
    const name = within(dialog).getByLabelText(/^List name/);
    expect(name).toHaveValue('Weekly');
    await user.clear(name);
    await user.type(name, 'Monthly');
    await user.click(within(dialog).getByRole('button', { name: 'Save list' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Monthly' }, SLOW),
    ).toBeInTheDocument();
    expect(supabaseDb.requested('PATCH', 'newsletter_lists')[0].body).toMatchObject({
      name: 'Monthly',
    });

    await user.click(screen.getByRole('button', { name: 'Delete list' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Monthly?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete list' }));
    expect(await screen.findByText('No lists yet', {}, SLOW)).toBeInTheDocument();
    expect(supabaseDb.requested('DELETE', 'newsletter_lists')).toHaveLength(1);
    expect(notify).toHaveBeenCalledWith('success', 'List deleted', expect.any(String));
  });
});

describe('NewsletterPage subscribers', { timeout: 30_000 }, () => {
  it('counts subscribers by status, searches, filters and removes one after asking', async () => {
    const list = makeList({ name: 'Weekly' });
    const other = makeList({ name: 'Other' });
    seedNewsletter({
      lists: [list, other],
      subscribers: [
        makeSubscriber(list, { email: 'ada@example.com', name: 'Ada Lovelace' }),
        makeSubscriber(list, { email: 'bob@example.com', status: 'pending' }),
        makeSubscriber(list, { email: 'cy@example.com', status: 'unsubscribed' }),
        makeSubscriber(list, { email: 'dee@example.com', status: 'confirmed', source: 'import' }),
        makeSubscriber(other, { email: 'elsewhere@example.com' }),
      ],
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table', { name: 'Subscribers' }, SLOW);
    // Newest first.
    expect(tableEmails()).toEqual([
      'dee@example.com',
      'cy@example.com',
      'bob@example.com',
      'ada@example.com',
    ]);
    const counts = screen.getByLabelText('Subscribers by status');
    expect(within(counts).getByText('Confirmed').nextElementSibling).toHaveTextContent('2');
    expect(within(counts).getByText('Pending').nextElementSibling).toHaveTextContent('1');
    expect(within(counts).getByText('Unsubscribed').nextElementSibling).toHaveTextContent('1');
    expect(within(counts).getByText('Bounced').nextElementSibling).toHaveTextContent('0');

    await user.type(screen.getByRole('searchbox', { name: 'Search subscribers' }), 'LOVELACE');
    await waitFor(() => expect(tableEmails()).toEqual(['ada@example.com']));
    await user.clear(screen.getByRole('searchbox', { name: 'Search subscribers' }));
    await user.selectOptions(screen.getByLabelText('Status'), 'Confirmed');
    await waitFor(() => expect(tableEmails()).toEqual(['dee@example.com', 'ada@example.com']));
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1–2 of 2 matching subscribers');

    await user.click(screen.getByRole('button', { name: 'Remove ada@example.com' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove ada@example.com?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove subscriber' }));
    await waitFor(() => expect(tableEmails()).toEqual(['dee@example.com']));
    const [removal] = supabaseDb.requested('DELETE', 'list_subscribers');
    expect(removal.url.searchParams.get('id')).toMatch(/^eq\./);
    expect(supabaseDb.rows('list_subscribers').map((row) => row.email)).not.toContain(
      'ada@example.com',
    );
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Subscriber removed',
      'ada@example.com is off the list.',
    );

    // The other list's subscribers are its own.
    await user.selectOptions(screen.getByLabelText('List'), 'Other');
    await waitFor(() => expect(tableEmails()).toEqual(['elsewhere@example.com']));
  });

  it('shows a new signup as Realtime reports it', async () => {
    const list = makeList();
    seedNewsletter({
      lists: [list],
      subscribers: [makeSubscriber(list, { email: 'a@example.com' })],
    });
    renderPage();
    await screen.findByRole('table', { name: 'Subscribers' }, SLOW);
    await waitFor(() => expect(supabaseRealtime.channels()).toHaveLength(1), SLOW);
    const signup = makeSubscriber(list, {
      email: 'new@example.com',
      status: 'pending',
      created_at: new Date().toISOString(),
    });
    supabaseDb.rows('list_subscribers').push(signup);
    act(() =>
      supabaseRealtime.change({ table: 'list_subscribers', eventType: 'INSERT', new: signup }),
    );
    await waitFor(() => expect(tableEmails()).toEqual(['new@example.com', 'a@example.com']));
    supabaseDb.setRows(
      'list_subscribers',
      supabaseDb.rows('list_subscribers').filter((row) => row.id !== signup.id),
    );
    act(() =>
      supabaseRealtime.change({
        table: 'list_subscribers',
        eventType: 'DELETE',
        old: { id: signup.id, user_id: OWNER_ID },
      }),
    );
    await waitFor(() => expect(tableEmails()).toEqual(['a@example.com']));
  });

  it('shows the signup form code for the list, posting to its endpoint', async () => {
    const list = makeList({ allowed_origin: 'https://shop.example' });
    seedNewsletter({ lists: [list] });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('tab', { name: 'Signup form' }, SLOW));
    const code = await screen.findByRole('textbox', { name: 'Signup form code (HTML)' });
    expect((code as HTMLTextAreaElement).value).toContain(
      `/functions/v1/newsletter/lists/${list.id}" method="POST"`,
    );
    expect((code as HTMLTextAreaElement).value).toContain('name="_gotcha"');
    expect(screen.getByText(/Paste this on https:\/\/shop.example/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy code: HTML signup form' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'JavaScript (fetch)' }));
    expect(
      (
        (await screen.findByRole('textbox', {
          name: 'Signup form code (JavaScript (fetch))',
        })) as HTMLTextAreaElement
      ).value,
    ).toContain("'Content-Type': 'application/json'");
  });
});

describe('NewsletterPage import', { timeout: 60_000 }, () => {
  async function openImport(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('tab', { name: 'Import' }, SLOW));
    return screen.findByLabelText('CSV file');
  }

  it('imports only once the owner states and confirms consent, then reports by file row', async () => {
    const list = makeList({ name: 'Weekly' });
    seedNewsletter({
      lists: [list],
      subscribers: [makeSubscriber(list, { email: 'known@example.com' })],
    });
    const user = userEvent.setup();
    renderPage();
    const input = await openImport(user);
    await user.upload(
      input,
      csvFile(
        'Name,Email\r\n"Lovelace, Ada",ada@example.com\r\nBob,not-an-address\r\n,known@example.com\r\nAda again,ADA@example.com\r\n',
      ),
    );
    expect(await screen.findByText('4 rows to import from people.csv.')).toBeInTheDocument();
    const importButton = screen.getByRole('button', { name: 'Import subscribers' });
    expect(importButton).toBeDisabled();
    const statement = screen.getByLabelText(/How did these people agree/);
    await user.type(statement, 'They signed up at our shop counter in 2025.');
    expect(importButton).toBeDisabled();
    const agreed = screen.getByRole('checkbox', {
      name: 'These people agreed to receive e-mail from me',
    });
    await user.click(agreed);
    expect(importButton).toBeEnabled();
    await user.clear(statement);
    await user.type(statement, 'short');
    expect(importButton).toBeDisabled();
    expect(supabaseDb.rpcsCalled()).toEqual([]);
    await user.clear(statement);
    await user.type(statement, 'They signed up at our shop counter in 2025.');
    await user.click(importButton);

    const report = await screen.findByRole('region', { name: 'Import report' }, SLOW);
    expect(report).toHaveTextContent('1 added · 2 duplicates · 1 invalid');
    expect(
      within(report).getByText('Row 3: not-an-address — Not an e-mail address'),
    ).toBeInTheDocument();
    expect(within(report).getByText('Row 4: known@example.com')).toBeInTheDocument();
    expect(within(report).getByText('Row 5: ada@example.com')).toBeInTheDocument();
    const [call] = requestsTo('post', 'rpc/import_list_subscribers');
    expect(call.body).toEqual({
      p_list_id: list.id,
      p_rows: [
        { email: 'ada@example.com', name: 'Lovelace, Ada' },
        { email: 'not-an-address', name: 'Bob' },
        { email: 'known@example.com' },
        { email: 'ADA@example.com', name: 'Ada again' },
      ],
      p_consent_statement: 'They signed up at our shop counter in 2025.',
    });
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Import finished',
      '1 subscriber added to Weekly.',
    );
  });

  it('sends a large file in chunks of at most 10 000 rows', async () => {
    const list = makeList();
    seedNewsletter({ lists: [list] });
    const user = userEvent.setup();
    renderPage();
    const input = await openImport(user);
    const lines = ['email'];
    for (let i = 0; i < IMPORT_CHUNK_SIZE + 2; i++) lines.push(`reader${i}@example.com`);
    // A bad row in the second chunk is reported by its row in the file.
    lines[IMPORT_CHUNK_SIZE + 2] = 'broken';
    await user.upload(input, csvFile(lines.join('\n'), 'big.csv'));
    expect(await screen.findByText('10002 rows to import from big.csv.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/How did these people agree/), 'Customers who opted in.');
    await user.click(
      screen.getByRole('checkbox', { name: 'These people agreed to receive e-mail from me' }),
    );
    await user.click(screen.getByRole('button', { name: 'Import subscribers' }));
    const report = await screen.findByRole(
      'region',
      { name: 'Import report' },
      { timeout: 30_000 },
    );
    expect(report).toHaveTextContent('10001 added · 0 duplicates · 1 invalid');
    expect(within(report).getByText(/^Row 10003: broken/)).toBeInTheDocument();
    const calls = requestsTo('post', 'rpc/import_list_subscribers');
    expect(calls.map((c) => (c.body as { p_rows: unknown[] }).p_rows.length)).toEqual([
      IMPORT_CHUNK_SIZE,
      2,
    ]);
  });

  it('says why a file cannot be imported', async () => {
    const list = makeList();
    seedNewsletter({ lists: [list] });
    const user = userEvent.setup();
    renderPage();
    const input = await openImport(user);
    await user.upload(input, csvFile('ada@example.com\nbob@example.com', 'bare.csv'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'bare.csv: The first row must name the columns',
    );
    expect(screen.getByRole('button', { name: 'Import subscribers' })).toBeDisabled();
  });

  it("shows the database's refusal in the feature's words", async () => {
    const list = makeList();
    seedNewsletter({ lists: [list] });
    failRequests('post', 'rpc/import_list_subscribers', pgError('PT404', 'gone'));
    const user = userEvent.setup();
    renderPage();
    const input = await openImport(user);
    await user.upload(input, csvFile('email\nada@example.com'));
    await user.type(
      await screen.findByLabelText(/How did these people agree/),
      'They asked for it by e-mail.',
    );
    await user.click(
      screen.getByRole('checkbox', { name: 'These people agreed to receive e-mail from me' }),
    );
    await user.click(screen.getByRole('button', { name: 'Import subscribers' }));
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'This list no longer exists. Reload the page.',
    );
  });
});
