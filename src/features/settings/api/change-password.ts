// Change the signed-in user's password. The server applies its own rules (length, not the same
// as before) and its message is shown when it refuses.
import * as yup from 'yup';
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { PASSWORD_MIN_LENGTH } from '../../../config/site';

export const changePasswordSchema = yup.object({
  // Passwords are taken exactly as typed: no trimming.
  password: yup
    .string()
    .required('Enter a new password.')
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`),
  confirm: yup
    .string()
    .required('Repeat the new password.')
    .oneOf([yup.ref('password')], 'The passwords do not match.'),
});

export type ChangePasswordInput = yup.InferType<typeof changePasswordSchema>;

export async function changePassword(input: ChangePasswordInput): Promise<void> {
  const { password } = await changePasswordSchema.validate(input);
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
