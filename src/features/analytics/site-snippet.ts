// A site's one-line snippet. The tracker file is served by this deployment, where the dashboard
// itself runs (its origin); events go to this deployment's Supabase project.
import { trackerSnippet } from '../../config/analytics-tracker';
import { env } from '../../config/env';

export function siteSnippet(siteId: string, siteUrl = window.location.origin): string {
  return trackerSnippet({ siteUrl, siteId, supabaseUrl: env.supabaseUrl });
}
