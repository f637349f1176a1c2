// The blog's data shapes and its fixed list of categories.
import type { Tables } from '../../lib/database';

export const BLOG_CATEGORIES = ['updates', 'guides', 'tips'] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<BlogCategory, string> = {
  updates: 'Updates',
  guides: 'Guides',
  tips: 'Tips',
};

/** One published row of `public.blog_posts` as the list reads it: everything but the body. */
export type BlogPostSummary = Pick<
  Tables<'blog_posts'>,
  'id' | 'title' | 'category' | 'excerpt' | 'image_url' | 'created_at'
>;

/** One published post as its own page reads it; `content` is GitHub-flavoured markdown. */
export type BlogPost = BlogPostSummary & Pick<Tables<'blog_posts'>, 'content'>;

export function isBlogCategory(value: unknown): value is BlogCategory {
  return typeof value === 'string' && (BLOG_CATEGORIES as readonly string[]).includes(value);
}

/** Display label for a category; unknown values (older rows, typos) are shown as written. */
export function categoryLabel(category: string): string {
  return isBlogCategory(category) ? CATEGORY_LABELS[category] : category;
}
