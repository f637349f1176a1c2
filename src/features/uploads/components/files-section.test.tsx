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
import { UPLOADS_FORM_ID, seedUploadSettings } from '../testing/fixtures';
import { FilesSection } from './files-section';

vi.mock('../../../components/toaster', () => ({ notify: vi.fn() }));

const MB = 1024 * 1024;

beforeEach(() => {
  vi.mocked(notify).mockReset();
  seedUploadSettings();
});

const renderSection = () => renderWithProviders(<FilesSection formId={UPLOADS_FORM_ID} />);

async function openForm() {
  return within(await screen.findByRole('form', { name: 'File uploads' }, SLOW));
}

describe('file upload settings', () => {
  it('shows a loading state, then an error with a retry that loads the saved settings', async () => {
    holdRequests('get', 'form_uploads');
    const first = renderSection();
    expect(await screen.findByText('Loading the file settings…')).toBeVisible();
    first.unmount();

    server.resetHandlers();
    seedUploadSettings([
      {
        form_id: UPLOADS_FORM_ID,
        enabled: true,
        kinds: ['pdf', 'image'],
        max_file_bytes: 2.5 * MB,
        max_total_bytes: 8 * MB,
        max_files: 4,
      },
    ]);
    failRequests('get', 'form_uploads', pgError('500', 'boom'));
    renderSection();
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Could not load the file settings.');
    server.resetHandlers();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    const form = await openForm();
    expect(form.getByRole('checkbox', { name: 'Accept files' })).toBeChecked();
    expect(form.getByRole('checkbox', { name: 'Images' })).toBeChecked();
    expect(form.getByRole('checkbox', { name: 'PDF' })).toBeChecked();
    expect(form.getByRole('checkbox', { name: 'Office documents' })).not.toBeChecked();
    expect(form.getByRole('spinbutton', { name: /Largest file/ })).toHaveValue(2.5);
    expect(form.getByRole('spinbutton', { name: /All files of a submission/ })).toHaveValue(8);
    expect(form.getByRole('spinbutton', { name: /Most files/ })).toHaveValue(4);
  });

  it('starts off, and turned on offers the default kinds and limits', async () => {
    const user = userEvent.setup();
    renderSection();
    const form = await openForm();
    expect(screen.getByRole('link', { name: 'About file uploads' })).toHaveAttribute(
      'href',
      '/docs#uploads',
    );
    const enabled = form.getByRole('checkbox', { name: 'Accept files' });
    expect(enabled).not.toBeChecked();
    expect(form.queryByRole('group', { name: 'Kinds of file allowed' })).toBeNull();
    await user.click(enabled);
    const kinds = within(form.getByRole('group', { name: 'Kinds of file allowed' }));
    expect(
      kinds
        .getAllByRole('checkbox')
        .filter((box) => (box as HTMLInputElement).checked)
        .map((box) => box.getAttribute('value')),
    ).toEqual(['image', 'pdf', 'office', 'text']);
    expect(kinds.getByRole('checkbox', { name: 'Archives' })).not.toBeChecked();
    expect(form.getByRole('spinbutton', { name: /Largest file/ })).toHaveValue(5);
    expect(form.getByRole('spinbutton', { name: /All files of a submission/ })).toHaveValue(10);
    expect(form.getByRole('spinbutton', { name: /Most files/ })).toHaveValue(3);
  });

  it('checks each limit inline against the ceilings, then saves the settings', async () => {
    const user = userEvent.setup();
    renderSection();
    const form = await openForm();
    await user.click(form.getByRole('checkbox', { name: 'Accept files' }));
    const perFile = form.getByRole('spinbutton', { name: /Largest file/ });
    const total = form.getByRole('spinbutton', { name: /All files of a submission/ });
    const count = form.getByRole('spinbutton', { name: /Most files/ });
    await user.clear(perFile);
    await user.type(perFile, '11');
    await user.clear(total);
    await user.type(total, '30');
    await user.clear(count);
    await user.type(count, '12');
    await user.click(form.getByRole('button', { name: 'Save file settings' }));
    expect(await form.findByText('At most 10 MB: the largest this service allows.')).toBeVisible();
    expect(form.getByText('At most 25 MB: the largest this service allows.')).toBeVisible();
    expect(form.getByText('At most 10 files: the most this service allows.')).toBeVisible();
    expect(perFile).toHaveAccessibleDescription(/At most 10 MB/);

    await user.clear(perFile);
    await user.type(perFile, '8');
    await user.clear(total);
    await user.type(total, '6');
    await user.clear(count);
    await user.type(count, '2.5');
    expect(
      await form.findByText(
        'At least the largest file: a submission may always carry one file of that size.',
      ),
    ).toBeVisible();
    expect(form.getByText('Enter a whole number of files.')).toBeVisible();
    expect(sentTo('post', 'form_uploads')).toEqual([]);

    await user.clear(total);
    await user.type(total, '20');
    await user.clear(count);
    await user.type(count, '5');
    await user.click(form.getByRole('checkbox', { name: 'Archives' }));
    await user.click(form.getByRole('checkbox', { name: 'Office documents' }));
    await user.click(form.getByRole('button', { name: 'Save file settings' }));
    await vi.waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'success',
        'File settings saved',
        'Visitors can send up to 5 files: 8 MB each, 20 MB in all.',
      ),
    );
    expect(sentTo('post', 'form_uploads')).toEqual([
      {
        form_id: UPLOADS_FORM_ID,
        enabled: true,
        kinds: ['image', 'pdf', 'text', 'archive'],
        max_file_bytes: 8 * MB,
        max_total_bytes: 20 * MB,
        max_files: 5,
      },
    ]);
    // An upsert on the form: a second save updates the one row.
    const [post] = supabaseDb.requested('POST', 'form_uploads');
    expect(post.url.searchParams.get('on_conflict')).toBe('form_id');
    expect(post.headers.get('Prefer')).toMatch(/resolution=merge-duplicates/);
    expect(supabaseDb.rows('form_uploads')).toHaveLength(1);
  });

  it('asks for at least one kind while uploads are on', async () => {
    const user = userEvent.setup();
    renderSection();
    const form = await openForm();
    await user.click(form.getByRole('checkbox', { name: 'Accept files' }));
    for (const name of ['Images', 'PDF', 'Office documents', /^Text/])
      await user.click(form.getByRole('checkbox', { name }));
    await user.click(form.getByRole('button', { name: 'Save file settings' }));
    const group = form.getByRole('group', { name: 'Kinds of file allowed' });
    expect(group).toHaveAccessibleDescription(
      'Choose at least one kind of file, or turn uploads off.',
    );
    expect(sentTo('post', 'form_uploads')).toEqual([]);
  });

  it('turns uploads off keeping the saved limits, whatever was typed in the hidden fields', async () => {
    const user = userEvent.setup();
    seedUploadSettings([
      {
        form_id: UPLOADS_FORM_ID,
        enabled: true,
        kinds: ['image'],
        max_file_bytes: 2 * MB,
        max_total_bytes: 4 * MB,
        max_files: 2,
      },
    ]);
    renderSection();
    const form = await openForm();
    const perFile = form.getByRole('spinbutton', { name: /Largest file/ });
    await user.clear(perFile);
    await user.type(perFile, '99');
    await user.click(form.getByRole('checkbox', { name: 'Accept files' }));
    await user.click(form.getByRole('button', { name: 'Save file settings' }));
    await vi.waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'success',
        'File settings saved',
        'Visitors cannot send files with this form.',
      ),
    );
    expect(sentTo('post', 'form_uploads')).toEqual([
      {
        form_id: UPLOADS_FORM_ID,
        enabled: false,
        kinds: ['image'],
        max_file_bytes: 2 * MB,
        max_total_bytes: 4 * MB,
        max_files: 2,
      },
    ]);
  });

  it('says why a save failed', async () => {
    const user = userEvent.setup();
    failRequests(
      'post',
      'form_uploads',
      pgError('23514', 'violates check constraint "form_uploads_max_files"'),
    );
    renderSection();
    const form = await openForm();
    await user.click(form.getByRole('checkbox', { name: 'Accept files' }));
    await user.click(form.getByRole('button', { name: 'Save file settings' }));
    expect(await form.findByRole('alert')).toHaveTextContent(
      'Not saved: a submission may carry at most 10 files.',
    );
    expect(notify).toHaveBeenCalledWith(
      'error',
      'File settings not saved',
      'Not saved: a submission may carry at most 10 files.',
    );
  });
});
