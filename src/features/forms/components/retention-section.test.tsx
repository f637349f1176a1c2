import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { notify } from '../../../components/toaster';
import { pgError } from '../testing/forms-supabase';
import {
  resetSettingsBackend,
  SETTINGS_FORM_ID,
  type SettingsBackend,
} from '../testing/settings-supabase';
import { RetentionSection } from './retention-section';

vi.mock('../../../lib/supabase', () => import('../testing/settings-supabase'));
vi.mock('../../../components/toaster', () => ({ notify: vi.fn() }));

let backend: SettingsBackend;

beforeEach(() => {
  vi.mocked(notify).mockReset();
  backend = resetSettingsBackend();
});

const renderSection = () => renderWithProviders(<RetentionSection formId={SETTINGS_FORM_ID} />);

describe('retention settings', () => {
  it('shows a loading state, then an error with a retry that loads the saved rule', async () => {
    backend.hold('select');
    const first = renderSection();
    expect(await screen.findByText('Loading the retention rule…')).toBeVisible();
    first.unmount();

    backend = resetSettingsBackend({
      form_retention: [{ form_id: SETTINGS_FORM_ID, mode: 'days', days: 30 }],
    });
    backend.fail('select', pgError('500', 'boom'));
    renderSection();
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Could not load the retention rule.');
    backend.succeed('select');
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
    expect(backend.calls.upsert).not.toHaveBeenCalled();

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
    expect(backend.calls.upsert).toHaveBeenCalledWith('form_retention', {
      form_id: SETTINGS_FORM_ID,
      mode: 'days',
      days: 30,
    });
  });

  it('warns before "forward only" and removes the rule for "keep"', async () => {
    const user = userEvent.setup();
    backend = resetSettingsBackend({
      form_retention: [{ form_id: SETTINGS_FORM_ID, mode: 'days', days: 7 }],
    });
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Retention' }, SLOW));
    await user.click(form.getByRole('radio', { name: /Forward only/ }));
    expect(form.getByText(/disappear from your inbox once delivered/)).toBeVisible();
    await user.click(form.getByRole('radio', { name: /Keep messages until I delete them/ }));
    await user.click(form.getByRole('button', { name: 'Save retention' }));
    await vi.waitFor(() =>
      expect(backend.calls.delete).toHaveBeenCalledWith('form_retention', SETTINGS_FORM_ID),
    );
    expect(backend.tables.form_retention).toEqual([]);
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Retention saved',
      'Messages are kept until you delete them.',
    );
  });

  it('says why a save failed', async () => {
    const user = userEvent.setup();
    backend.fail('upsert', pgError('23503', 'violates foreign key'));
    renderSection();
    const form = within(await screen.findByRole('form', { name: 'Retention' }, SLOW));
    await user.click(form.getByRole('radio', { name: /Forward only/ }));
    await user.click(form.getByRole('button', { name: 'Save retention' }));
    expect(await form.findByRole('alert')).toHaveTextContent(/This form no longer exists/);
  });
});
