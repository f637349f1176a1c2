// The blog list's filters: category and free-text search, both read from the URL so a filtered
// view can be shared and survives a reload.
import { isBlogCategory, type BlogCategory, type BlogPostSummary } from './types';

export interface BlogFilter {
  category: BlogCategory | null;
  /** Trimmed search text; empty means no text filter. */
  query: string;
}

/** Reads `?cat=` and `?q=`; an unknown category is ignored rather than hiding every post. */
export function readBlogFilter(params: URLSearchParams): BlogFilter {
  const cat = params.get('cat');
  return { category: isBlogCategory(cat) ? cat : null, query: (params.get('q') ?? '').trim() };
}

/** The `?…` part of a blog list URL for a filter (empty values left out). */
export function blogFilterSearch(filter: Partial<BlogFilter>): string {
  const params = new URLSearchParams();
  if (filter.category) params.set('cat', filter.category);
  const q = filter.query?.trim();
  if (q) params.set('q', q);
  const search = params.toString();
  return search ? `?${search}` : '';
}

// Case- and accent-insensitive, so "cafe" finds "Café".
function normalise(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en-US');
}

/**
 * Keeps posts of the category whose title or excerpt contains every search word. The list holds
 * no bodies (a phone should not download every post to show cards), so the search reads what the
 * cards show.
 */
export function filterPosts<T extends BlogPostSummary>(
  posts: readonly T[],
  filter: BlogFilter,
): T[] {
  const words = normalise(filter.query).split(/\s+/).filter(Boolean);
  return posts.filter((post) => {
    if (filter.category && post.category !== filter.category) return false;
    if (words.length === 0) return true;
    const haystack = normalise(`${post.title}\n${post.excerpt}`);
    return words.every((word) => haystack.includes(word));
  });
}

/** The newest posts first, whatever order they arrived in. */
export function newestPosts<T extends BlogPostSummary>(posts: readonly T[], count: number): T[] {
  return [...posts]
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id)
    .slice(0, count);
}
