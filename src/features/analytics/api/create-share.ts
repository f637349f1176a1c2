// Creates a site's public share link, or replaces it with a new one (the old link stops working
// at once). Answers the new token.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { shareKeys } from './get-share';

async function createShare(siteId: string): Promise<string> {
  const { data, error } = await supabase.rpc('analytics_share_create', { p_site_id: siteId });
  if (error) throw error;
  return data;
}

export function useCreateShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createShare,
    onSuccess: (token, siteId) => client.setQueryData(shareKeys.ofSite(siteId), token),
  });
}
