// Deletes a site with all its events and counts (foreign keys cascade).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { analyticsKeys } from './get-sites';

async function deleteSite(id: string): Promise<void> {
  const { data, error } = await supabase.from('analytics_sites').delete().eq('id', id).select('id');
  if (error) throw error;
  if (!data?.length) throw new Error('This site no longer exists.');
}

export function useDeleteSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteSite,
    onSuccess: (_data, id) => client.removeQueries({ queryKey: analyticsKeys.siteStats(id) }),
    onSettled: () => client.invalidateQueries({ queryKey: analyticsKeys.sites() }),
  });
}
