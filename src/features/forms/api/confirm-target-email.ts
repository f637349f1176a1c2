// The /confirm-address page's requests: what a confirmation link is about (RPC
// `target_confirmation_details`, which changes nothing) and its action, which spends the token (RPC
// `confirm_target_email`). Both are callable signed in or not; whoever holds the token may use it
// once.
import { useMutation, useQuery } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';

/** 32 random bytes in hex, as the database makes them. */
const TOKEN_FORMAT = /^[0-9a-f]{64}$/;

const confirmTargetEmailSchema = yup.object({
  token: yup.string().required().matches(TOKEN_FORMAT),
});
type ConfirmTargetEmailInput = yup.InferType<typeof confirmTargetEmailSchema>;

export type ConfirmOutcome =
  | {
      status: 'confirmed';
      email: string;
      /** The form's name as the mail gave it (a short, link-free label); null if not said. */
      form: string | null;
    }
  | { status: 'invalid' | 'used' | 'expired' };

function toConfirmOutcome(data: unknown): ConfirmOutcome {
  const row = data as { status?: unknown; email?: unknown; form?: unknown } | null;
  if (row?.status === 'confirmed' && typeof row.email === 'string') {
    return {
      status: 'confirmed',
      email: row.email,
      form: typeof row.form === 'string' ? row.form : null,
    };
  }
  if (row?.status === 'invalid' || row?.status === 'used' || row?.status === 'expired') {
    return { status: row.status };
  }
  throw new Error('Unexpected answer to the confirmation.');
}

async function confirmTargetEmail(input: ConfirmTargetEmailInput): Promise<ConfirmOutcome> {
  // A malformed token cannot be one the database made: no request needed to say so.
  if (!confirmTargetEmailSchema.isValidSync(input)) return { status: 'invalid' };
  const { data, error } = await supabase.rpc('confirm_target_email', { p_token: input.token });
  if (error) throw error;
  return toConfirmOutcome(data);
}

export function useConfirmTargetEmail() {
  return useMutation({ mutationFn: confirmTargetEmail });
}

export type ConfirmationDetails =
  /** Not used yet: the address and the form it is about. */
  | { status: 'pending'; email: string; form: string | null }
  | { status: 'invalid' | 'used' | 'expired' };

function toConfirmationDetails(data: unknown): ConfirmationDetails {
  const row = data as { status?: unknown; email?: unknown; form?: unknown } | null;
  if (row?.status === 'pending' && typeof row.email === 'string') {
    return {
      status: 'pending',
      email: row.email,
      form: typeof row.form === 'string' ? row.form : null,
    };
  }
  if (row?.status === 'invalid' || row?.status === 'used' || row?.status === 'expired') {
    return { status: row.status };
  }
  throw new Error('Unexpected answer about the confirmation link.');
}

async function getConfirmationDetails(token: string): Promise<ConfirmationDetails> {
  if (!confirmTargetEmailSchema.isValidSync({ token })) return { status: 'invalid' };
  const { data, error } = await supabase.rpc('target_confirmation_details', { p_token: token });
  if (error) throw error;
  return toConfirmationDetails(data);
}

/** What the link is about, read once when the page opens (nothing is confirmed by reading it). */
export function useConfirmationDetails(token: string) {
  return useQuery({
    queryKey: ['confirm-address', token],
    queryFn: () => getConfirmationDetails(token),
    staleTime: Infinity,
    retry: 1,
  });
}
