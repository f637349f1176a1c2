// The /confirm-address page's action: spends the token of a confirmation link (RPC
// `confirm_target_email`, callable signed in or not; whoever holds the token may use it once).
import { useMutation } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';

/** 32 random bytes in hex, as the database makes them. */
export const TOKEN_FORMAT = /^[0-9a-f]{64}$/;

export const confirmTargetEmailSchema = yup.object({
  token: yup.string().required().matches(TOKEN_FORMAT),
});
export type ConfirmTargetEmailInput = yup.InferType<typeof confirmTargetEmailSchema>;

export type ConfirmOutcome =
  { status: 'confirmed'; email: string } | { status: 'invalid' | 'used' | 'expired' };

export function toConfirmOutcome(data: unknown): ConfirmOutcome {
  const row = data as { status?: unknown; email?: unknown } | null;
  if (row?.status === 'confirmed' && typeof row.email === 'string') {
    return { status: 'confirmed', email: row.email };
  }
  if (row?.status === 'invalid' || row?.status === 'used' || row?.status === 'expired') {
    return { status: row.status };
  }
  throw new Error('Unexpected answer to the confirmation.');
}

export async function confirmTargetEmail(input: ConfirmTargetEmailInput): Promise<ConfirmOutcome> {
  // A malformed token cannot be one the database made: no request needed to say so.
  if (!confirmTargetEmailSchema.isValidSync(input)) return { status: 'invalid' };
  const { data, error } = await supabase.rpc('confirm_target_email', { p_token: input.token });
  if (error) throw error;
  return toConfirmOutcome(data);
}

export function useConfirmTargetEmail() {
  return useMutation({ mutationFn: confirmTargetEmail });
}
