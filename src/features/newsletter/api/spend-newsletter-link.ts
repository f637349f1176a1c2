// The actions of the newsletter e-mail's two links: spend a confirm or an unsubscribe token with
// the `newsletter` function (POST /newsletter/confirm or /newsletter/unsubscribe). The pages call
// them only when the reader presses their button, so a mail scanner fetching the link does nothing.
import * as yup from 'yup';
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

/** 32 random bytes, base64url without padding, as the function makes them. */
const LINK_TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

const linkTokenSchema = yup.object({
  token: yup.string().required().matches(LINK_TOKEN_FORMAT),
});
export type LinkTokenInput = yup.InferType<typeof linkTokenSchema>;

export type LinkAction = 'confirm' | 'unsubscribe';
/** `done`: confirmed or unsubscribed; `invalid`: unknown, used or expired (one answer for all). */
export type LinkOutcome = 'done' | 'invalid';

async function spendNewsletterLink(
  action: LinkAction,
  input: LinkTokenInput,
): Promise<LinkOutcome> {
  // A malformed token cannot be one the function made: no request needed to say so.
  if (!linkTokenSchema.isValidSync(input)) return 'invalid';
  const { error } = await supabase.functions.invoke(`newsletter/${action}`, {
    body: { token: input.token },
  });
  if (!error) return 'done';
  // supabase-js puts the function's Response in `context` for a non-2xx answer.
  if ((error as { context?: { status?: number } }).context?.status === 404) return 'invalid';
  throw error;
}

export function useNewsletterLink(action: LinkAction) {
  return useMutation({ mutationFn: (input: LinkTokenInput) => spendNewsletterLink(action, input) });
}
