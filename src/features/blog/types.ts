// The blog's data shapes and its fixed list of categories.

export const BLOG_CATEGORIES = ['updates', 'guides', 'tips'] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<BlogCategory, string> = {
  updates: 'Updates',
  guides: 'Guides',
  tips: 'Tips',
};

/** One published row of `public.blog_posts` as the list reads it: everything but the body. */
export interface BlogPostSummary {
  id: number;
  title: string;
  category: BlogCategory;
  excerpt: string;
  image_url: string | null;
  created_at: string;
}

/** One published post as its own page reads it. */
export interface BlogPost extends BlogPostSummary {
  /** GitHub-flavoured markdown. */
  content: string;
}

export function isBlogCategory(value: unknown): value is BlogCategory {
  return typeof value === 'string' && (BLOG_CATEGORIES as readonly string[]).includes(value);
}

/** Display label for a category; unknown values (older rows, typos) are shown as written. */
export function categoryLabel(category: string): string {
  return isBlogCategory(category) ? CATEGORY_LABELS[category] : category;
}
