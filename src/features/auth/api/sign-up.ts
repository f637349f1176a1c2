// Create an account; the display name travels as user metadata (the profile row is made from it).
import { supabase } from '../../../lib/supabase';
import { sessionStore } from '../../../lib/session-storage';

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
}

/** Resolves with whether a session started (false when the project asks to confirm the e-mail first). */
export async function signUp({
  name,
  email,
  password,
}: SignUpInput): Promise<{ signedIn: boolean }> {
  // The register form has no 'Remember me': a new account is remembered, the default.
  sessionStore.setRemembered(true);
  const { data, error } = await supabase.auth.signUp({
    email: email.trim(),
    password,
    options: { data: { name: name.trim() } },
  });
  if (error) throw error;
  return { signedIn: Boolean(data.session) };
}
