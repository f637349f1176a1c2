// The dashboard's "What's new" list, newest first. Apart from site.ts so that the first page load,
// which needs site.ts, does not carry it.

export interface WhatsNewItem {
  /** ISO date (YYYY-MM-DD) the change shipped. */
  date: string;
  title: string;
  description: string;
}

export const WHATS_NEW: readonly WhatsNewItem[] = [
  {
    date: '2026-11-24',
    title: 'Account settings',
    description:
      'Change your display name or password, or delete your account and all its data, from Settings.',
  },
  {
    date: '2026-11-24',
    title: 'A live dashboard',
    description:
      'New forms and messages appear the moment they arrive, with an unread count beside Forms.',
  },
  {
    date: '2026-11-22',
    title: 'Notifications that arrive',
    description: 'Notification e-mails that fail to send are retried automatically with backoff.',
  },
  {
    date: '2026-11-22',
    title: 'Spam defence built in',
    description: 'Honeypot fields and per-visitor rate limits keep bots out of your inbox.',
  },
];
