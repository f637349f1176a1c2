// The unsubscribe link of an owner's campaign mail: the signed link (subscriber, campaign or '-',
// signature) posted to the `newsletter` function (POST /newsletter/u/…), the same URL a mail
// program's one-click unsubscribe posts to. The page calls it once, as soon as it opens.
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** HMAC-SHA-256, base64url without padding, as the function signs. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

interface ListUnsubscribeLink {
  subscriber: string;
  /** A campaign's id, or '-' for mail that is no campaign's. */
  campaign: string;
  signature: string;
}

type ListUnsubscribeOutcome = { status: 'unsubscribed'; listName: string } | { status: 'invalid' };

/** Whether the link's parts can be one the function signed (else no request is made). */
function isListUnsubscribeLink(link: ListUnsubscribeLink): boolean {
  return (
    UUID.test(link.subscriber) &&
    (link.campaign === '-' || UUID.test(link.campaign)) &&
    SIGNATURE.test(link.signature)
  );
}

async function unsubscribeFromList(link: ListUnsubscribeLink): Promise<ListUnsubscribeOutcome> {
  if (!isListUnsubscribeLink(link)) return { status: 'invalid' };
  const { data, error } = await supabase.functions.invoke<{ listName?: unknown }>(
    `newsletter/u/${link.subscriber}/${link.campaign}/${link.signature}`,
    // JSON, so the function answers with the list's name.
    { body: {} },
  );
  if (!error) {
    const listName = typeof data?.listName === 'string' ? data.listName : '';
    return { status: 'unsubscribed', listName };
  }
  // 403: not a link the function signed; 404: the address is no longer on the list.
  const status = (error as { context?: { status?: number } }).context?.status;
  if (status === 403 || status === 404) return { status: 'invalid' };
  throw error;
}

export function useUnsubscribeFromList() {
  return useMutation({ mutationFn: unsubscribeFromList });
}
