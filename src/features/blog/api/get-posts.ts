// Reads the blog list: every published post, newest first, with only the columns a card shows
// (no markdown bodies — those are read one at a time by get-post.ts).
//
// The spec calls the list a "live read". blog_posts is not in the realtime publication (posts
// change rarely and only through the service role), so instead of a postgres_changes
// subscription the list is fetched on mount and quietly refetched whenever the window regains
// focus (TanStack Query keeps the posts on screen while it refreshes, and after a failed refresh).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { BlogPostSummary } from '../types';

/** What the list view uses (spec §3: id, title, category, excerpt, image), plus the date. */
export const BLOG_LIST_COLUMNS = 'id, title, category, excerpt, image_url, created_at';

export const blogKeys = {
  all: ['blog'] as const,
  posts: () => [...blogKeys.all, 'posts'] as const,
  post: (id: number | null) => [...blogKeys.all, 'post', id] as const,
};

async function getPosts(): Promise<BlogPostSummary[]> {
  const { data, error } = await supabase
    .from('blog_posts')
    .select(BLOG_LIST_COLUMNS)
    // RLS already limits visitors to published posts; stated here too so a signed-in operator
    // with wider rights still sees the public list.
    .eq('published', true)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false });
  if (error) throw new Error(error.message);
  return data ?? [];
}

/** The list's one cache entry, shared by the list page and every post page's sidebar. */
function postsQuery() {
  return queryOptions({ queryKey: blogKeys.posts(), queryFn: getPosts });
}

/** The list page: always refreshed when the window regains focus, however fresh the list is. */
export function usePosts() {
  return useQuery({ ...postsQuery(), refetchOnWindowFocus: 'always' });
}

/**
 * A post page's sidebar (recent posts): the list already in the cache, as it is — a post page
 * never reloads the list. Only a page opened directly, with no list cached yet, fetches it once
 * (same key, so going on to /blog then shows the posts at once).
 */
export function useCachedPosts() {
  return useQuery({ ...postsQuery(), refetchOnMount: false, refetchOnWindowFocus: false });
}
