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
  dashboard: '/dashboard',
  dashboardForms: '/dashboard/forms',
  dashboardBooking: '/dashboard/booking',
  dashboardBookingNew: '/dashboard/booking/new',
  dashboardBookingItem: (id: string) => `/dashboard/booking/${id}`,
  /** A booking form's public page, the target of the booking page's 'Preview' links. */
  bookingPublic: (id: string) => `/book/${id}`,
  settings: '/settings',
} as const;
