// POST booking/manage/<token>/cancel {reason?}: the visitor cancels; spends the token.
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../../lib/supabase';
import { readFailure } from '../function-answer';

export type CancelOutcome =
  | { kind: 'cancelled' }
  | { kind: 'already_cancelled' }
  | { kind: 'past' }
  | { kind: 'gone' }
  | { kind: 'unavailable' };

async function cancelBooking({
  token,
  reason,
}: {
  token: string;
  reason: string;
}): Promise<CancelOutcome> {
  const trimmed = reason.trim();
  const { error } = await supabase.functions.invoke(
    `booking/manage/${encodeURIComponent(token)}/cancel`,
    { body: trimmed ? { reason: trimmed } : {} },
  );
  if (!error) return { kind: 'cancelled' };
  const { status, body } = await readFailure(error);
  if (status === 404) return { kind: 'gone' };
  if (status === 409 && body.code === 'already_cancelled') return { kind: 'already_cancelled' };
  if (status === 409 && body.code === 'past') return { kind: 'past' };
  return { kind: 'unavailable' };
}

export function useCancelBooking() {
  return useMutation({ mutationFn: cancelBooking });
}
