// Blog rows for component tests, with distinct categories, words and dates.
import type { BlogPost } from '../types';

export type BlogRow = BlogPost & { published: boolean };

export const samplePosts: BlogRow[] = [
  {
    id: 1,
    title: 'Introducing tinyback',
    category: 'updates',
    excerpt: 'An open-source form backend you can host yourself.',
    image_url: '/blog/introducing.svg',
    content: 'We built **tinyback** so static sites can take form posts.',
    published: true,
    created_at: '2026-01-10T09:00:00Z',
  },
  {
    id: 2,
    title: 'Stop form spam with a honeypot',
    category: 'guides',
    excerpt: 'A hidden field catches most bots.',
    image_url: '/blog/honeypot.svg',
    content: 'Add a `_gotcha` field and hide it with CSS.',
    published: true,
    created_at: '2026-02-14T09:00:00Z',
  },
  {
    id: 3,
    title: 'Redirect after submit',
    category: 'tips',
    excerpt: 'Send visitors to your own thank-you page.',
    image_url: null,
    content: 'Use the `_next` field. It works for SPAM-free AJAX too.',
    published: true,
    created_at: '2026-03-04T12:00:00Z',
  },
  {
    id: 4,
    title: 'Deploying on Supabase',
    category: 'guides',
    excerpt: 'From zero to a live endpoint.',
    image_url: '/blog/deploy.svg',
    content: 'Run `supabase functions deploy forms`.',
    published: true,
    created_at: '2026-03-20T08:00:00Z',
  },
  {
    id: 5,
    title: 'Draft: pricing changes',
    category: 'updates',
    excerpt: 'Not yet public.',
    image_url: null,
    content: 'Secret.',
    published: false,
    created_at: '2026-04-01T08:00:00Z',
  },
];
