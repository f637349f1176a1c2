// Query keys of the newsletter feature in one place: the fetchers, the mutations and the realtime
// binding address the same cache entries.
import type { SubscriberPageQuery } from '../subscriber-query';

export const newsletterKeys = {
  all: ['newsletter'] as const,
  lists: () => ['newsletter', 'lists'] as const,
  /** Every cached page of every list's subscribers. */
  subscriberLists: () => ['newsletter', 'subscribers'] as const,
  /** Every cached page of one list's subscribers (any search, filter or page). */
  subscribers: (listId: string) => ['newsletter', 'subscribers', listId] as const,
  subscriberPage: (listId: string, query: SubscriberPageQuery) =>
    ['newsletter', 'subscribers', listId, query] as const,
  subscriberCountLists: () => ['newsletter', 'subscriber-counts'] as const,
  subscriberCounts: (listId: string) => ['newsletter', 'subscriber-counts', listId] as const,
  confirmedCounts: () => ['newsletter', 'confirmed-count'] as const,
  confirmedCount: (listId: string) => ['newsletter', 'confirmed-count', listId] as const,
  campaigns: () => ['newsletter', 'campaigns'] as const,
  campaignPages: () => ['newsletter', 'campaign'] as const,
  campaign: (id: string) => ['newsletter', 'campaign', id] as const,
};
