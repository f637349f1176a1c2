// Create an account; the display name (the profile row is made from it) and the plan picked on the
// pricing page (recorded with the account) travel as user metadata.
// With e-mail confirmations on (Supabase's default, and this project's config.toml) the account
// waits for the link mailed to its address, which signs the user in on the dashboard.
import { supabase } from '../../../lib/supabase';
import { sessionStore } from '../../../lib/session-storage';
import { paths } from '../../../config/paths';

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  /**
   * The plan and billing cycle picked on the pricing page, if any: recorded with the account
   * (account_plans.chosen_plan) and shown in Settings. The account starts on Free whatever it is.
   */
  plan?: { id: string; billing: 'monthly' | 'annual' } | null;
}

export type SignUpResult =
  | { signedIn: true }
  /** The confirmation link is on its way to `email`; no session until it is followed. */
  | { signedIn: false; email: string };

/** Where the confirmation link leads: the dashboard, signed in (the session is in the URL). */
export function confirmationRedirect(): string {
  return `${window.location.origin}${paths.dashboard}`;
}

/** The error the register form shows as "This email is already in use." */
function alreadyRegistered(): Error {
  return Object.assign(new Error('User already registered'), { code: 'user_already_exists' });
}

/** The sign-up metadata: the display name, and the chosen plan when there is one. */
function signUpMetadata(name: string, plan: SignUpInput['plan']): Record<string, string> {
  return plan ? { name: name.trim(), plan: plan.id, billing: plan.billing } : { name: name.trim() };
}

export async function signUp({ name, email, password, plan }: SignUpInput): Promise<SignUpResult> {
  // The register form has no 'Remember me': a new account is remembered, the default.
  sessionStore.setRemembered(true);
  const address = email.trim();
  const { data, error } = await supabase.auth.signUp({
    email: address,
    password,
    options: { data: signUpMetadata(name, plan), emailRedirectTo: confirmationRedirect() },
  });
  if (error) throw error;
  if (data.session) return { signedIn: true };
  // With confirmations on, Supabase answers a sign-up of an address whose account is confirmed
  // already like a new one, but without identities (and mails nothing).
  if (data.user?.identities?.length === 0) throw alreadyRegistered();
  return { signedIn: false, email: data.user?.email ?? address };
}
