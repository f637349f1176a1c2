import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import {
  failRequests,
  holdRequests,
  pgError,
  sentTo,
  server,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import { notify } from '../../../components/toaster';
import { SETTINGS_FORM_ID, seedSettings } from '../testing/fixtures';
import { RetentionSection } from './retention-section';

vi.mock('../../../components/toaster', () => ({ notify: vi.fn() }));

beforeEach(() => {
  vi.mocked(notify).mockReset();
  seedSettings();
});

const renderSection = () => renderWithProviders(<RetentionSection formId={SETTINGS_FORM_ID} />);

describe('retention settings', () => {
  it('shows a loading state, then an error with a retry that loads the saved rule', async () => {
    holdRequests('get', 'form_retention');
    const first = renderSection();
    expect(await screen.findByText('Loading the retention rule…')).toBeVisible();
    first.unmount();

    server.resetHandlers();
    seedSettings({
      form_retention: [{ form_id: SETTINGS_FORM_ID, mode: 'days', days: 30 }],
    });
    failRequests('get', 'form_retention', pgError('500', 'boom'));
    renderSection();
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Could not load the retention rule.');
    server.resetHandlers();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('spinbutton', { name: /Days to keep/ }, SLOW)).toHaveValue(30);
    expect(
      screen.getByRole('radio', { name: /Delete messages after a number of days/ }),
    ).toBeChecked();
  });

  it('checks the number of days inline, then saves the rule', async () => {
    const user = userEvent.setup();
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Retention' }, SLOW));
    expect(form.getByRole('radio', { name: /Keep messages until I delete them/ })).toBeChecked();
    await user.click(form.getByRole('radio', { name: /Delete messages after a number of days/ }));
    const days = form.getByRole('spinbutton', { name: /Days to keep/ });
    await user.clear(days);
    await user.type(days, '4000');
    await user.click(form.getByRole('button', { name: 'Save retention' }));
    expect(await form.findByText('At most 3650 days (10 years).')).toBeVisible();
    expect(sentTo('post', 'form_retention')).toEqual([]);

    await user.clear(days);
    await user.type(days, '30');
    await user.click(form.getByRole('button', { name: 'Save retention' }));
    await vi.waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'success',
        'Retention saved',
        'Messages are deleted after 30 days.',
      ),
    );
    expect(sentTo('post', 'form_retention')).toContainEqual({
      form_id: SETTINGS_FORM_ID,
      mode: 'days',
      days: 30,
    });
  });

  it('warns before "forward only" and removes the rule for "keep"', async () => {
    const user = userEvent.setup();
    seedSettings({
      form_retention: [{ form_id: SETTINGS_FORM_ID, mode: 'days', days: 7 }],
    });
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Retention' }, SLOW));
    await user.click(form.getByRole('radio', { name: /Forward only/ }));
    expect(form.getByText(/disappear from your inbox once delivered/)).toBeVisible();
    await user.click(form.getByRole('radio', { name: /Keep messages until I delete them/ }));
    await user.click(form.getByRole('button', { name: 'Save retention' }));
    await vi.waitFor(() =>
      expect(sentTo('delete', 'form_retention')).toContainEqual({
        form_id: `eq.${SETTINGS_FORM_ID}`,
      }),
    );
    expect(supabaseDb.rows('form_retention')).toEqual([]);
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Retention saved',
      'Messages are kept until you delete them.',
    );
  });

  it('says why a save failed', async () => {
    const user = userEvent.setup();
    failRequests('post', 'form_retention', pgError('23503', 'violates foreign key'));
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Retention' }, SLOW));
    await user.click(form.getByRole('radio', { name: /Forward only/ }));
    await user.click(form.getByRole('button', { name: 'Save retention' }));
    expect(await form.findByRole('alert')).toHaveTextContent(/This form no longer exists/);
  });

  it('shows the number of days right under its choice, not below the list', async () => {
    const user = userEvent.setup();
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Retention' }, SLOW));
    await user.click(form.getByRole('radio', { name: /Delete messages after a number of days/ }));
    const days = form.getByRole('spinbutton', { name: /Days to keep/ });
    const forward = form.getByRole('radio', { name: /Forward only/ });
    expect(days.compareDocumentPosition(forward) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('asks before a number of days that deletes stored messages, saying how many', async () => {
    const user = userEvent.setup();
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    seedSettings({
      entries: [
        { form_id: SETTINGS_FORM_ID, created_at: daysAgo(45) },
        { form_id: SETTINGS_FORM_ID, created_at: daysAgo(31) },
        { form_id: SETTINGS_FORM_ID, created_at: daysAgo(2) },
        // Another form's old message is not counted.
        { form_id: '00000000-0000-4000-9000-00000000cccc', created_at: daysAgo(90) },
      ],
    });
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Retention' }, SLOW));
    await user.click(form.getByRole('radio', { name: /Delete messages after a number of days/ }));
    const days = form.getByRole('spinbutton', { name: /Days to keep/ });
    await user.clear(days);
    await user.type(days, '30');
    await user.click(form.getByRole('button', { name: 'Save retention' }));

    const ask = await screen.findByRole('alertdialog', { name: 'Delete 2 messages?' }, SLOW);
    expect(ask).toHaveTextContent(
      'The 2 messages of this form older than 30 days will be deleted within a minute of saving.',
    );
    expect(sentTo('head', 'entries')).toContainEqual({
      select: 'id',
      form_id: `eq.${SETTINGS_FORM_ID}`,
      created_at: expect.stringMatching(/^lt\./),
    });
    const [counted] = sentTo('head', 'entries') as { created_at: string }[];
    const before = Date.parse(counted.created_at.slice('lt.'.length));
    expect(Math.abs(before - Date.parse(daysAgo(30)))).toBeLessThan(60_000);
    // Cancel: nothing saved, the choice still there to change.
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(sentTo('post', 'form_retention')).toEqual([]);
    expect(days).toHaveValue(30);

    await user.click(form.getByRole('button', { name: 'Save retention' }));
    const again = await screen.findByRole('alertdialog', { name: 'Delete 2 messages?' }, SLOW);
    await user.click(within(again).getByRole('button', { name: 'Save and delete' }));
    await vi.waitFor(() =>
      expect(sentTo('post', 'form_retention')).toContainEqual({
        form_id: SETTINGS_FORM_ID,
        mode: 'days',
        days: 30,
      }),
    );
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Retention saved',
      'Messages are deleted after 30 days.',
    );
  });

  it('asks before "forward only" when messages are stored, counting every one of them', async () => {
    const user = userEvent.setup();
    const now = new Date().toISOString();
    seedSettings({
      entries: [{ form_id: SETTINGS_FORM_ID, created_at: now }],
    });
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Retention' }, SLOW));
    await user.click(form.getByRole('radio', { name: /Forward only/ }));
    await user.click(form.getByRole('button', { name: 'Save retention' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Delete 1 message?' }, SLOW);
    expect(ask).toHaveTextContent('The 1 message of this form stored now will be deleted once');
    expect(sentTo('head', 'entries')).toContainEqual({
      select: 'id',
      form_id: `eq.${SETTINGS_FORM_ID}`,
    });
    await user.click(within(ask).getByRole('button', { name: 'Save and delete' }));
    await vi.waitFor(() =>
      expect(sentTo('post', 'form_retention')).toContainEqual({
        form_id: SETTINGS_FORM_ID,
        mode: 'forward_only',
        days: null,
      }),
    );
  });

  it('asks without a number when the messages cannot be counted', async () => {
    const user = userEvent.setup();
    failRequests('head', 'entries', pgError('500', 'boom'));
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Retention' }, SLOW));
    await user.click(form.getByRole('radio', { name: /Forward only/ }));
    await user.click(form.getByRole('button', { name: 'Save retention' }));
    const ask = await screen.findByRole(
      'alertdialog',
      { name: 'Delete messages of this form?' },
      SLOW,
    );
    expect(ask).toHaveTextContent('we could not count them just now');
    expect(sentTo('post', 'form_retention')).toEqual([]);
  });

  it('saves without asking when the rule deletes nothing stored', async () => {
    const user = userEvent.setup();
    seedSettings({
      entries: [{ form_id: SETTINGS_FORM_ID, created_at: new Date().toISOString() }],
    });
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Retention' }, SLOW));
    await user.click(form.getByRole('radio', { name: /Delete messages after a number of days/ }));
    await user.click(form.getByRole('button', { name: 'Save retention' }));
    await vi.waitFor(() => expect(sentTo('post', 'form_retention')).not.toEqual([]));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
