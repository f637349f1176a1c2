import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  LocationProbe,
  SLOW,
  currentLocation,
  renderWithProviders,
} from '../../../components/testing/render';
import { paths } from '../../../config/paths';
import { applyMessagesChange } from '../live-bindings';
import {
  failRequests,
  pgError,
  requestsTo,
  server,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import { FORM_BETA, FORM_CONTACT, makeFile, makeMessage, seedInbox } from '../testing/fixtures';
import { MessagesPanel } from './messages-panel';

// Small pages keep the paging test quick: 50 cards render slowly in jsdom.
vi.mock('../message-query', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../message-query')>()),
  PAGE_SIZE: 3,
}));

const FORMS = [FORM_CONTACT, FORM_BETA];

const ada = makeMessage({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Can I get a quote?',
  created_at: '2026-11-20T10:00:00+00:00',
  // Sent as tags, company, budget; jsonb hands the keys back in an order of its own.
  data: { budget: '5k', company: 'ACME', tags: ['olives', 'basil'] },
  field_order: ['tags', 'company', 'budget'],
  delivery: {
    status: 'sent',
    attempts: 1,
    last_error: null,
    next_attempt_at: '2026-11-20T10:00:00+00:00',
    sent_at: '2026-11-20T10:00:05+00:00',
  },
});
const anonymous = makeMessage({
  name: '',
  email: null,
  message: 'No name given',
  created_at: '2026-11-19T10:00:00+00:00',
  form_id: FORM_BETA.id,
  form: { name: FORM_BETA.name },
  read_at: '2026-11-19T11:00:00+00:00',
});
const spam = makeMessage({
  name: 'Spammer',
  message: 'Buy now',
  is_spam: true,
  created_at: '2026-11-18T10:00:00+00:00',
});

function renderPanel(route = '/dashboard/forms?tab=messages') {
  return renderWithProviders(
    <>
      <MessagesPanel forms={FORMS} />
      <LocationProbe />
    </>,
    { route },
  );
}

const card = (name: string) => screen.findByRole('article', { name: `Message from ${name}` }, SLOW);

beforeEach(() => {
  seedInbox([ada, anonymous, spam]);
});

