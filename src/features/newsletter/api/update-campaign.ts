// Saves a draft's list, subject, Markdown body and its own sender name and reply-to (null: the
// list's). Only a draft can be edited: the database refuses any other with 55000.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Campaign } from '../newsletter-types';
import { CAMPAIGN_COLUMNS } from './get-campaigns';
import { newsletterKeys } from './query-keys';

interface DraftInput {
  id: string;
  list_id: string;
  subject: string;
  body_markdown: string;
  from_name: string | null;
  reply_to: string | null;
}

async function updateCampaign({ id, ...input }: DraftInput): Promise<Campaign> {
  const { data, error } = await supabase
    .from('campaigns')
    .update(input)
    .eq('id', id)
    .select(CAMPAIGN_COLUMNS)
    .single();
  if (error) throw error;
  return data as Campaign;
}

export function useUpdateCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateCampaign,
    onSuccess: (campaign) => {
      client.setQueryData(newsletterKeys.campaign(campaign.id), campaign);
      client.setQueryData<Campaign[]>(newsletterKeys.campaigns(), (rows) =>
        rows?.map((row) => (row.id === campaign.id ? campaign : row)),
      );
    },
  });
}
