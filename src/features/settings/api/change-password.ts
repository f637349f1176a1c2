// Change the signed-in user's password, asking for the current one first: a fresh sign-in with
// it proves it (a stolen session alone cannot change the password) and gives the new password a
// session signed in moments ago, as Auth's secure_password_change asks of a change on a session
// older than a day. The current password goes along too, for deployments whose Auth checks it
// itself. Auth then ends every other session and mails the "password changed" notice. The
// server applies its own rules (length, not the same as before) and its message is shown when
// it refuses.
import * as yup from 'yup';
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { PASSWORD_MIN_LENGTH } from '../../../config/site';

export const changePasswordSchema = yup.object({
  // Passwords are taken exactly as typed: no trimming.
  current: yup.string().required('Enter your current password.'),
  password: yup
    .string()
    .required('Enter a new password.')
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`),
  confirm: yup
    .string()
    .required('Repeat the new password.')
    .oneOf([yup.ref('password')], 'The passwords do not match.'),
});

type ChangePasswordInput = yup.InferType<typeof changePasswordSchema>;

/** The current password was not the account's: nothing was changed. */
export class WrongCurrentPasswordError extends Error {
  readonly code = 'wrong_current_password';
  constructor() {
    super('That is not your current password. Nothing was changed.');
  }
}

async function changePassword(input: ChangePasswordInput & { email: string }): Promise<void> {
  const { current, password } = await changePasswordSchema.validate(input);
  const checked = await supabase.auth.signInWithPassword({ email: input.email, password: current });
  if (checked.error) {
    if (checked.error.code === 'invalid_credentials') throw new WrongCurrentPasswordError();
    throw checked.error;
  }
  const { error } = await supabase.auth.updateUser({ password, current_password: current });
  if (error) throw error;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
