import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, SLOW } from '../../../components/testing/render';
import {
  failRequests,
  pgError,
  server,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import { StorageUse } from './storage-use';

const MB = 1024 * 1024;

describe('StorageUse', () => {
  it("shows the owner's use against the quota as a labelled bar", async () => {
    supabaseDb.rpc('storage_use', () => ({ used_bytes: 256 * MB, quota_bytes: 1024 * MB }));
    renderWithProviders(<StorageUse />);
    const bar = await screen.findByRole('progressbar', { name: 'File storage used' }, SLOW);
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(bar).toHaveAttribute('aria-valuetext', '256 MB of 1 GB used');
    expect(screen.getByText('256 MB of 1 GB used (25 %)')).toBeInTheDocument();
  });

  it('says when the storage is full', async () => {
    supabaseDb.rpc('storage_use', () => ({ used_bytes: 1024 * MB, quota_bytes: 1024 * MB }));
    renderWithProviders(<StorageUse />);
    expect(await screen.findByText(/Your storage is full/, undefined, SLOW)).toBeInTheDocument();
  });

  it('shows the use alone where the deployment sets no quota', async () => {
    supabaseDb.rpc('storage_use', () => ({ used_bytes: 1536, quota_bytes: null }));
    renderWithProviders(<StorageUse />);
    expect(
      await screen.findByText(
        '1.5 KB of files kept; this deployment sets no storage quota.',
        undefined,
        SLOW,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('tells a failure and tries again', async () => {
    failRequests('post', 'rpc/storage_use', pgError('', 'offline'));
    const user = userEvent.setup();
    renderWithProviders(<StorageUse />);
    expect(await screen.findByRole('alert', undefined, SLOW)).toHaveTextContent(
      'Your file storage could not be loaded.',
    );
    server.resetHandlers();
    supabaseDb.rpc('storage_use', () => ({ used_bytes: 0, quota_bytes: 1024 * MB }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByText('0 bytes of 1 GB used (0 %)', undefined, SLOW),
    ).toBeInTheDocument();
  });
});
