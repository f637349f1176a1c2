// analytics_collect() over the direct database connection (_shared/database.ts, or any client with
// supabase-js's `rpc` shape): one round trip per event, as the service role.
import { ANALYTICS } from '../_shared/limits.ts';
import type { RpcClient } from '../_shared/outbox/store.ts';
import type { CollectInput, CollectResult } from './model.ts';

/** Stores one event; throws when the database cannot be reached or answers something unknown. */
export async function collectEvent(db: RpcClient, input: CollectInput): Promise<CollectResult> {
  const { data, error } = await db.rpc('analytics_collect', {
    p_site_id: input.siteId,
    p_host: input.host,
    p_ip: input.ip,
    p_client_key: input.clientKey,
    p_user_agent: input.userAgent,
    p_name: input.name,
    p_path: input.path,
    p_referrer_host: input.referrerHost,
    p_utm_source: input.utmSource,
    p_utm_medium: input.utmMedium,
    p_utm_campaign: input.utmCampaign,
    p_country: input.country,
    p_browser: input.browser,
    p_os: input.os,
    p_device: input.device,
    p_screen: input.screen,
    p_props: input.props,
    p_account_per_day: ANALYTICS.accountEventsPerDay,
  });
  if (error) throw new Error(`analytics_collect failed: ${error.message}`);
  return resultOf(data);
}

/** analytics_collect()'s jsonb answer as a CollectResult. */
function resultOf(data: unknown): CollectResult {
  const answer = (data ?? {}) as { status?: unknown; entry?: unknown; retry_after?: unknown };
  switch (answer.status) {
    case 'accepted':
      return { status: 'accepted', entry: answer.entry === true };
    case 'site_not_found':
    case 'foreign_host':
      return { status: answer.status };
    case 'rate_limited':
    case 'account_limit':
      return {
        status: answer.status,
        retryAfter: Math.max(1, Math.ceil(Number(answer.retry_after) || 60)),
      };
    default:
      throw new Error(`analytics_collect answered ${JSON.stringify(data)}`);
  }
}
