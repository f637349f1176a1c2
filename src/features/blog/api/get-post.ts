// Reads one published blog post, body included, by its numeric id; null when there is no such post.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import type { BlogPost, BlogPostSummary } from '../types';
import { BLOG_LIST_COLUMNS, blogKeys } from './get-posts';

const BLOG_POST_COLUMNS = `${BLOG_LIST_COLUMNS}, content`;

const MAX_INTEGER_ID = 2_147_483_647;

/** The id from the URL as a positive Postgres integer, or null for anything else ("abc", "1.5"). */
function parsePostId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_INTEGER_ID ? id : null;
}

async function getPost(id: number): Promise<BlogPost | null> {
  const { data, error } = await supabase
    .from('blog_posts')
    .select(BLOG_POST_COLUMNS)
    .eq('id', id)
    .eq('published', true)
    .maybeSingle();
  if (error) throw new Error(error.message);
  return data;
}

/** An id that cannot exist is answered as "not found" without asking the server. */
export function usePost(rawId: string | undefined) {
  const id = parsePostId(rawId);
  return useQuery({
    queryKey: blogKeys.post(id),
    queryFn: () => (id === null ? null : getPost(id)),
  });
}

/**
 * The post's card as the list left it in the cache (no request): coming from the list, the page
 * shows the title, date and cover at once while only the body loads.
 */
export function useCachedPostSummary(rawId: string | undefined): BlogPostSummary | undefined {
  const id = parsePostId(rawId);
  const client = useQueryClient();
  if (id === null) return undefined;
  return client.getQueryData<BlogPostSummary[]>(blogKeys.posts())?.find((post) => post.id === id);
}
