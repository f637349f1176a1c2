// The owner's newsletter rows as the dashboard reads them: the generated row types with the values
// the database's check constraints allow, and the answers of its RPCs.
import type { Tables } from '../../lib/database';

/** `captcha_provider` and `captcha_site_key` are set only through set_list_captcha(). */
export type NewsletterList = Tables<'newsletter_lists'>;

export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'unsubscribed', 'bounced'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export type Subscriber = Omit<Tables<'list_subscribers'>, 'status' | 'source'> & {
  status: SubscriberStatus;
  source: 'form' | 'import';
};

export type CampaignStatus = 'draft' | 'scheduled' | 'sending' | 'paused' | 'cancelled' | 'sent';
export type Campaign = Omit<Tables<'campaigns'>, 'status'> & { status: CampaignStatus };

/** campaign_control's actions. */
export type CampaignAction = 'pause' | 'resume' | 'cancel' | 'unschedule';

/** import_list_subscribers' answer; `row` counts the rows sent in that call from 1. */
export interface ImportAnswer {
  added: number;
  duplicates: { row: number; email: string }[];
  invalid: { row: number; email: string; reason: string }[];
}

/** campaign_start's answer. */
export type StartAnswer =
  { status: 'sending'; recipients: number } | { status: 'scheduled'; scheduled_at: string };
