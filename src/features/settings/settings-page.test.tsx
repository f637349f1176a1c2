import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { currentLocation, SLOW } from '../../components/testing/render';
import { renderWithAuth } from '../../components/testing/render-with-auth';
import {
  authError,
  failRequests,
  pgError,
  signInAs,
  supabaseAuth,
  supabaseDb,
} from '../../components/testing/supabase-server';
import { displayName, ProtectedRoute, useAuth } from '../../lib/auth';
import { seedSettings } from './testing/fixtures';
import { SettingsPage } from './settings-page';

const ADA = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ada@example.com',
  user_metadata: { name: 'Ada' },
};

/** What the header shows, straight from the auth state. */
function NameProbe() {
  const { user } = useAuth();
  return <p data-testid="header-name">{displayName(user) ?? 'Unknown User'}</p>;
}

function renderSettings() {
  const result = renderWithAuth(
    <>
      <NameProbe />
      <Routes>
        <Route element={<ProtectedRoute />}>
          <Route path="/settings" element={<SettingsPage />} />
        </Route>
        <Route path="/" element={<h1>Home</h1>} />
        <Route path="/login" element={<h1>Login</h1>} />
      </Routes>
    </>,
    { route: '/settings' },
  );
  return { ...result, user: userEvent.setup() };
}

const section = (name: string) => within(screen.getByRole('region', { name }));

describe('SettingsPage', { timeout: 30_000 }, () => {
  beforeEach(() => {
    seedSettings();
    signInAs(ADA);
    // The auth server updates the user (supabase-js then emits USER_UPDATED with it), and checks
    // the current password when signing in with it: 'old-secret' is right.
    supabaseAuth.answer('token?grant_type=password', (body) =>
      body.password === 'old-secret'
        ? undefined
        : authError(400, 'invalid_credentials', 'Invalid login credentials'),
    );
  });

  it('saves a trimmed display name, and the header follows at once', async () => {
    const { user } = renderSettings();
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    const input = screen.getByRole('textbox', { name: 'Display name' });
    expect(input).toHaveValue('Ada');
    const save = screen.getByRole('button', { name: 'Save name' });
    expect(save).toBeDisabled();
    await user.clear(input);
    await user.type(input, '  Ada Lovelace  ');
    await user.click(save);
    await waitFor(() =>
      expect(supabaseAuth.sent('put', 'user')).toContainEqual({
        data: { name: 'Ada Lovelace' },
      }),
    );
    expect(await screen.findByTestId('header-name')).toHaveTextContent('Ada Lovelace');
    await waitFor(() => expect(input).toHaveValue('Ada Lovelace'));
  });

  it('refuses an empty or too long display name without calling the server', async () => {
    const { user } = renderSettings();
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    const input = screen.getByRole('textbox', { name: 'Display name' });
    await user.clear(input);
    await user.type(input, '   ');
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Enter a display name.')).toBeInTheDocument();
    await user.clear(input);
    await user.click(input);
    await user.paste('x'.repeat(201));
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Use at most 200 characters.')).toBeInTheDocument();
    expect(supabaseAuth.sent('put', 'user')).toEqual([]);
  });

  it('changes the password once both fields match, signing in afresh with the current one', async () => {
    const { user } = renderSettings();
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    await user.type(screen.getByLabelText('Current password'), 'old-secret');
    const password = screen.getByLabelText('New password');
    const confirm = screen.getByLabelText('Confirm new password');
    await user.type(password, 'n3w-secret');
    await user.type(confirm, 'n3w-secreT');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();
    expect(supabaseAuth.sent('put', 'user')).toEqual([]);
    await user.clear(confirm);
    await user.type(confirm, 'n3w-secret');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(supabaseAuth.sent('put', 'user')).toContainEqual({
        password: 'n3w-secret',
        current_password: 'old-secret',
      }),
    );
    expect(supabaseAuth.sent('post', 'token?grant_type=password')).toContainEqual({
      email: 'ada@example.com',
      password: 'old-secret',
    });
    await waitFor(() => expect(password).toHaveValue(''));
    expect(confirm).toHaveValue('');
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });

  it('asks for the current password and changes nothing when it is wrong', async () => {
    const { user } = renderSettings();
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    await user.type(screen.getByLabelText('New password'), 'n3w-secret');
    await user.type(screen.getByLabelText('Confirm new password'), 'n3w-secret');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Enter your current password.')).toBeInTheDocument();
    expect(supabaseAuth.sent('post', 'token?grant_type=password')).toEqual([]);

    const current = screen.getByLabelText('Current password');
    await user.type(current, 'guessed');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText('That is not your current password. Nothing was changed.'),
    ).toBeInTheDocument();
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(current).toHaveValue('');
    expect(supabaseAuth.sent('put', 'user')).toEqual([]);
    // What was typed as the new password stays, for another try.
    expect(screen.getByLabelText('New password')).toHaveValue('n3w-secret');
  });

  it("asks for at least 6 characters and shows the server's message on failure", async () => {
    supabaseAuth.answer('PUT user', () =>
      authError(422, 'same_password', 'New password should be different from the old password.'),
    );
    const { user } = renderSettings();
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    await user.type(screen.getByLabelText('Current password'), 'old-secret');
    await user.type(screen.getByLabelText('New password'), '12345');
    await user.type(screen.getByLabelText('Confirm new password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Use at least 6 characters.')).toBeInTheDocument();
    expect(supabaseAuth.sent('put', 'user')).toEqual([]);
    await user.type(screen.getByLabelText('New password'), '6');
    await user.type(screen.getByLabelText('Confirm new password'), '6');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await section('Password').findByRole('alert')).toHaveTextContent(
      'New password should be different from the old password.',
    );
    // A weak password refused by the server shows its message too.
    supabaseAuth.answer('PUT user', () =>
      authError(422, 'weak_password', 'Password is known to be weak.', {
        weak_password: { reasons: ['pwned'] },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(section('Password').getByRole('alert')).toHaveTextContent(
        'Password is known to be weak.',
      ),
    );
  });
});

