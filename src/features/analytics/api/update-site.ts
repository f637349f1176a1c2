// Changes a site's name, domains or retention. Its id, owner and creation time never change
// (a trigger keeps them); a shorter retention applies at the next sweep.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { SiteInput } from './create-site';
import { analyticsKeys, SITE_COLUMNS, type AnalyticsSite } from './get-sites';

async function updateSite({ id, ...changes }: SiteInput & { id: string }): Promise<AnalyticsSite> {
  const { data, error } = await supabase
    .from('analytics_sites')
    .update({
      name: changes.name,
      domains: changes.domains,
      retention_days: changes.retention_days,
    })
    .eq('id', id)
    .select(SITE_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useUpdateSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateSite,
    onSettled: () => client.invalidateQueries({ queryKey: analyticsKeys.sites() }),
  });
}
