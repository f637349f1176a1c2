// Deletes a site's public share link: whoever holds it sees "This link no longer works".
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { shareKeys } from './get-share';

async function revokeShare(siteId: string): Promise<void> {
  const { error } = await supabase.rpc('analytics_share_revoke', { p_site_id: siteId });
  if (error) throw error;
}

export function useRevokeShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeShare,
    onSuccess: (_data, siteId) => client.setQueryData(shareKeys.ofSite(siteId), null),
  });
}
