import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AuthApiError, AuthWeakPasswordError } from '@supabase/supabase-js';
import { Route, Routes } from 'react-router-dom';
import { currentLocation, SLOW } from '../../components/testing/render';
import { renderWithAuth } from '../../components/testing/render-with-auth';
import { fakeSession } from '../../components/testing/supabase-mock';
import { displayName, ProtectedRoute, useAuth } from '../../lib/auth';
import { resetSettingsSupabase, type SettingsSupabaseDouble } from './testing/mocked-supabase';
import { SettingsPage } from './settings-page';

vi.mock('../../lib/supabase', () => import('./testing/mocked-supabase'));

let double: SettingsSupabaseDouble;

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
    double = resetSettingsSupabase();
    double.setSession(fakeSession('ada@example.com', 'Ada'));
    // As supabase-js does: a successful update emits USER_UPDATED with the new user.
    // The current password is checked by signing in with it: 'old-secret' is right.
    double.supabase.auth.signInWithPassword.mockImplementation(
      async ({ password }: { password: string }) =>
        password === 'old-secret'
          ? { data: {}, error: null }
          : {
              data: { user: null, session: null },
              error: new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'),
            },
    );
    double.supabase.auth.updateUser.mockImplementation(
      async (attributes: { data?: { name?: string } }) => {
        if (attributes.data?.name !== undefined) {
          double.setSession(fakeSession('ada@example.com', attributes.data.name), 'USER_UPDATED');
        }
        return { data: {}, error: null };
      },
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
      expect(double.supabase.auth.updateUser).toHaveBeenCalledWith({
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
    expect(double.supabase.auth.updateUser).not.toHaveBeenCalled();
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
    expect(double.supabase.auth.updateUser).not.toHaveBeenCalled();
    await user.clear(confirm);
    await user.type(confirm, 'n3w-secret');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(double.supabase.auth.updateUser).toHaveBeenCalledWith({
        password: 'n3w-secret',
        current_password: 'old-secret',
      }),
    );
    expect(double.supabase.auth.signInWithPassword).toHaveBeenCalledWith({
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
    expect(double.supabase.auth.signInWithPassword).not.toHaveBeenCalled();

    const current = screen.getByLabelText('Current password');
    await user.type(current, 'guessed');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText('That is not your current password. Nothing was changed.'),
    ).toBeInTheDocument();
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(current).toHaveValue('');
    expect(double.supabase.auth.updateUser).not.toHaveBeenCalled();
    // What was typed as the new password stays, for another try.
    expect(screen.getByLabelText('New password')).toHaveValue('n3w-secret');
  });

  it("asks for at least 6 characters and shows the server's message on failure", async () => {
    double.supabase.auth.updateUser.mockResolvedValue({
      data: {},
      error: new AuthApiError(
        'New password should be different from the old password.',
        422,
        'same_password',
      ),
    });
    const { user } = renderSettings();
    await screen.findByRole('heading', { level: 1, name: 'Settings' }, SLOW);
    await user.type(screen.getByLabelText('Current password'), 'old-secret');
    await user.type(screen.getByLabelText('New password'), '12345');
    await user.type(screen.getByLabelText('Confirm new password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Use at least 6 characters.')).toBeInTheDocument();
    expect(double.supabase.auth.updateUser).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('New password'), '6');
    await user.type(screen.getByLabelText('Confirm new password'), '6');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await section('Password').findByRole('alert')).toHaveTextContent(
      'New password should be different from the old password.',
    );
    // A weak password refused by the server shows its message too.
    double.supabase.auth.updateUser.mockResolvedValue({
      data: {},
      error: new AuthWeakPasswordError('Password is known to be weak.', 422, ['pwned']),
    });
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
    double = resetSettingsSupabase();
    double.setSession(fakeSession('ada@example.com', 'Ada'));
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
    expect(double.rpc).not.toHaveBeenCalled();
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
    expect(double.rpc).toHaveBeenCalledWith('delete_own_account');
    await waitFor(() =>
      expect(double.supabase.auth.signOut).toHaveBeenCalledWith({ scope: 'local' }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('header-name')).toHaveTextContent('Unknown User'),
    );
    // Signed out on the home page, not sent to the login page by the route guard.
    expect(currentLocation()).toHaveTextContent(/^\/$/);
  });

  it('keeps the account and says why when the deletion fails', async () => {
    double.rpc.mockResolvedValue({ data: null, error: { message: 'Not signed in.' } });
    const { user } = renderSettings();
    const dialog = await openDialog(user);
    await user.type(
      dialog.getByRole('textbox', { name: 'Type your e-mail to confirm' }),
      'ADA@example.com',
    );
    await user.click(dialog.getByRole('button', { name: 'Delete my account' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Not signed in.');
    expect(double.supabase.auth.signOut).not.toHaveBeenCalled();
    expect(currentLocation()).toHaveTextContent(/^\/settings$/);
  });

  it('cancels without deleting', async () => {
    const { user } = renderSettings();
    const dialog = await openDialog(user);
    await user.type(dialog.getByRole('textbox', { name: 'Type your e-mail to confirm' }), 'DELETE');
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(double.rpc).not.toHaveBeenCalled();
    // Reopened, the confirmation starts empty again.
    const again = await openDialog(user);
    expect(again.getByRole('textbox', { name: 'Type your e-mail to confirm' })).toHaveValue('');
  });
});

describe('SettingsPage plan', { timeout: 30_000 }, () => {
  beforeEach(() => {
    double = resetSettingsSupabase();
    double.setSession(fakeSession('ada@example.com', 'Ada'));
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
