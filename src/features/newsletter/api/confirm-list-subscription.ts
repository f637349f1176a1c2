// The confirmation link of an owner's list: spend its token with the `newsletter` function
// (POST /newsletter/lists/confirm). The page calls it only when the reader presses its button,
// so a mail scanner opening the link confirms nobody.
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

/** 32 random bytes, base64url without padding, as the function makes them. */
const LINK_TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** `confirmed` with the list's name, or `invalid`: unknown, used or expired (one answer for all). */
type ListConfirmOutcome = { status: 'confirmed'; listName: string } | { status: 'invalid' };

async function confirmListSubscription(token: string): Promise<ListConfirmOutcome> {
  // A malformed token cannot be one the function made: no request needed to say so.
  if (!LINK_TOKEN_FORMAT.test(token)) return { status: 'invalid' };
  const { data, error } = await supabase.functions.invoke<{ listName?: unknown }>(
    'newsletter/lists/confirm',
    { body: { token } },
  );
  if (!error) {
    const listName = typeof data?.listName === 'string' ? data.listName : '';
    return { status: 'confirmed', listName };
  }
  // supabase-js puts the function's Response in `context` for a non-2xx answer.
  if ((error as { context?: { status?: number } }).context?.status === 404)
    return { status: 'invalid' };
  throw error;
}

export function useConfirmListSubscription() {
  return useMutation({ mutationFn: confirmListSubscription });
}
