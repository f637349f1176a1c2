// Deletes a draft (the database deletes nothing else: a campaign that was sent stays on record).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Campaign } from '../newsletter-types';
import { newsletterKeys } from './query-keys';

async function deleteCampaign(id: string): Promise<void> {
  const { error } = await supabase.from('campaigns').delete().eq('id', id);
  if (error) throw error;
}

export function useDeleteCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteCampaign,
    onSuccess: (_data, id) => {
      client.setQueryData<Campaign[]>(newsletterKeys.campaigns(), (rows) =>
        rows?.filter((row) => row.id !== id),
      );
      client.removeQueries({ queryKey: newsletterKeys.campaign(id) });
    },
    onSettled: () => client.invalidateQueries({ queryKey: newsletterKeys.campaigns() }),
  });
}
