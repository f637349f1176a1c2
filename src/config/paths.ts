// Every route of the app in one typed map; links and the router both use it.
export const paths = {
  home: '/',
  pricing: '/pricing',
  login: '/login',
  register: '/register',
  tools: '/tools',
  blog: '/blog',
  blogPost: (id: number | string) => `/blog/${id}`,
  terms: '/terms-of-service',
  privacy: '/privacy-policy',
  custom: '/custom',
  docs: '/docs',
  thanks: '/thanks',
  /** Where the form endpoint sends a browser whose post it refused (refusal-page.ts). */
  formError: '/form-error',
  /** The newsletter e-mail's links (pages that ask first), and where their buttons lead. */
  newsletterConfirm: '/newsletter/confirm',
  newsletterUnsubscribe: '/newsletter/unsubscribe',
  newsletterConfirmed: '/newsletter/confirmed',
  newsletterUnsubscribed: '/newsletter/unsubscribed',
  newsletterInvalidLink: '/newsletter/invalid-link',
  /** Where an owner's list signup form (an HTML form post) leads: the newsletter function's 303. */
  newsletterCheckInbox: '/newsletter/check-inbox',
  dashboard: '/dashboard',
  dashboardForms: '/dashboard/forms',
  /**
   * One message, its drawer open: the link of the notification e-mail (the forms function's
   * notification.ts builds the same address).
   */
  dashboardMessage: (id: string) =>
    `/dashboard/forms?tab=messages&message=${encodeURIComponent(id)}`,
  dashboardBooking: '/dashboard/booking',
  /** The analytics dashboard: sites, their snippets and stats (`?site=…&range=…` and filters). */
  dashboardAnalytics: '/dashboard/analytics',
  dashboardBookingNew: '/dashboard/booking/new',
  dashboardBookingItem: (id: string) => `/dashboard/booking/${id}`,
  /** The newsletter tool: lists (`?list=…`) and campaigns (`?tab=campaigns`). */
  dashboardNewsletter: '/dashboard/newsletter',
  /** One campaign: a draft's composer, or a sent one's status and counts. */
  dashboardNewsletterCampaign: (id: string) => `/dashboard/newsletter/campaigns/${id}`,
  /** A booking form's public page (its slug), the target of the booking page's 'Preview' links. */
  bookingPublic: (slug: string) => `/book/${slug}`,
  /**
   * Where a booking's confirmation e-mail leads (`?token=…`) to cancel or reschedule: the booking
   * function's SITE_URL link names the same path ('manage' is no booking form's slug).
   */
  bookingManage: '/book/manage',
  settings: '/settings',
  /** Where a form's target address is confirmed: the link of the confirmation e-mail. */
  confirmAddress: '/confirm-address',
} as const;
