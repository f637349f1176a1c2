// Sign in with e-mail and password; 'Remember me' decides where the session is kept.
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { sessionStore } from '../../../lib/session-storage';

export const signInSchema = yup.object({
  email: yup.string().trim().required('Email is required.').email('Enter a valid email address.'),
  password: yup.string().required('Password is required.'),
  remember: yup.boolean().default(true),
});

export type SignInInput = yup.InferType<typeof signInSchema>;

/** Resolves on success; rejects with the server's error (its message is shown as is). */
export async function signIn({ email, password, remember = true }: SignInInput): Promise<void> {
  // Set before signing in: the new session is written to the chosen storage as it arrives.
  // Remembered keeps it in localStorage (it survives closing the browser), otherwise it lives
  // in sessionStorage and ends with the browser tab.
  sessionStore.setRemembered(remember);
  const { error } = await supabase.auth.signInWithPassword({ email: email.trim(), password });
  if (error) throw error;
}
