// Storage for the newsletter endpoint through supabase-js with the service role: one RPC per step,
// each its own transaction (supabase/schemas/13-newsletter.sql).
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import { isCaptchaProvider } from '../_shared/captcha.ts';
import { CAMPAIGNS, LISTS } from '../_shared/limits.ts';
import type { TestCampaign, TestQueued } from './campaign-test.ts';
import type {
  ListConfirmResult,
  ListSignupAttempt,
  ListSignupGate,
  ListSignupInput,
  ListSignupResult,
  ListUnsubscribeResult,
} from './model.ts';

const HOUR = 60 * 60;

/** The caps list_subscribe() applies, from LISTS (its own defaults are the same numbers). */
const LIST_CAPS = {
  per_client_minute: LISTS.perClientPerMinute,
  per_client_day: LISTS.perClientPerDay,
  per_recipient_day: LISTS.perRecipientPerDay,
  per_account_day: LISTS.perAccountConfirmationsPerDay,
  cooldown_seconds: LISTS.confirmationCooldownHours * HOUR,
};

type Answer = Record<string, unknown> | null;

/**
 * The owners' lists: list_signup_attempt() then list_subscribe(), list_confirm() and
 * list_unsubscribe(), service role only.
 */
export function createListsStore(client: Pick<SupabaseClient, 'rpc'>) {
  async function call(name: string, args: Record<string, unknown>): Promise<Answer> {
    const { data, error } = await client.rpc(name, args);
    if (error) throw new Error(`${name}: ${error.message}`);
    return data as Answer;
  }
  const unexpected = (name: string, answer: Answer) =>
    new Error(`${name}: unexpected answer ${JSON.stringify(answer)}`);

  return {
    async attempt(input: ListSignupAttempt): Promise<ListSignupGate> {
      const answer = await call('list_signup_attempt', {
        p_list_id: input.listId,
        p_origin: input.origin,
        p_client: input.client,
        p_caps: LIST_CAPS,
      });
      switch (answer?.status) {
        case 'ok':
          return {
            status: 'ok',
            listId: String(answer.list_id),
            captcha: isCaptchaProvider(answer.captcha_provider)
              ? {
                  provider: answer.captcha_provider,
                  secret: typeof answer.captcha_secret === 'string' ? answer.captcha_secret : null,
                }
              : null,
          };
        case 'not_found':
        case 'foreign_origin':
          return { status: answer.status };
        case 'rate_limited':
          return { status: 'rate_limited', retryAfter: Number(answer.retry_after) || 60 };
      }
      throw unexpected('list_signup_attempt', answer);
    },

    async subscribe(input: ListSignupInput): Promise<ListSignupResult> {
      const answer = await call('list_subscribe', {
        p_list_id: input.listId,
        p_email: input.email,
        p_name: input.name,
        p_confirm_token: input.confirmToken,
        p_link_prefix: input.linkPrefix,
        p_caps: LIST_CAPS,
      });
      switch (answer?.status) {
        case 'ok':
        case 'not_found':
          return { status: answer.status };
        case 'invalid':
          return {
            status: 'invalid',
            field: answer.field === 'name' ? 'name' : 'email',
            message: String(answer.message ?? ''),
          };
      }
      throw unexpected('list_subscribe', answer);
    },

    async confirm(token: string): Promise<ListConfirmResult> {
      const answer = await call('list_confirm', { p_token: token });
      if (answer?.status === 'confirmed')
        return { status: 'confirmed', listName: String(answer.list_name ?? '') };
      if (answer?.status === 'invalid') return { status: 'invalid' };
      throw unexpected('list_confirm', answer);
    },

    async unsubscribeToken(token: string): Promise<ListUnsubscribeResult> {
      const answer = await call('list_unsubscribe_token', { p_token: token });
      if (answer?.status === 'unsubscribed')
        return { status: 'unsubscribed', listName: String(answer.list_name ?? '') };
      if (answer?.status === 'invalid') return { status: 'invalid' };
      throw unexpected('list_unsubscribe_token', answer);
    },

    async unsubscribe(
      subscriberId: string,
      campaignId: string | null,
    ): Promise<ListUnsubscribeResult> {
      const answer = await call('list_unsubscribe', {
        p_subscriber_id: subscriberId,
        p_campaign_id: campaignId,
      });
      if (answer?.status === 'unsubscribed')
        return { status: 'unsubscribed', listName: String(answer.list_name ?? '') };
      if (answer?.status === 'invalid') return { status: 'invalid' };
      throw unexpected('list_unsubscribe', answer);
    },
  };
}

/** A campaign's test (campaign-test.ts): Auth's user for a token, the campaign, the queueing. */
export function createCampaignTestStore(client: Pick<SupabaseClient, 'rpc' | 'from' | 'auth'>) {
  return {
    async userOf(accessToken: string): Promise<{ id: string } | null> {
      const { data, error } = await client.auth.getUser(accessToken);
      // Auth refuses a token that is expired, forged or of a deleted user with a 4xx.
      if (error) {
        if (error.status && error.status >= 400 && error.status < 500) return null;
        throw new Error(`auth.getUser: ${error.message}`);
      }
      return data.user ? { id: data.user.id } : null;
    },

    async loadCampaign(userId: string, campaignId: string): Promise<TestCampaign | null> {
      const { data, error } = await client
        .from('campaigns')
        .select(
          'id, subject, body_markdown, from_name, reply_to, list:newsletter_lists(id, name, from_name, reply_to)',
        )
        .eq('id', campaignId)
        .eq('user_id', userId)
        .maybeSingle();
      if (error) throw new Error(`campaigns: ${error.message}`);
      if (!data) return null;
      const row = data as unknown as {
        id: string;
        subject: string;
        body_markdown: string;
        from_name: string | null;
        reply_to: string | null;
        list: { id: string; name: string; from_name: string | null; reply_to: string | null };
      };
      return {
        id: row.id,
        subject: row.subject,
        bodyMarkdown: row.body_markdown,
        listId: row.list.id,
        listName: row.list.name,
        // The campaign's own sender, else its list's (as the sender and the database choose).
        fromName: row.from_name ?? row.list.from_name,
        replyTo: row.reply_to ?? row.list.reply_to,
      };
    },

    async queueTest(input: {
      userId: string;
      campaignId: string;
      subject: string;
      text: string;
      html: string;
    }): Promise<TestQueued> {
      const { data, error } = await client.rpc('campaign_send_test', {
        p_user_id: input.userId,
        p_campaign_id: input.campaignId,
        p_subject: input.subject,
        p_text: input.text,
        p_html: input.html,
        p_caps: {
          per_account_hour: CAMPAIGNS.testsPerHour,
          per_account_day: CAMPAIGNS.testsPerDay,
        },
      });
      if (error) throw new Error(`campaign_send_test: ${error.message}`);
      const answer = data as Answer;
      switch (answer?.status) {
        case 'ok':
          return { status: 'ok', recipient: String(answer.recipient ?? '') };
        case 'not_found':
        case 'no_address':
          return { status: answer.status };
        case 'rate_limited':
          return { status: 'rate_limited', retryAfter: Number(answer.retry_after) || 3600 };
      }
      throw new Error(`campaign_send_test: unexpected answer ${JSON.stringify(answer)}`);
    },
  };
}
