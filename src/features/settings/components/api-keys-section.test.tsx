import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, SLOW } from '../../../components/testing/render';
import {
  failRequests,
  holdRequests,
  pgError,
  sentTo,
  server,
  supabaseDb,
} from '../../../components/testing/supabase-server';
import { seedSettings } from '../testing/fixtures';
import { ApiKeysSection } from './api-keys-section';

function renderSection() {
  const result = renderWithProviders(<ApiKeysSection />);
  return { ...result, user: userEvent.setup() };
}

const keyList = () => screen.getByRole('list', { name: 'Your API keys' });

async function createKey(user: ReturnType<typeof userEvent.setup>, name: string, scope?: string) {
  await user.type(screen.getByRole('textbox', { name: /Key name/ }), name);
  if (scope) await user.selectOptions(screen.getByRole('combobox', { name: /Access/ }), scope);
  await user.click(screen.getByRole('button', { name: 'Create key' }));
}

describe('ApiKeysSection', { timeout: 30_000 }, () => {
  beforeEach(() => {
    seedSettings();
  });

  it('says there are no keys yet, once loaded', async () => {
    renderSection();
    expect(await screen.findByText(/No API keys yet/, {}, SLOW)).toBeInTheDocument();
    expect(supabaseDb.requested('GET', 'api_keys')).not.toEqual([]);
  });

  it('shows that keys are loading, then an error with a way to try again', async () => {
    holdRequests('get', 'api_keys');
    const first = renderSection();
    expect(await screen.findByLabelText('Loading API keys')).toHaveAttribute('aria-busy', 'true');
    first.unmount();

    server.resetHandlers();
    failRequests('get', 'api_keys', pgError('', 'network down'));
    const { user } = renderSection();
    const alert = await screen.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Your API keys could not be loaded.');
    expect(alert).toHaveTextContent('network down');
    server.resetHandlers();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No API keys yet/, {}, SLOW)).toBeInTheDocument();
  });

  it('creates a key and shows it once, focused, with a copy button and a warning', async () => {
    const { user } = renderSection();
    // After userEvent.setup(), which installs a clipboard of its own.
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await screen.findByText(/No API keys yet/, {}, SLOW);
    await createKey(user, '  CRM sync  ', 'read_write');

    await waitFor(() =>
      expect(sentTo('post', 'rpc/create_api_key')).toContainEqual({
        p_name: 'CRM sync',
        p_scope: 'read_write',
      }),
    );
    const field = await screen.findByRole('textbox', { name: 'New API key' }, SLOW);
    const key = (field as HTMLInputElement).value;
    expect(key).toMatch(/^tb_live_[0-9a-f]{64}$/);
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('readonly');
    expect(screen.getByText('Copy your new key now')).toBeInTheDocument();
    expect(screen.getByText(/This is the only time “CRM sync”/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(writeText).toHaveBeenCalledWith(key);

    // The list shows the new key by its prefix only.
    const item = await within(keyList()).findByText('CRM sync', {}, SLOW);
    const row = item.closest('li')!;
    expect(row).toHaveTextContent('Read and delete (write-limited)');
    expect(row).toHaveTextContent(`${key.slice(0, 12)}…`);
    expect(row).toHaveTextContent('never used');
    expect(row).not.toHaveTextContent(key);

    // Once dismissed, the key is gone for good and the form is back.
    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByRole('textbox', { name: 'New API key' })).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(key);
    expect(screen.getByRole('textbox', { name: /Key name/ })).toHaveValue('');
  });

  it('refuses an empty name without calling the server', async () => {
    const { user } = renderSection();
    await screen.findByText(/No API keys yet/, {}, SLOW);
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText(/Name the key/)).toBeInTheDocument();
    expect(supabaseDb.rpcsCalled()).toEqual([]);
  });

  it.each([
    [
      'PT409',
      'api_key_limit',
      'You have 20 active API keys, the most an account may have. Revoke one first.',
    ],
    [
      'PT429',
      'api_key_rate',
      'You have created 20 API keys today, the most an account may. Try again tomorrow.',
    ],
  ])("shows the database's refusal %s (%s) inline, in its words", async (code, hint, message) => {
    failRequests('post', 'rpc/create_api_key', { code, hint, message, details: null });
    const { user } = renderSection();
    await screen.findByText(/No API keys yet/, {}, SLOW);
    await createKey(user, 'One more');
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(message);
    expect(screen.queryByRole('textbox', { name: 'New API key' })).not.toBeInTheDocument();
    // What was typed stays for a later try.
    expect(screen.getByRole('textbox', { name: /Key name/ })).toHaveValue('One more');
  });

  it('revokes a key after asking, naming it', async () => {
    const { user } = renderSection();
    await screen.findByText(/No API keys yet/, {}, SLOW);
    await createKey(user, 'Old laptop');
    await user.click(await screen.findByRole('button', { name: 'I have copied it' }, SLOW));

    await user.click(await screen.findByRole('button', { name: 'Revoke Old laptop' }, SLOW));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke “Old laptop”?' }, SLOW);
    expect(dialog).toHaveTextContent('401 Unauthorized');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke key' }));

    await waitFor(() =>
      expect(sentTo('post', 'rpc/revoke_api_key')).toContainEqual({ p_id: 'key-1' }),
    );
    expect(await screen.findByText(/No API keys yet/, {}, SLOW)).toBeInTheDocument();
  });

  it('keeps the key listed and says why when revoking fails', async () => {
    const { user } = renderSection();
    await screen.findByText(/No API keys yet/, {}, SLOW);
    await createKey(user, 'Build server');
    await user.click(await screen.findByRole('button', { name: 'I have copied it' }, SLOW));

    failRequests('post', 'rpc/revoke_api_key', pgError('', 'Sign in again.'));
    await user.click(await screen.findByRole('button', { name: 'Revoke Build server' }, SLOW));
    const dialog = await screen.findByRole('alertdialog', {}, SLOW);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    expect(await within(dialog).findByRole('alert', {}, SLOW)).toHaveTextContent('Sign in again.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(within(keyList()).getByText('Build server')).toBeInTheDocument();
  });
});
