// Query keys of the newsletter feature in one place: the fetchers, the mutations and the realtime
// binding address the same cache entries.
export const newsletterKeys = {
  all: ['newsletter'] as const,
  lists: () => ['newsletter', 'lists'] as const,
  subscriberLists: () => ['newsletter', 'subscribers'] as const,
  subscribers: (listId: string) => ['newsletter', 'subscribers', listId] as const,
  confirmedCounts: () => ['newsletter', 'confirmed-count'] as const,
  confirmedCount: (listId: string) => ['newsletter', 'confirmed-count', listId] as const,
  campaigns: () => ['newsletter', 'campaigns'] as const,
  campaignPages: () => ['newsletter', 'campaign'] as const,
  campaign: (id: string) => ['newsletter', 'campaign', id] as const,
};
