// Adds a site. Its owner is the caller (the column's default, auth.uid()); the database
// normalises the domains again and refuses more than 50 sites per account with a sentence.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { analyticsKeys, SITE_COLUMNS, type AnalyticsSite } from './get-sites';

export interface SiteInput {
  name: string;
  /** Host names, normalised (site-domains.ts parseDomains). */
  domains: string[];
  retention_days: number;
}

async function createSite(input: SiteInput): Promise<AnalyticsSite> {
  const { data, error } = await supabase
    .from('analytics_sites')
    .insert({ name: input.name, domains: input.domains, retention_days: input.retention_days })
    .select(SITE_COLUMNS)
    .single();
  if (error) throw error;
  return data;
}

export function useCreateSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createSite,
    onSettled: () => client.invalidateQueries({ queryKey: analyticsKeys.sites() }),
  });
}
