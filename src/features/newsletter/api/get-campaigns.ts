// Reads the owner's campaigns, newest first, with their status and counts; Realtime keeps them
// current while they send (live-bindings.ts).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Campaign } from '../newsletter-types';
import { newsletterKeys } from './query-keys';

export const CAMPAIGN_COLUMNS =
  'id, user_id, list_id, subject, body_markdown, from_name, reply_to, status, scheduled_at, started_at, finished_at, recipients, sent, failed, bounced, unsubscribed, created_at, updated_at';

async function getCampaigns(): Promise<Campaign[]> {
  const { data, error } = await supabase
    .from('campaigns')
    .select(CAMPAIGN_COLUMNS)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false });
  if (error) throw error;
  return (data ?? []) as Campaign[];
}

export function useCampaigns() {
  return useQuery({ queryKey: newsletterKeys.campaigns(), queryFn: getCampaigns });
}
