// Reads every published blog post, newest first.
//
// The spec calls the list a "live read". blog_posts is not in the realtime publication (posts
// change rarely and only through the service role), so instead of a postgres_changes
// subscription the list is fetched on mount and quietly refetched whenever the window regains
// focus (TanStack Query keeps the posts on screen while it refreshes, and after a failed refresh).
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { BlogPost } from '../types';

export const BLOG_POST_COLUMNS = 'id, title, category, excerpt, image_url, content, created_at';

export const blogKeys = {
  all: ['blog'] as const,
  posts: () => [...blogKeys.all, 'posts'] as const,
  post: (id: number | null) => [...blogKeys.all, 'post', id] as const,
};

export async function getPosts(): Promise<BlogPost[]> {
  const { data, error } = await supabase
    .from('blog_posts')
    .select(BLOG_POST_COLUMNS)
    // RLS already limits visitors to published posts; stated here too so a signed-in operator
    // with wider rights still sees the public list.
    .eq('published', true)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false });
  if (error) throw new Error(error.message);
  return (data ?? []) as BlogPost[];
}

export function usePosts() {
  return useQuery({
    queryKey: blogKeys.posts(),
    queryFn: getPosts,
    // Every return to the tab refreshes, however fresh the list is.
    refetchOnWindowFocus: 'always',
  });
}
