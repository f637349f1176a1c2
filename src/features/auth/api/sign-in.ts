// Sign in with e-mail and password.
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';

export const signInSchema = yup.object({
  email: yup.string().trim().required('Email is required.').email('Enter a valid email address.'),
  password: yup.string().required('Password is required.'),
});

export type SignInInput = yup.InferType<typeof signInSchema>;

/** Resolves on success; rejects with the server's error (its message is shown as is). */
export async function signIn({ email, password }: SignInInput): Promise<void> {
  const { error } = await supabase.auth.signInWithPassword({ email: email.trim(), password });
  if (error) throw error;
}
