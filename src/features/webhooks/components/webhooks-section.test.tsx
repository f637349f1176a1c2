import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { notify } from '../../../components/toaster';
import { FORM_ID, makeAttempt, makeDelivery, makeWebhook, seedWebhooks } from '../testing/fixtures';
import {
  failRequests,
  holdRequests,
  pgError,
  requestsTo,
  sentTo,
  server,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import { WebhooksSection } from './webhooks-section';

vi.mock('../../../components/toaster', () => ({ notify: vi.fn() }));

beforeEach(() => {
  vi.mocked(notify).mockReset();
  seedWebhooks();
});

const renderSection = () => renderWithProviders(<WebhooksSection formId={FORM_ID} />);

describe('webhook settings', () => {
  it('shows a loading state, then the empty state', async () => {
    holdRequests('get', 'webhooks');
    const first = renderSection();
    expect(await screen.findByText('Loading webhooks…')).toBeVisible();
    first.unmount();

    server.resetHandlers();
    seedWebhooks();
    renderSection();
    expect(await screen.findByText(/No webhooks yet/, {}, SLOW)).toBeVisible();
    expect(screen.getByRole('link', { name: 'How to verify the signature' })).toHaveAttribute(
      'href',
      '/docs#webhooks',
    );
  });

  it('shows an error with a retry that loads the webhooks', async () => {
    seedWebhooks({ webhooks: [makeWebhook({ url: 'https://a.example/x' })] });
    failRequests('get', 'webhooks', pgError('500', 'boom'));
    renderSection();
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Could not load the webhooks.');
    server.resetHandlers();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('https://a.example/x', {}, SLOW)).toBeVisible();
  });

  it('checks the URL inline, shows the server’s refusal on it, then adds a preset webhook', async () => {
    const user = userEvent.setup();
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Add a webhook' }, SLOW));
    const url = form.getByRole('textbox', { name: /Webhook URL/ });

    await user.click(form.getByRole('button', { name: 'Add webhook' }));
    expect(await form.findByText('Enter the URL to send new messages to.')).toBeVisible();
    await user.click(url);
    await user.paste('not a url');
    await user.click(form.getByRole('button', { name: 'Add webhook' }));
    expect(await form.findByText('Enter a full URL starting with https://.')).toBeVisible();
    expect(sentTo('post', 'webhooks')).toEqual([]);

    failRequests('post', 'webhooks', {
      ...pgError(
        '23514',
        'Webhooks cannot target private, loopback, link-local or metadata addresses.',
      ),
      hint: 'webhook_url_refused',
    });
    await user.clear(url);
    await user.click(url);
    await user.paste('https://10.0.0.8/hook');
    await user.click(form.getByRole('button', { name: 'Add webhook' }));
    expect(await form.findByText(/cannot target private, loopback/)).toBeVisible();
    expect(url).toHaveAttribute('aria-invalid', 'true');

    server.resetHandlers();
    await user.clear(url);
    await user.click(url);
    await user.paste('  https://hooks.slack.com/services/T/B/X ');
    await user.selectOptions(form.getByRole('combobox', { name: 'Payload' }), 'slack');
    expect(form.getByText(/Slack incoming-webhook URL/)).toBeVisible();
    await user.click(form.getByRole('checkbox', { name: 'Also send messages marked as spam' }));
    await user.click(form.getByRole('button', { name: 'Add webhook' }));

    await waitFor(() =>
      expect(sentTo('post', 'webhooks')).toContainEqual({
        form_id: FORM_ID,
        url: 'https://hooks.slack.com/services/T/B/X',
        format: 'slack',
        send_spam: true,
      }),
    );
    expect(notify).toHaveBeenCalledWith('success', 'Webhook added', expect.any(String));
    expect(
      await screen.findByText('https://hooks.slack.com/services/T/B/X', {}, SLOW),
    ).toBeVisible();
    expect(url).toHaveValue('');
  });

  it('hides the secret until asked, switches a webhook off and sends a test event', async () => {
    const user = userEvent.setup();
    const hook = makeWebhook({ secret: `whsec_${'cd'.repeat(32)}` });
    seedWebhooks({ webhooks: [hook] });
    renderSection();
    const list = within(await screen.findByRole('list', { name: 'Webhooks of this form' }, SLOW));

    expect(list.queryByText(hook.secret)).not.toBeInTheDocument();
    await user.click(list.getByRole('button', { name: 'Show' }));
    expect(list.getByText(hook.secret)).toBeVisible();
    expect(list.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(list.getByRole('checkbox', { name: 'Active' }));
    await waitFor(() =>
      expect(requestsTo('patch', 'webhooks')).toContainEqual({
        query: expect.objectContaining({ id: `eq.${hook.id}` }),
        body: { enabled: false },
      }),
    );
    expect(notify).toHaveBeenCalledWith('success', 'Webhook turned off');
    expect(await list.findByText('Off', {}, SLOW)).toBeVisible();
    await user.click(list.getByRole('checkbox', { name: 'Active' }));
    await waitFor(() => expect(list.queryByText('Off')).not.toBeInTheDocument());

    await user.click(list.getByRole('button', { name: 'Send test event' }));
    await waitFor(() =>
      expect(sentTo('post', 'rpc/send_webhook_test')).toContainEqual({
        p_webhook_id: hook.id,
      }),
    );
    expect(notify).toHaveBeenCalledWith('success', 'Test event on its way', expect.any(String));
    // Sent now by the forms function rather than at its next scheduled run.
    const [queued] = supabaseDb.rows('webhook_deliveries');
    expect(sentTo('post', 'functions/forms/_webhook')).toContainEqual({ id: queued!.id });
    // The log opens on the queued event.
    const log = within(await screen.findByRole('list', { name: 'Latest deliveries' }, SLOW));
    expect(log.getByText('Queued')).toBeVisible();
    expect(log.getByText(/Test event/)).toBeVisible();
  });

  it('shows each delivery’s attempts and sends a finished one again', async () => {
    const user = userEvent.setup();
    const hook = makeWebhook();
    const failed = makeDelivery(hook.id, { status: 'failed', attempts: 2 });
    seedWebhooks({
      webhooks: [hook],
      deliveries: [failed],
      attempts: [
        makeAttempt(failed.id, {
          status_code: 502,
          ok: false,
          error: 'HTTP 502',
          response_excerpt: 'Bad gateway <html>',
        }),
        makeAttempt(failed.id, {
          status_code: null,
          ok: false,
          error: 'No answer within 10000 ms',
        }),
      ],
    });
    renderSection();
    const list = within(await screen.findByRole('list', { name: 'Webhooks of this form' }, SLOW));
    const toggle = list.getByRole('button', { name: 'Show deliveries' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    const log = within(await screen.findByRole('list', { name: 'Latest deliveries' }, SLOW));
    expect(log.getByText('Failed')).toBeVisible();
    const attempts = within(log.getByRole('list', { name: 'Attempts: 2' }));
    expect(attempts.getByText('HTTP 502')).toBeVisible();
    // The receiver's answer is shown as text, never as markup.
    expect(attempts.getByText('Bad gateway <html>')).toBeVisible();
    expect(attempts.getByText('No answer within 10000 ms')).toBeVisible();

    await user.click(log.getByRole('button', { name: /^Send again/ }));
    await waitFor(() =>
      expect(sentTo('post', 'rpc/redeliver_webhook')).toContainEqual({
        p_delivery_id: failed.id,
      }),
    );
    expect(notify).toHaveBeenCalledWith('success', 'Sent again', expect.any(String));
    expect(sentTo('post', 'functions/forms/_webhook')).toContainEqual({ id: failed.id });
    expect(await log.findByText('Queued', {}, SLOW)).toBeVisible();
  });

  it('asks before deleting a webhook, and keeps it on "Keep"', async () => {
    const user = userEvent.setup();
    const hook = makeWebhook({ url: 'https://gone.example/hook' });
    seedWebhooks({ webhooks: [hook] });
    renderSection();
    const list = within(await screen.findByRole('list', { name: 'Webhooks of this form' }, SLOW));

    await user.click(list.getByRole('button', { name: 'Delete webhook' }));
    await user.click(list.getByRole('button', { name: 'Keep' }));
    expect(sentTo('delete', 'webhooks')).toEqual([]);

    await user.click(list.getByRole('button', { name: 'Delete webhook' }));
    const confirm = within(list.getByRole('group', { name: 'Confirm deleting the webhook' }));
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(sentTo('delete', 'webhooks')).toContainEqual(
        expect.objectContaining({ id: `eq.${hook.id}` }),
      ),
    );
    expect(notify).toHaveBeenCalledWith('success', 'Webhook deleted');
    expect(await screen.findByText(/No webhooks yet/, {}, SLOW)).toBeVisible();
  });

  it('shows a webhook tinyback turned off, since when, and how switching it on starts afresh', async () => {
    const user = userEvent.setup();
    const hook = makeWebhook({
      url: 'https://down.example/hook',
      enabled: false,
      consecutive_failures: 50,
      disabled_at: '2026-11-24T14:47:00Z',
      disabled_reason: 'failing',
    });
    const skipped = makeDelivery(hook.id, {
      status: 'failed',
      attempts: 0,
      last_error: 'Not sent: the webhook was turned off after 50 failed attempts in a row.',
    });
    seedWebhooks({ webhooks: [hook], deliveries: [skipped] });
    renderSection();
    const list = within(await screen.findByRole('list', { name: 'Webhooks of this form' }, SLOW));

    expect(list.getByText('Turned off: failing')).toBeVisible();
    expect(list.queryByText('Off')).not.toBeInTheDocument();
    const notice = list.getByTestId('webhook-turned-off');
    expect(notice).toHaveTextContent(
      /Turned off after 50 failed attempts in a row on Nov 2[45], 2026/,
    );
    expect(notice).toHaveTextContent('we e-mailed you');
    expect(notice).toHaveTextContent(
      'switch Active on again: the count of failed attempts starts afresh',
    );

    // Its log says why the waiting delivery was never tried.
    await user.click(list.getByRole('button', { name: 'Show deliveries' }));
    const log = within(await screen.findByRole('list', { name: 'Latest deliveries' }, SLOW));
    expect(log.getByText(/Not sent: the webhook was turned off/)).toBeVisible();

    await user.click(list.getByRole('checkbox', { name: 'Active' }));
    await waitFor(() =>
      expect(requestsTo('patch', 'webhooks')).toContainEqual({
        query: expect.objectContaining({ id: `eq.${hook.id}` }),
        body: { enabled: true },
      }),
    );
    expect(notify).toHaveBeenCalledWith('success', 'Webhook turned on');
    await waitFor(() => expect(list.queryByTestId('webhook-turned-off')).not.toBeInTheDocument());
    expect(list.queryByText('Turned off: failing')).not.toBeInTheDocument();
  });

  it('counts failed attempts in a row while a webhook is on', async () => {
    seedWebhooks({ webhooks: [makeWebhook({ consecutive_failures: 7 })] });
    renderSection();
    expect(
      await screen.findByText(
        'The last 7 attempts failed. After 50 failed attempts in a row the webhook is turned off.',
        {},
        SLOW,
      ),
    ).toBeVisible();
  });

  it('never suggests a retry for a test event: it is tried once', async () => {
    const user = userEvent.setup();
    const hook = makeWebhook();
    // The log lists the newest first: the test event was sent after the message.
    const message = makeDelivery(hook.id, {
      status: 'pending',
      attempts: 2,
      next_attempt_at: '2026-11-24T12:00:00Z',
    });
    const test = makeDelivery(hook.id, { event: 'test', status: 'failed', attempts: 1 });
    seedWebhooks({
      webhooks: [hook],
      deliveries: [test, message],
      attempts: [makeAttempt(test.id, { status_code: 500, ok: false, error: 'HTTP 500' })],
    });
    renderSection();
    const list = within(await screen.findByRole('list', { name: 'Webhooks of this form' }, SLOW));
    await user.click(list.getByRole('button', { name: 'Show deliveries' }));
    const log = await screen.findByRole('list', { name: 'Latest deliveries' }, SLOW);
    const [testRow, messageRow] = [...log.children] as HTMLElement[];
    expect(testRow).toHaveTextContent('Failed');
    expect(testRow).toHaveTextContent('Test events are tried once, never retried.');
    expect(testRow).not.toHaveTextContent(/Retrying|Next try/);
    expect(messageRow).toHaveTextContent('Retrying');
    expect(messageRow).toHaveTextContent('Next try');
  });

  it('shows the database’s sentence when test events and resends are rate limited', async () => {
    const user = userEvent.setup();
    seedWebhooks({ webhooks: [makeWebhook()] });
    failRequests(
      'post',
      'rpc/send_webhook_test',
      pgError('PT429', 'Too many test events and resends; wait a minute.', 'webhook_rate_limited'),
    );
    renderSection();
    const list = within(await screen.findByRole('list', { name: 'Webhooks of this form' }, SLOW));
    await user.click(list.getByRole('button', { name: 'Send test event' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'error',
        'Test event not sent',
        'Too many test events and resends; wait a minute.',
      ),
    );
    expect(sentTo('post', 'functions/forms/_webhook')).toEqual([]);
  });

  it('says a delivery is gone when the database answers 404 (PT404)', async () => {
    const user = userEvent.setup();
    const hook = makeWebhook();
    seedWebhooks({
      webhooks: [hook],
      deliveries: [makeDelivery(hook.id, { status: 'sent' })],
    });
    renderSection();
    const list = within(await screen.findByRole('list', { name: 'Webhooks of this form' }, SLOW));
    await user.click(list.getByRole('button', { name: 'Show deliveries' }));
    const log = within(await screen.findByRole('list', { name: 'Latest deliveries' }, SLOW));
    failRequests(
      'post',
      'rpc/redeliver_webhook',
      pgError('PT404', 'This delivery no longer exists.'),
    );
    await user.click(log.getByRole('button', { name: /^Send again/ }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'error',
        'Not queued',
        'This webhook no longer exists. Close the dialog and open it again.',
      ),
    );
  });

  it('shows a refused webhook limit under the form, not on the URL', async () => {
    const user = userEvent.setup();
    failRequests(
      'post',
      'webhooks',
      pgError('23514', 'An account can have at most 25 webhooks.', 'webhook_limit'),
    );
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Add a webhook' }, SLOW));
    const url = form.getByRole('textbox', { name: /Webhook URL/ });
    await user.click(url);
    await user.paste('https://hooks.example.com/more');
    await user.click(form.getByRole('button', { name: 'Add webhook' }));
    expect(await form.findByRole('alert')).toHaveTextContent(
      'An account can have at most 25 webhooks.',
    );
    expect(url).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('offers no form to add an eleventh webhook', async () => {
    seedWebhooks({
      webhooks: Array.from({ length: 10 }, () => makeWebhook()),
    });
    renderSection();
    expect(
      await screen.findByText(
        'This form has 10 webhooks, the most a form may have. Delete one to add another.',
        {},
        SLOW,
      ),
    ).toBeVisible();
    expect(screen.queryByRole('form', { name: 'Add a webhook' })).not.toBeInTheDocument();
  });
});
