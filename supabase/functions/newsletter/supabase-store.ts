// Storage for the newsletter endpoint through supabase-js with the service role: one RPC per
// request, each its own transaction (see migration 20261124130000_newsletter_double_opt_in.sql).
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import { NEWSLETTER } from '../_shared/limits.ts';
import type { SignupInput, SignupResult } from './model.ts';

const HOUR = 60 * 60;

export function createNewsletterStore(client: SupabaseClient) {
  return {
    async signup(input: SignupInput): Promise<SignupResult> {
      const { data, error } = await client.rpc('request_newsletter_subscription', {
        p_email: input.email,
        p_ip_hash: input.ipHash,
        p_confirm_token: input.confirmToken,
        p_unsubscribe_token: input.unsubscribeToken,
        p_mail: input.mail,
        p_per_minute: NEWSLETTER.ratePerMinute,
        p_per_day: NEWSLETTER.ratePerDay,
        p_cooldown_seconds: NEWSLETTER.confirmationCooldownHours * HOUR,
        p_confirm_ttl_seconds: NEWSLETTER.confirmLinkTtlHours * HOUR,
        p_forget_pending_seconds: NEWSLETTER.forgetUnconfirmedAfterDays * 24 * HOUR,
      });
      if (error) throw new Error(`request_newsletter_subscription: ${error.message}`);
      const result = data as { status: string; delivery_id?: string | null; retry_after?: number };
      if (result.status === 'accepted')
        return { status: 'accepted', deliveryId: result.delivery_id ?? null };
      if (result.status === 'rate_limited')
        return { status: 'rate_limited', retryAfter: Number(result.retry_after) };
      throw new Error(
        `request_newsletter_subscription: unexpected answer ${JSON.stringify(result)}`,
      );
    },

    async confirm(token: string): Promise<'confirmed' | 'invalid'> {
      const { data, error } = await client.rpc('confirm_newsletter_subscription', {
        p_token: token,
      });
      if (error) throw new Error(`confirm_newsletter_subscription: ${error.message}`);
      return data === 'confirmed' ? 'confirmed' : 'invalid';
    },

    async unsubscribe(token: string): Promise<'unsubscribed' | 'invalid'> {
      const { data, error } = await client.rpc('unsubscribe_newsletter', { p_token: token });
      if (error) throw new Error(`unsubscribe_newsletter: ${error.message}`);
      return data === 'unsubscribed' ? 'unsubscribed' : 'invalid';
    },
  };
}
