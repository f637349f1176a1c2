import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { currentLocation, SLOW } from '../../components/testing/render';
import { renderWithAuth } from '../../components/testing/render-with-auth';
import { http, HttpResponse } from 'msw';
import {
  answerFunction,
  failRequests,
  pgError,
  requestsTo,
  server,
  signInAs,
  supabaseDb,
  supabaseRealtime,
  testUser,
} from '../../components/testing/supabase-server';
import { env } from '../../config/env';
import { notify } from '../../components/toaster';
import { useLiveSync } from '../../lib/live-sync';
import { CampaignPage } from './campaign-page';
import { newsletterLiveBindings } from './live-bindings';
import { NewsletterPage } from './newsletter-page';
import {
  makeCampaign,
  makeList,
  makeSubscriber,
  OWNER_ID,
  seedNewsletter,
} from './testing/fixtures';

vi.mock('../../components/toaster', () => ({ notify: vi.fn() }));

function Live() {
  useLiveSync(OWNER_ID, newsletterLiveBindings);
  return null;
}

function renderAt(route: string) {
  return renderWithAuth(
    <>
      <Live />
      <Routes>
        <Route path="/dashboard/newsletter" element={<NewsletterPage />} />
        <Route path="/dashboard/newsletter/campaigns/:id" element={<CampaignPage />} />
      </Routes>
    </>,
    { route },
  );
}

const campaignRoute = (id: string) => `/dashboard/newsletter/campaigns/${id}`;

beforeEach(() => {
  signInAs(testUser());
  vi.mocked(notify).mockReset();
});