describe('SettingsPage account deletion', { timeout: 30_000 }, () => {
  beforeEach(() => {
    seedSettings();
    signInAs(ADA);
  });

  async function openDialog(user: ReturnType<typeof userEvent.setup>) {
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    return within(await screen.findByRole('alertdialog', { name: 'Delete your account?' }));
  }

  it('deletes only after the e-mail (or DELETE) is typed, then signs out here and goes home', async () => {
    const { user } = renderSettings();
    const dialog = await openDialog(user);
    const input = dialog.getByRole('textbox', { name: 'Type your e-mail to confirm' });
    const confirm = dialog.getByRole('button', { name: 'Delete my account' });
    expect(confirm).toBeDisabled();
    await user.type(input, 'ada@example');
    expect(confirm).toBeDisabled();
    await user.type(input, '{Enter}');
    expect(supabaseDb.rpcsCalled()).toEqual([]);
    await user.type(input, '.com');
    expect(confirm).toBeEnabled();
    await user.clear(input);
    await user.type(input, 'delete');
    expect(confirm).toBeDisabled();
    await user.clear(input);
    await user.type(input, 'DELETE');
    await user.click(confirm);

    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    expect(currentLocation()).toHaveTextContent(/^\/$/);
    expect(supabaseDb.rpcsCalled()).toContain('delete_own_account');
    await waitFor(() =>
      expect(supabaseAuth.sent('post', 'logout')).toContainEqual({ scope: 'local' }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('header-name')).toHaveTextContent('Unknown User'),
    );
    // Signed out on the home page, not sent to the login page by the route guard.
    expect(currentLocation()).toHaveTextContent(/^\/$/);
  });

  it('keeps the account and says why when the deletion fails', async () => {
    failRequests('post', 'rpc/delete_own_account', pgError('', 'Not signed in.'));
    const { user } = renderSettings();
    const dialog = await openDialog(user);
    await user.type(
      dialog.getByRole('textbox', { name: 'Type your e-mail to confirm' }),
      'ADA@example.com',
    );
    await user.click(dialog.getByRole('button', { name: 'Delete my account' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Not signed in.');
    expect(supabaseAuth.sent('post', 'logout')).toEqual([]);
    expect(currentLocation()).toHaveTextContent(/^\/settings$/);
  });

  it('cancels without deleting', async () => {
    const { user } = renderSettings();
    const dialog = await openDialog(user);
    await user.type(dialog.getByRole('textbox', { name: 'Type your e-mail to confirm' }), 'DELETE');
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(supabaseDb.rpcsCalled()).toEqual([]);
    // Reopened, the confirmation starts empty again.
    const again = await openDialog(user);
    expect(again.getByRole('textbox', { name: 'Type your e-mail to confirm' })).toHaveValue('');
  });
});

describe('SettingsPage plan', { timeout: 30_000 }, () => {
  beforeEach(() => {
    seedSettings();
    signInAs(ADA);
  });

  it('shows the plan and usage passed in first, under its own anchor', async () => {
    renderWithAuth(
      <Routes>
        <Route element={<ProtectedRoute />}>
          <Route path="/settings" element={<SettingsPage plan={<p>Free: 85 of 100</p>} />} />
        </Route>
      </Routes>,
      { route: '/settings' },
    );
    const plan = await screen.findByRole('region', { name: 'Plan and usage' }, SLOW);
    expect(plan).toHaveAttribute('id', 'plan');
    expect(within(plan).getByText('Free: 85 of 100')).toBeInTheDocument();
    const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-labelledby'));
    expect(regions[0]).toBe(plan.getAttribute('aria-labelledby'));
  });
});