describe('MessagesPanel', () => {
  it("shows the spec's card: form, From or 'Anonymous', Email or a dash, Message, date", async () => {
    renderPanel();
    const first = await card('Ada Lovelace');
    expect(within(first).getByText('Contact')).toBeInTheDocument();
    // The id is labelled as the form's, and may wrap anywhere on a narrow screen.
    const formId = within(first).getByText(FORM_CONTACT.id);
    expect(formId.parentElement).toHaveTextContent(`Form ID: ${FORM_CONTACT.id}`);
    expect(formId).toHaveStyle({ overflowWrap: 'anywhere' });
    expect(within(first).getByText('From')).toBeInTheDocument();
    expect(within(first).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(first).getByText('Can I get a quote?')).toBeInTheDocument();
    expect(within(first).getByText(/^Nov 20, 2026, \d{1,2}:\d{2} [AP]M$/)).toBeInTheDocument();
    expect(within(first).getByText('Unread.')).toBeInTheDocument();
    expect(within(first).getByText(/^E-mailed /)).toBeInTheDocument();
    // The first two custom fields in the order sent (a list on one line), and how many more.
    const terms = within(first)
      .getAllByRole('term')
      .map((term) => term.textContent);
    expect(terms).toEqual(['From', 'Email', 'Message', 'tags', 'company']);
    expect(within(first).getByText('olives, basil')).toBeInTheDocument();
    expect(within(first).getByText('ACME')).toBeInTheDocument();
    expect(within(first).queryByText('budget')).toBeNull();
    expect(within(first).getByText('+1 more field')).toBeInTheDocument();

    const second = await card('Anonymous');
    expect(within(second).getByText('Anonymous')).toBeInTheDocument();
    expect(within(second).getByText('—')).toBeInTheDocument();
    expect(within(second).getByText('Beta signup')).toBeInTheDocument();
    expect(within(second).queryByText('Unread.')).not.toBeInTheDocument();
    expect(within(second).queryByText(/more field/)).not.toBeInTheDocument();

    // The inbox leaves spam out, and asked the server for non-spam rows only.
    expect(screen.queryByRole('article', { name: 'Message from Spammer' })).not.toBeInTheDocument();
    expect(requestsTo('get', 'entries')[0].query).toMatchObject({ is_spam: 'eq.false' });
  });

  it('shows the page and the referrer a message came from, when the site runs the tracker', async () => {
    seedInbox([
      makeMessage({ name: 'Referred', source_page: '/contact', source_referrer: 'news.example' }),
      makeMessage({ name: 'Typed', source_page: '/pricing', source_referrer: null }),
      makeMessage({ name: 'Untracked' }),
    ]);
    renderPanel();
    expect(await card('Referred')).toHaveTextContent(/Page \/contact · From news\.example/);
    expect(await card('Typed')).toHaveTextContent(/Page \/pricing · Direct/);
    const untracked = await card('Untracked');
    expect(within(untracked).queryByText(/^Page/)).toBeNull();
    expect(untracked).not.toHaveTextContent(/Direct|From news/);
  });

  it('shows a message that arrives live, marked new and announced', async () => {
    const { queryClient } = renderPanel();
    await card('Ada Lovelace');
    const grace = makeMessage({ name: 'Grace Hopper', created_at: '2026-11-21T09:00:00+00:00' });
    supabaseDb.rows('entries').push({ ...grace });
    const { form: _form, delivery: _delivery, ...columns } = grace;
    await applyMessagesChange(queryClient, {
      table: 'entries',
      eventType: 'INSERT',
      new: { ...columns, user_id: 'owner', search_text: 'grace hopper' },
      old: {},
    });
    const arrived = await card('Grace Hopper');
    expect(within(arrived).getByText('New')).toBeInTheDocument();
    expect(screen.getAllByRole('article')[0]).toBe(arrived);
    expect(screen.getByText('New message from Grace Hopper.')).toBeInTheDocument();
  });

  it("says 'No messages received yet.' when there are none", async () => {
    seedInbox([]);
    renderPanel();
    expect(await screen.findByText('No messages received yet.', {}, SLOW)).toBeInTheDocument();
  });

  it('filters by the form in the URL, on the server', async () => {
    renderPanel(`/dashboard/forms?tab=messages&form=${FORM_BETA.id}`);
    await card('Anonymous');
    expect(screen.queryByRole('article', { name: 'Message from Ada Lovelace' })).toBeNull();
    const list = requestsTo('get', 'entries').find(({ query }) => query.limit === '4');
    expect(list?.query).toMatchObject({ form_id: `eq.${FORM_BETA.id}` });
    expect(screen.getByRole('combobox', { name: 'Filter by form' })).toHaveValue(FORM_BETA.id);
  });

  it('shows only messages with files on the server’s inner join, each card naming its files', async () => {
    const grace = makeMessage({
      name: 'Grace Hopper',
      created_at: '2026-11-21T10:00:00+00:00',
      files: [
        makeFile({ position: 2, name: 'photo.png' }),
        makeFile({ position: 1, name: 'cv.pdf', kind: 'pdf', mime_type: 'application/pdf' }),
      ],
    });
    seedInbox([grace, ada, anonymous, spam]);
    const user = userEvent.setup();
    renderPanel();
    const graceCard = await card('Grace Hopper');
    expect(graceCard).toHaveTextContent('2 files: cv.pdf, photo.png');
    expect(await card('Ada Lovelace')).not.toHaveTextContent(/files?:/);

    await user.click(screen.getByRole('checkbox', { name: 'Has files' }));
    await waitFor(
      () => expect(screen.queryByRole('article', { name: 'Message from Ada Lovelace' })).toBeNull(),
      SLOW,
    );
    expect(await card('Grace Hopper')).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent('files=1');
    const filtered = requestsTo('get', 'entries').at(-1);
    expect(filtered?.query.select).toContain('files:entry_files!inner(id,position,name');

    // Nothing with files in the spam view: it says so, and offers every message again.
    await user.click(screen.getByRole('button', { name: 'Spam' }));
    expect(await screen.findByText('No messages with files.', {}, SLOW)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all messages' }));
    expect(await card('Spammer')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Has files' })).not.toBeChecked();
  });

  it("shows a message's files in its drawer with the part the app passes in", async () => {
    const files = [makeFile({ name: 'cv.pdf', kind: 'pdf', mime_type: 'application/pdf' })];
    const withFiles = makeMessage({ name: 'Grace Hopper', files });
    seedInbox([withFiles, ada]);
    const renderFiles = vi.fn((shown: readonly { name: string }[]) => (
      <p>Files part: {shown.map((file) => file.name).join(', ')}</p>
    ));
    renderWithProviders(<MessagesPanel forms={FORMS} renderFiles={renderFiles} />, {
      route: `/dashboard/forms?tab=messages&message=${withFiles.id}`,
    });
    const drawer = await screen.findByRole('dialog', { name: 'Message from Grace Hopper' }, SLOW);
    expect(within(drawer).getByText('Files part: cv.pdf')).toBeInTheDocument();
    expect(renderFiles).toHaveBeenLastCalledWith(files);
  });

  it('keeps the tab when the form filter changes', async () => {
    renderPanel();
    await card('Ada Lovelace');
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Filter by form' }),
      FORM_CONTACT.id,
    );
    expect(currentLocation()).toHaveTextContent(
      `/dashboard/forms?tab=messages&form=${FORM_CONTACT.id}`,
    );
    await waitFor(
      () => expect(screen.queryByRole('article', { name: 'Message from Anonymous' })).toBeNull(),
      SLOW,
    );
  });

  it("shows spam with 'Not spam', and restores a message to the inbox", async () => {
    renderPanel('/dashboard/forms?tab=messages&view=spam');
    const spamCard = await card('Spammer');
    expect(screen.queryByRole('article', { name: 'Message from Ada Lovelace' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Spam' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(within(spamCard).getByRole('button', { name: 'Not spam' }));
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Message from Spammer' })).toBeNull(),
    );
    const update = requestsTo('patch', 'entries')[0];
    expect(update.body).toEqual({ is_spam: false });
    expect(update.query).toMatchObject({ id: `in.(${spam.id})` });
  });

  it('searches on the server after typing stops, and says when nothing matches', async () => {
    renderPanel();
    await card('Ada Lovelace');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'Zebra%');
    expect(await screen.findByText('No messages match your search.', {}, SLOW)).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent('q=Zebra%25');
    expect(currentLocation()).toHaveTextContent('tab=messages');
    const searched = requestsTo('get', 'entries').at(-1);
    expect(searched?.query).toMatchObject({ search_text: 'ilike.%zebra\\%%' });
  });

  it("finds a message by a custom field's value, a list's item included", async () => {
    renderPanel();
    await card('Ada Lovelace');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'basil');
    await waitFor(
      () => expect(screen.queryByRole('article', { name: 'Message from Anonymous' })).toBeNull(),
      SLOW,
    );
    expect(await card('Ada Lovelace')).toBeInTheDocument();
    expect(requestsTo('get', 'entries').at(-1)?.query).toMatchObject({
      search_text: 'ilike.%basil%',
    });
  });

  it('opens a message with every field, and marks it read', async () => {
    renderPanel();
    // From the keyboard: the card takes focus and opens with Enter.
    (await card('Ada Lovelace')).focus();
    await userEvent.keyboard('{Enter}');
    const drawer = await screen.findByRole('dialog', { name: 'Message from Ada Lovelace' }, SLOW);
    // Every custom field in the order sent; a repeated one as a list.
    const names = [...drawer.querySelectorAll('dt')].map((term) => term.textContent);
    expect(names.slice(-3)).toEqual(['tags', 'company', 'budget']);
    const tags = within(drawer).getByRole('list', { name: 'tags' });
    expect(
      within(tags)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['olives', 'basil']);
    expect(within(drawer).getByText('ACME')).toBeInTheDocument();
    expect(within(drawer).getByText('5k')).toBeInTheDocument();
    expect(within(drawer).getByText(FORM_CONTACT.id).parentElement).toHaveTextContent(
      `Form ID: ${FORM_CONTACT.id}`,
    );
    expect(within(drawer).getByRole('link', { name: 'ada@example.com' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^mailto:ada@example\.com\?/),
    );
    expect(currentLocation()).toHaveTextContent(`message=${ada.id}`);
    await waitFor(() => expect(requestsTo('patch', 'entries')).toHaveLength(1));
    expect(requestsTo('patch', 'entries')[0].body).toEqual({
      read_at: expect.any(String),
    });
    expect(within(drawer).getByRole('button', { name: 'Mark as unread' })).toBeInTheDocument();
  });

  it('shows bidirectional controls in names, form names and field names as visible tokens', async () => {
    // Obeyed, U+202E would show 'Eve\u202Efdp.exe' as 'Eveexe.pdf' and reorder what follows it.
    const spoofForm = { id: FORM_BETA.id, name: 'Pay\u2066ments\u2069' };
    const eve = makeMessage({
      name: 'Eve\u202Efdp.exe',
      form_id: spoofForm.id,
      form: { name: spoofForm.name },
      data: { 'ref\u200F': 'x' },
    });
    seedInbox([eve]);
    renderWithProviders(<MessagesPanel forms={[FORM_CONTACT, spoofForm]} />, {
      route: '/dashboard/forms?tab=messages',
    });
    const shown = await card('Eve[U+202E]fdp.exe');
    expect(within(shown).getByText('Eve[U+202E]fdp.exe')).toBeInTheDocument();
    expect(within(shown).getByText('Pay[U+2066]ments[U+2069]')).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Pay[U+2066]ments[U+2069]' })).toBeInTheDocument();

    await userEvent.click(shown);
    const drawer = await screen.findByRole(
      'dialog',
      { name: 'Message from Eve[U+202E]fdp.exe' },
      SLOW,
    );
    expect(within(drawer).getByText('Eve[U+202E]fdp.exe')).toBeInTheDocument();
    expect(within(drawer).getByText('Pay[U+2066]ments[U+2069]')).toBeInTheDocument();
    expect(within(drawer).getByText('ref[U+200F]')).toBeInTheDocument();
    // Nothing on the page obeys one; the stored row is left as it was.
    expect(document.body.textContent).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    expect(supabaseDb.rows('entries')[0]?.name).toBe('Eve\u202Efdp.exe');
  });

  it('reads a deep-linked message by id (the notification e-mail’s link)', async () => {
    seedInbox([spam]);
    renderPanel(paths.dashboardMessage(spam.id));
    const drawer = await screen.findByRole('dialog', { name: 'Message from Spammer' }, SLOW);
    expect(within(drawer).getByRole('button', { name: 'Not spam' })).toBeInTheDocument();
  });

  it('deletes a message after confirmation', async () => {
    renderPanel();
    await userEvent.click(
      within(await card('Ada Lovelace')).getByRole('button', { name: 'Delete' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this message?' }, SLOW);
    expect(requestsTo('delete', 'entries')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete message' }));
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Message from Ada Lovelace' })).toBeNull(),
    );
    expect(requestsTo('delete', 'entries')[0].query).toMatchObject({ id: `in.(${ada.id})` });
  });

  it('puts a message back when the server refuses to delete it', async () => {
    failRequests('patch', 'entries', pgError('42501', 'permission denied'));
    failRequests('delete', 'entries', pgError('42501', 'permission denied'));
    renderPanel();
    await userEvent.click(
      within(await card('Ada Lovelace')).getByRole('button', { name: 'Delete' }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Delete message' }, SLOW));
    await waitFor(() => expect(requestsTo('delete', 'entries')).toHaveLength(1));
    expect(await card('Ada Lovelace')).toBeInTheDocument();
  });

  it('acts on every selected message at once', async () => {
    renderPanel();
    await card('Ada Lovelace');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all loaded messages' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('2 selected')).toBeInTheDocument();
    await userEvent.click(within(bar).getByRole('button', { name: 'Mark as spam' }));
    await waitFor(() => expect(screen.queryAllByRole('article')).toHaveLength(0));
    const update = requestsTo('patch', 'entries')[0];
    expect(update.body).toEqual({ is_spam: true });
    expect(update.query).toMatchObject({ id: `in.(${ada.id},${anonymous.id})` });
  });

  it('labels each selection box with its sender', async () => {
    renderPanel();
    await card('Anonymous');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select message from Anonymous' }));
    expect(
      within(screen.getByRole('region', { name: 'Bulk actions' })).getByText('1 selected'),
    ).toBeInTheDocument();
  });

  it('loads older messages with the keyset cursor', async () => {
    const many = Array.from({ length: 5 }, (_, i) =>
      makeMessage({
        name: `Sender ${i}`,
        created_at: new Date(Date.UTC(2026, 10, 20, 10, 0, 50 - i)).toISOString(),
      }),
    );
    seedInbox(many);
    renderPanel();
    await card('Sender 0');
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(screen.getByText('3 messages loaded')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await card('Sender 4');
    expect(screen.getAllByRole('article')).toHaveLength(5);
    const last = many[2];
    expect(requestsTo('get', 'entries').at(-1)?.query.or).toBe(
      `(created_at.lt.${last.created_at},and(created_at.eq.${last.created_at},id.lt.${last.id}))`,
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByText('5 messages', { selector: 'p' })).toBeInTheDocument();
  });

  it('shows an error with a retry', async () => {
    failRequests('get', 'entries', pgError('', 'network down'));
    renderPanel();
    const retry = await screen.findByRole('button', { name: 'Try again' }, SLOW);
    expect(screen.getByText('Your messages could not be loaded.')).toBeInTheDocument();
    server.resetHandlers();
    await userEvent.click(retry);
    expect(await card('Ada Lovelace')).toBeInTheDocument();
  });
});
