// How realtime changes of `list_subscribers` and `campaigns` reach the newsletter feature's cache:
// a visitor subscribes, confirms or unsubscribes, a campaign's counts grow while it sends, and the
// pages follow without a reload.
import type { LiveBinding } from '../../lib/live-sync';
import { newsletterKeys } from './api/query-keys';
import { applyCampaignChange, applySubscriberChange } from './newsletter-cache';

export const newsletterLiveBindings: readonly LiveBinding[] = [
  {
    table: 'list_subscribers',
    queryKey: newsletterKeys.subscriberLists(),
    apply: applySubscriberChange,
  },
  // The counts by status are read again after a reconnect too; changes reach them above.
  {
    table: 'list_subscribers',
    queryKey: newsletterKeys.subscriberCountLists(),
    apply: () => undefined,
  },
  { table: 'campaigns', queryKey: newsletterKeys.campaigns(), apply: applyCampaignChange },
  // A campaign's own page is read again after a reconnect too; the change itself is applied once,
  // above.
  { table: 'campaigns', queryKey: newsletterKeys.campaignPages(), apply: () => undefined },
];
