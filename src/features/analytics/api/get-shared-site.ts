// The name and domains of the site a share link opens, for anyone holding the link
// (analytics_shared_site; an unknown or revoked token is refused with analytics_share_not_found).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { isShareGone } from '../share-link';
import { shareKeys } from './get-share';

export interface SharedSite {
  name: string;
  domains: string[];
}

async function getSharedSite(token: string): Promise<SharedSite> {
  const { data, error } = await supabase.rpc('analytics_shared_site', { p_token: token });
  if (error) throw error;
  return data;
}

export function useSharedSite(token: string) {
  return useQuery({
    queryKey: shareKeys.sharedSite(token),
    queryFn: () => getSharedSite(token),
    // A dead link stays dead: no retries for it.
    retry: (count, error) => !isShareGone(error) && count < 2,
  });
}
