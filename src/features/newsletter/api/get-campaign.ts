// Reads one campaign by id for its page; null when there is none the owner may read (never
// created, deleted, or another owner's). The campaigns list, when cached, shows it at once.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { Campaign } from '../newsletter-types';
import { CAMPAIGN_COLUMNS } from './get-campaigns';
import { newsletterKeys } from './query-keys';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function getCampaign(id: string): Promise<Campaign | null> {
  // Not an id at all: no campaign, and no request the database would refuse as malformed.
  if (!UUID.test(id)) return null;
  const { data, error } = await supabase
    .from('campaigns')
    .select(CAMPAIGN_COLUMNS)
    .eq('id', id)
    .maybeSingle();
  if (error) throw error;
  return data as Campaign | null;
}

export function useCampaign(id: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: newsletterKeys.campaign(id),
    queryFn: () => getCampaign(id),
    initialData: () =>
      client.getQueryData<Campaign[]>(newsletterKeys.campaigns())?.find((row) => row.id === id),
    initialDataUpdatedAt: () => client.getQueryState(newsletterKeys.campaigns())?.dataUpdatedAt,
  });
}
