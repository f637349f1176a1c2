// Reads the owner's lists (RLS: only their own), oldest first.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { NewsletterList } from '../newsletter-types';
import { newsletterKeys } from './query-keys';

export const LIST_COLUMNS =
  'id, user_id, name, from_name, reply_to, allowed_origin, confirm_message, captcha_provider, captcha_site_key, site_list, created_at, updated_at';

async function getLists(): Promise<NewsletterList[]> {
  const { data, error } = await supabase
    .from('newsletter_lists')
    .select(LIST_COLUMNS)
    .order('created_at', { ascending: true })
    .order('id', { ascending: true });
  if (error) throw error;
  return data ?? [];
}

export function useLists() {
  return useQuery({ queryKey: newsletterKeys.lists(), queryFn: getLists });
}
