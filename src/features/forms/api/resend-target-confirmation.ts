// "Resend confirmation" on a form's card: asks for a new confirmation e-mail to the form's target
// address (RPC `resend_target_confirmation`, as the signed-in owner). The database throttles it
// (one request waits at a time, one mail per address a minute, daily caps) and says what it did.
import { useMutation } from '@tanstack/react-query';
import * as yup from 'yup';
import { supabase } from '../../../lib/supabase';
import { sendMailNow } from './send-mail-now';

const resendTargetConfirmationSchema = yup.object({
  formId: yup.string().uuid().required(),
});
type ResendTargetConfirmationInput = yup.InferType<typeof resendTargetConfirmationSchema>;

export type ResendOutcome =
  /** A new e-mail goes out with the next mail run. */
  | { status: 'requested'; email: string }
  /** One is already waiting for the next mail run. */
  | { status: 'already_requested'; email: string }
  /** The address is confirmed meanwhile (in another tab, say). */
  | { status: 'verified' }
  /** A daily cap of confirmation e-mails was reached. */
  | { status: 'limited' }
  /** No such form of the caller's (deleted meanwhile). */
  | { status: 'not_found' };

const STATUSES = new Set(['requested', 'already_requested', 'verified', 'limited', 'not_found']);

/** The RPC's answer, checked: an unknown shape is an error, not a silent success. */
function toResendOutcome(data: unknown): ResendOutcome {
  const row = data as { status?: unknown; email?: unknown } | null;
  if (!row || typeof row.status !== 'string' || !STATUSES.has(row.status)) {
    throw new Error('Unexpected answer to the confirmation request.');
  }
  if (row.status === 'requested' || row.status === 'already_requested') {
    if (typeof row.email !== 'string')
      throw new Error('Unexpected answer to the confirmation request.');
    return { status: row.status, email: row.email };
  }
  return { status: row.status } as ResendOutcome;
}

async function resendTargetConfirmation(
  input: ResendTargetConfirmationInput,
): Promise<ResendOutcome> {
  const { formId } = resendTargetConfirmationSchema.validateSync(input);
  const { data, error } = await supabase.rpc('resend_target_confirmation', { p_form_id: formId });
  if (error) throw error;
  return toResendOutcome(data);
}

export function useResendTargetConfirmation() {
  return useMutation({
    mutationFn: resendTargetConfirmation,
    // Composed and sent now, unless one went to the address within the last minute.
    onSuccess: (outcome) => {
      if (outcome.status === 'requested') void sendMailNow();
    },
  });
}