describe('CampaignPage composer', { timeout: 30_000 }, () => {
  it('saves a draft with a live Markdown preview, then sends it after naming the list and its confirmed subscribers', async () => {
    const list = makeList({ name: 'Weekly' });
    const draft = makeCampaign(list);
    seedNewsletter({
      lists: [list],
      campaigns: [draft],
      subscribers: [
        makeSubscriber(list),
        makeSubscriber(list),
        makeSubscriber(list, { status: 'pending' }),
      ],
    });
    const user = userEvent.setup();
    renderAt(campaignRoute(draft.id));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'New campaign' }, SLOW),
    ).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Send now' });
    const schedule = screen.getByRole('button', { name: 'Schedule…' });
    expect(send).toBeDisabled();
    expect(schedule).toBeDisabled();
    expect(
      screen.getByText('Write a subject and a message, and save them, to send.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('List')).toHaveValue(list.id);

    await user.type(screen.getByLabelText('Subject'), 'November news');
    await user.type(
      screen.getByLabelText('Message (Markdown)'),
      '## Hello readers{enter}{enter}**New** things.',
    );
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(
      within(preview).getByRole('heading', { level: 3, name: 'Hello readers' }),
    ).toBeInTheDocument();
    expect(within(preview).getByText('New').tagName).toBe('STRONG');
    expect(screen.getByText('Save your changes before sending.')).toBeInTheDocument();
    expect(send).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(supabaseDb.requested('PATCH', 'campaigns')).toHaveLength(1));
    expect(supabaseDb.requested('PATCH', 'campaigns')[0].body).toEqual({
      list_id: list.id,
      subject: 'November news',
      body_markdown: '## Hello readers\n\n**New** things.',
      // Blank: the list's sender.
      from_name: null,
      reply_to: null,
    });
    expect(notify).toHaveBeenCalledWith('success', 'Draft saved');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send now' })).toBeEnabled());

    await user.click(screen.getByRole('button', { name: 'Send now' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Send to Weekly now?' });
    await waitFor(() =>
      expect(confirm).toHaveTextContent('goes to the 2 confirmed subscribers of Weekly'),
    );
    await user.click(within(confirm).getByRole('button', { name: 'Send now' }));
    expect(await screen.findByText('Sending', { selector: 'span' }, SLOW)).toBeInTheDocument();
    expect(requestsTo('post', 'rpc/campaign_start')[0].body).toEqual({ p_campaign_id: draft.id });
    expect(notify).toHaveBeenCalledWith('success', 'Sending started', '2 recipients on Weekly.');
    // The sender is woken at once rather than at its next scheduled run.
    await waitFor(() =>
      expect(supabaseDb.requested('POST', 'functions/forms/_campaigns')).toHaveLength(1),
    );
    expect(await screen.findByRole('button', { name: 'Pause' }, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel campaign' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Sending progress' })).toHaveAttribute(
      'aria-valuemax',
      '2',
    );
  });

  it("saves the draft's own sender name and reply-to, checked as the database checks them", async () => {
    const list = makeList({
      name: 'Weekly',
      from_name: 'Weekly desk',
      reply_to: 'desk@example.com',
    });
    const draft = makeCampaign(list);
    seedNewsletter({ lists: [list], campaigns: [draft] });
    const user = userEvent.setup();
    renderAt(campaignRoute(draft.id));
    const name = await screen.findByLabelText('Sender name', {}, SLOW);
    // The list's own show where the draft has none.
    expect(name).toHaveAttribute('placeholder', 'Weekly desk');
    expect(screen.getByLabelText('Reply-to')).toHaveAttribute('placeholder', 'desk@example.com');

    await user.type(name, 'Ada <ada@example.com>');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('A sender name is a plain name, without @, < or >.'),
    ).toBeInTheDocument();
    expect(supabaseDb.requested('PATCH', 'campaigns')).toHaveLength(0);

    await user.clear(name);
    await user.type(name, '  Ada at Weekly ');
    await user.type(screen.getByLabelText('Reply-to'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(supabaseDb.requested('PATCH', 'campaigns')).toHaveLength(1));
    expect(supabaseDb.requested('PATCH', 'campaigns')[0].body).toMatchObject({
      from_name: 'Ada at Weekly',
      reply_to: 'ada@example.com',
    });
  });

  it("schedules a draft in the owner's zone, and unschedules it back to a draft", async () => {
    const list = makeList({ name: 'Weekly' });
    const draft = makeCampaign(list, { subject: 'Launch', body_markdown: 'Soon.' });
    seedNewsletter({ lists: [list], campaigns: [draft] });
    const user = userEvent.setup();
    renderAt(campaignRoute(draft.id));
    await user.click(await screen.findByRole('button', { name: 'Schedule…' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule the campaign' });
    expect(within(dialog).getByText(/^Your time zone: /)).toBeInTheDocument();
    const when = within(dialog).getByLabelText(/^Send at/);
    fireEvent.change(when, { target: { value: '2020-01-02T09:30' } });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await within(dialog).findByText('Pick a time in the future.')).toBeInTheDocument();
    fireEvent.change(when, { target: { value: '2035-01-02T09:30' } });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(requestsTo('post', 'rpc/campaign_start')).toHaveLength(1));
    expect(requestsTo('post', 'rpc/campaign_start')[0].body).toEqual({
      p_campaign_id: draft.id,
      p_at: new Date('2035-01-02T09:30').toISOString(),
    });
    expect(await screen.findByText(/^Scheduled for /, {}, SLOW)).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith('success', 'Campaign scheduled', expect.any(String));

    await user.click(screen.getByRole('button', { name: 'Unschedule' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Unschedule this campaign?' });
    await user.click(within(confirm).getByRole('button', { name: 'Unschedule' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Draft: Launch' }, SLOW),
    ).toBeInTheDocument();
    expect(requestsTo('post', 'rpc/campaign_control')[0].body).toEqual({
      p_campaign_id: draft.id,
      p_action: 'unschedule',
    });
    expect(notify).toHaveBeenCalledWith('success', 'Campaign unscheduled', 'It is a draft again.');
  });

  it("says in the feature's words when the database refuses to send (22023)", async () => {
    const list = makeList({ name: 'Weekly' });
    const draft = makeCampaign(list, { subject: 'Launch', body_markdown: 'Soon.' });
    seedNewsletter({ lists: [list], campaigns: [draft] });
    failRequests(
      'post',
      'rpc/campaign_start',
      pgError('22023', 'Write a subject and a message first.'),
    );
    const user = userEvent.setup();
    renderAt(campaignRoute(draft.id));
    await user.click(await screen.findByRole('button', { name: 'Send now' }, SLOW));
    const confirm = await screen.findByRole('alertdialog', { name: 'Send to Weekly now?' });
    await user.click(within(confirm).getByRole('button', { name: 'Send now' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'Write a subject and a message, and save them, before sending.',
    );
  });

  it('warns before sending to a list without confirmed subscribers', async () => {
    const list = makeList({ name: 'Quiet' });
    const draft = makeCampaign(list, { subject: 'Hello', body_markdown: 'Hi.' });
    seedNewsletter({
      lists: [list],
      campaigns: [draft],
      subscribers: [makeSubscriber(list, { status: 'pending' })],
    });
    const user = userEvent.setup();
    renderAt(campaignRoute(draft.id));
    await user.click(await screen.findByRole('button', { name: 'Send now' }, SLOW));
    const confirm = await screen.findByRole('alertdialog', { name: 'Send to Quiet now?' });
    await waitFor(() =>
      expect(confirm).toHaveTextContent('Quiet has no confirmed subscribers yet'),
    );
  });

  it('deletes a draft after asking and goes back to the campaigns', async () => {
    const list = makeList();
    const draft = makeCampaign(list, { subject: 'Old idea' });
    seedNewsletter({ lists: [list], campaigns: [draft] });
    const user = userEvent.setup();
    renderAt(campaignRoute(draft.id));
    await user.click(await screen.findByRole('button', { name: 'Delete draft' }, SLOW));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this draft?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete draft' }));
    await waitFor(() =>
      expect(currentLocation()).toHaveTextContent('/dashboard/newsletter?tab=campaigns'),
    );
    expect(supabaseDb.rows('campaigns')).toHaveLength(0);
  });

  it('says when the campaign does not exist', async () => {
    seedNewsletter({ lists: [makeList()] });
    renderAt(campaignRoute('not-an-id'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Campaign not found' }, SLOW),
    ).toBeInTheDocument();
  });
});

describe('CampaignPage controls', { timeout: 30_000 }, () => {
  it('shows the progress live, pauses and resumes after asking', async () => {
    const list = makeList({ name: 'Weekly' });
    const sending = makeCampaign(list, {
      subject: 'Big news',
      body_markdown: 'Read **this**.',
      status: 'sending',
      started_at: new Date().toISOString(),
      recipients: 10,
      sent: 3,
      failed: 1,
    });
    seedNewsletter({ lists: [list], campaigns: [sending] });
    const user = userEvent.setup();
    renderAt(campaignRoute(sending.id));
    const progress = await screen.findByRole('progressbar', { name: 'Sending progress' }, SLOW);
    expect(progress).toHaveAttribute('aria-valuenow', '4');
    expect(screen.getByText('4 of 10 processed (40%)')).toBeInTheDocument();
    await waitFor(() => expect(supabaseRealtime.channels()).toHaveLength(1), SLOW);
    act(() =>
      supabaseRealtime.change({
        table: 'campaigns',
        eventType: 'UPDATE',
        new: { ...sending, sent: 8, failed: 1, bounced: 1 },
      }),
    );
    await waitFor(() => expect(progress).toHaveAttribute('aria-valuenow', '9'));
    const counts = screen.getByLabelText('Campaign counts');
    expect(within(counts).getByText('Bounced').nextElementSibling).toHaveTextContent('1');

    await user.click(screen.getByRole('button', { name: 'Pause' }));
    const pause = await screen.findByRole('alertdialog', { name: 'Pause sending?' });
    await user.click(within(pause).getByRole('button', { name: 'Pause sending' }));
    expect(await screen.findByRole('button', { name: 'Resume' }, SLOW)).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith('success', 'Sending paused', expect.any(String));
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    const resume = await screen.findByRole('alertdialog', { name: 'Resume sending?' });
    await user.click(within(resume).getByRole('button', { name: 'Resume sending' }));
    expect(await screen.findByRole('button', { name: 'Pause' }, SLOW)).toBeInTheDocument();
    expect(
      requestsTo('post', 'rpc/campaign_control').map(
        (r) => (r.body as { p_action: string }).p_action,
      ),
    ).toEqual(['pause', 'resume']);
    // Resuming wakes the sender; pausing does not.
    await waitFor(() =>
      expect(supabaseDb.requested('POST', 'functions/forms/_campaigns')).toHaveLength(1),
    );
  });

  it("cancels after asking, and shows a refusal (55000) in the feature's words", async () => {
    const list = makeList();
    const paused = makeCampaign(list, {
      subject: 'Halted',
      body_markdown: 'x',
      status: 'paused',
      recipients: 4,
      sent: 2,
    });
    seedNewsletter({ lists: [list], campaigns: [paused] });
    failRequests(
      'post',
      'rpc/campaign_control',
      pgError('55000', 'A sent campaign cannot be cancelled.'),
    );
    const user = userEvent.setup();
    renderAt(campaignRoute(paused.id));
    await user.click(await screen.findByRole('button', { name: 'Cancel campaign' }, SLOW));
    const confirm = await screen.findByRole('alertdialog', { name: 'Cancel this campaign?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel campaign' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'Could not cancel the campaign: the campaign has moved on since',
    );
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('Campaigns tab', { timeout: 30_000 }, () => {
  it('lists campaigns with status and counts, live, and starts a new draft', async () => {
    const list = makeList({ name: 'Weekly' });
    const sent = makeCampaign(list, {
      subject: 'October',
      status: 'sent',
      recipients: 5,
      sent: 4,
      failed: 1,
      unsubscribed: 2,
      finished_at: new Date().toISOString(),
    });
    const sending = makeCampaign(list, {
      subject: 'November',
      status: 'sending',
      recipients: 10,
      sent: 2,
    });
    seedNewsletter({ lists: [list], campaigns: [sent, sending] });
    const user = userEvent.setup();
    renderAt('/dashboard/newsletter?tab=campaigns');
    const items = await screen.findByRole('list', { name: 'Campaigns' }, SLOW);
    const names = within(items)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(names).toEqual(['November', 'October']);
    const october = within(items).getByRole('link', { name: 'October' }).closest('li')!;
    expect(within(october).getByText('Sent', { selector: 'span' })).toBeInTheDocument();
    expect(within(october).getByText('Unsubscribed').nextElementSibling).toHaveTextContent('2');
    const progress = within(items).getByRole('progressbar', { name: 'Sending November' });
    expect(progress).toHaveAttribute('aria-valuenow', '2');
    await waitFor(() => expect(supabaseRealtime.channels()).toHaveLength(1), SLOW);
    act(() =>
      supabaseRealtime.change({
        table: 'campaigns',
        eventType: 'UPDATE',
        new: { ...sending, sent: 7 },
      }),
    );
    await waitFor(() => expect(progress).toHaveAttribute('aria-valuenow', '7'));

    await user.click(screen.getByRole('button', { name: 'New campaign' }));
    await waitFor(() =>
      expect(currentLocation()).toHaveTextContent(/^\/dashboard\/newsletter\/campaigns\/.+/),
    );
    expect(supabaseDb.requested('POST', 'campaigns')[0].body).toEqual({ list_id: list.id });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'New campaign' }, SLOW),
    ).toBeInTheDocument();
  });

  it('asks for a list first when there is none', async () => {
    seedNewsletter();
    renderAt('/dashboard/newsletter?tab=campaigns');
    expect(
      await screen.findByText(
        "Create a list first: a campaign goes to a list's subscribers.",
        {},
        SLOW,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('No campaigns yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New campaign' })).toBeNull();
  });
});

describe('Send a test to yourself', { timeout: 30_000 }, () => {
  const testPath = (id: string) => `newsletter/campaigns/${id}/test`;
  const testRequests = (id: string) => supabaseDb.requested('POST', `functions/${testPath(id)}`);

  it('sends a saved draft to the owner with their session, and says where it went', async () => {
    const list = makeList({ name: 'Weekly' });
    const draft = makeCampaign(list, { subject: 'Launch', body_markdown: 'Soon.' });
    seedNewsletter({ lists: [list], campaigns: [draft] });
    answerFunction(testPath(draft.id), 202, { ok: true, recipient: 'ada@example.com' });
    const user = userEvent.setup();
    renderAt(campaignRoute(draft.id));
    await user.click(await screen.findByRole('button', { name: 'Send a test to yourself' }, SLOW));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'success',
        'Test sent to ada@example.com',
        expect.stringContaining('[Test]'),
      ),
    );
    const [request] = testRequests(draft.id);
    expect(request.body).toEqual({});
    expect(request.headers.get('Authorization')).toMatch(/^Bearer ey/);
    // Nothing was unsaved: the draft is not written again.
    expect(supabaseDb.requested('PATCH', 'campaigns')).toHaveLength(0);
  });

  it('saves unsaved edits first, so the test is what the editor shows', async () => {
    const list = makeList();
    const draft = makeCampaign(list);
    seedNewsletter({ lists: [list], campaigns: [draft] });
    answerFunction(testPath(draft.id), 202, { ok: true, recipient: 'ada@example.com' });
    const user = userEvent.setup();
    renderAt(campaignRoute(draft.id));
    const button = await screen.findByRole('button', { name: 'Send a test to yourself' }, SLOW);
    // Nothing to test yet: an empty subject and message.
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Subject'), 'Fresh');
    await user.type(screen.getByLabelText('Message (Markdown)'), 'Hello.');
    await user.click(button);
    await waitFor(() => expect(testRequests(draft.id)).toHaveLength(1));
    const order = supabaseDb.requests
      .filter((r) => r.method === 'PATCH' || r.path.startsWith('functions/'))
      .map((r) => `${r.method} ${r.path}`);
    expect(order).toEqual(['PATCH campaigns', `POST functions/${testPath(draft.id)}`]);
    expect(supabaseDb.rows('campaigns')[0]).toMatchObject({
      subject: 'Fresh',
      body_markdown: 'Hello.',
    });
    expect(notify).toHaveBeenCalledWith('success', 'Draft saved');
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'success',
        'Test sent to ada@example.com',
        expect.any(String),
      ),
    );
  });

  it('sends nothing when the edits cannot be saved', async () => {
    const list = makeList();
    const draft = makeCampaign(list, { subject: 'Launch', body_markdown: 'Soon.' });
    seedNewsletter({ lists: [list], campaigns: [draft] });
    failRequests('patch', 'campaigns', pgError('23514', 'campaigns_subject_check'));
    const user = userEvent.setup();
    renderAt(campaignRoute(draft.id));
    await user.type(await screen.findByLabelText('Subject', {}, SLOW), '!');
    await user.click(screen.getByRole('button', { name: 'Send a test to yourself' }));
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'Could not save the draft',
    );
    expect(testRequests(draft.id)).toHaveLength(0);
  });

  it('shows the loading state while it sends, and the limit in words when it is reached', async () => {
    const list = makeList();
    const draft = makeCampaign(list, { subject: 'Launch', body_markdown: 'Soon.' });
    seedNewsletter({ lists: [list], campaigns: [draft] });
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const limit = 'You can send yourself 10 tests an hour and 30 a day. Try again later.';
    server.use(
      http.post(
        `${env.supabaseUrl.replace(/\/$/, '')}/functions/v1/${testPath(draft.id)}`,
        async () => {
          await answered;
          return HttpResponse.json(
            { code: 'rate_limited', error: limit },
            { status: 429, headers: { 'Retry-After': '3600' } },
          );
        },
      ),
    );
    const user = userEvent.setup();
    renderAt(campaignRoute(draft.id));
    await user.click(await screen.findByRole('button', { name: 'Send a test to yourself' }, SLOW));
    const pending = await screen.findByRole('button', { name: /Sending test…/ });
    expect(pending).toBeDisabled();
    answer();
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(limit);
    expect(notify).toHaveBeenCalledWith('error', 'Test not sent', limit);
    expect(screen.getByRole('button', { name: 'Send a test to yourself' })).toBeEnabled();
  });

  it.each([
    [401, { code: 'unauthorized' }, 'Your session has ended. Sign in again to send a test.'],
    [404, { code: 'not_found' }, 'This campaign no longer exists. Go back to your campaigns.'],
    [
      422,
      { code: 'no_address' },
      'Your account has no address a test can go to. Check your e-mail address in Settings.',
    ],
    [
      503,
      { code: 'storage_failed' },
      'The test could not be sent just now. Please try again in a moment.',
    ],
  ] as const)('answers %i in words, from a scheduled campaign too', async (status, body, text) => {
    const list = makeList();
    const scheduled = makeCampaign(list, {
      subject: 'Later',
      body_markdown: 'Soon.',
      status: 'scheduled',
      scheduled_at: '2035-01-02T09:30:00.000Z',
    });
    seedNewsletter({ lists: [list], campaigns: [scheduled] });
    answerFunction(testPath(scheduled.id), status, body);
    const user = userEvent.setup();
    renderAt(campaignRoute(scheduled.id));
    await user.click(await screen.findByRole('button', { name: 'Send a test to yourself' }, SLOW));
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(text);
    expect(notify).toHaveBeenCalledWith('error', 'Test not sent', text);
  });

  it('is not offered once a campaign has finished', async () => {
    const list = makeList();
    const sent = makeCampaign(list, {
      subject: 'Done',
      body_markdown: 'x',
      status: 'sent',
      finished_at: new Date().toISOString(),
    });
    seedNewsletter({ lists: [list], campaigns: [sent] });
    renderAt(campaignRoute(sent.id));
    expect(await screen.findByText(/^Sent; finished/, {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send a test to yourself' })).toBeNull();
  });
});
