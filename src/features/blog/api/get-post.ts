// Reads one published blog post by its numeric id; null when there is no such post.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { BlogPost } from '../types';
import { BLOG_POST_COLUMNS, blogKeys } from './get-posts';

const MAX_INTEGER_ID = 2_147_483_647;

/** The id from the URL as a positive Postgres integer, or null for anything else ("abc", "1.5"). */
export function parsePostId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_INTEGER_ID ? id : null;
}

export async function getPost(id: number): Promise<BlogPost | null> {
  const { data, error } = await supabase
    .from('blog_posts')
    .select(BLOG_POST_COLUMNS)
    .eq('id', id)
    .eq('published', true)
    .maybeSingle();
  if (error) throw new Error(error.message);
  return (data as BlogPost | null) ?? null;
}

/** An id that cannot exist is answered as "not found" without asking the server. */
export function usePost(rawId: string | undefined) {
  const id = parsePostId(rawId);
  const client = useQueryClient();
  return useQuery({
    queryKey: blogKeys.post(id),
    queryFn: () => (id === null ? null : getPost(id)),
    // Coming from the list, the post is already in the cache (the list reads whole posts): it
    // shows at once, and is refetched as soon as the list's copy is older than staleTime.
    initialData: () =>
      client.getQueryData<BlogPost[]>(blogKeys.posts())?.find((post) => post.id === id),
    initialDataUpdatedAt: () => client.getQueryState(blogKeys.posts())?.dataUpdatedAt,
  });
}
