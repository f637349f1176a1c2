// Starts a new draft to one of the owner's lists, empty; its page opens next to write it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Campaign } from '../newsletter-types';
import { CAMPAIGN_COLUMNS } from './get-campaigns';
import { newsletterKeys } from './query-keys';

async function createCampaign(listId: string): Promise<Campaign> {
  const { data, error } = await supabase
    .from('campaigns')
    .insert({ list_id: listId })
    .select(CAMPAIGN_COLUMNS)
    .single();
  if (error) throw error;
  return data as Campaign;
}

export function useCreateCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: (campaign) => {
      client.setQueryData(newsletterKeys.campaign(campaign.id), campaign);
      client.setQueryData<Campaign[]>(newsletterKeys.campaigns(), (rows) =>
        rows ? [campaign, ...rows.filter((row) => row.id !== campaign.id)] : rows,
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: newsletterKeys.campaigns() }),
  });
}
