// /blog: the hero, the post grid filtered by ?cat= and ?q=, and the sidebar that sets them.
// On a phone the search and categories come first, then the posts, then the recent posts; from the
// large breakpoint up the search, categories and recent posts form a column beside the grid.
import { useDeferredValue, type ReactNode } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { Box, Container, Grid, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { paths } from '../../../config/paths';
import { PageMeta } from '../../../components/page-meta';
import { PAGE_META } from '../../../config/seo';
import { usePosts } from '../api/get-posts';
import { filterPosts, readBlogFilter, type BlogFilter } from '../filter-posts';
import { queryView } from '../query-view';
import { CATEGORY_LABELS } from '../types';
import { BlogHero } from './blog-hero';
import { BlogFilters, RecentPosts } from './blog-sidebar';
import { PostGrid, PostGridSkeleton } from './post-grid';
import { RequestError } from './request-error';

export interface BlogListPageProps {
  /** The newsletter sign-up shown in the hero. The app layer passes the newsletter feature's form
   * here, since one feature never imports another. */
  newsletter?: ReactNode;
}

export function BlogListPage({ newsletter }: BlogListPageProps = {}) {
  const [params, setParams] = useSearchParams();
  const filter = readBlogFilter(params);
  const posts = usePosts();
  // The posts arrive as an urgent update, which React would render and commit in one long task
  // (about 150 ms on a mid-range phone). Deferred, the cards render in slices between which the
  // browser stays responsive; the skeletons stay until they are ready.
  const data = useDeferredValue(posts.data);
  // Only the fields queryView reads: spreading the query result would read every field, and
  // TanStack Query re-renders a component for a change in any field it has read.
  const state = queryView({
    data,
    error: posts.error,
    status: posts.status,
    isFetching: posts.isFetching,
  });
  const retry = () => void posts.refetch();

  const visible = state.status === 'success' ? filterPosts(state.data, filter) : [];

  // The raw text stays in the URL while typing (spaces included) so the box never fights the
  // user; the filter itself trims it. Replace, not push: one history entry per search, not per key.
  const setQuery = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('q', value);
    else next.delete('q');
    setParams(next, { replace: true });
  };

  return (
    <Box>
      <PageMeta {...PAGE_META.blog} />
      <BlogHero newsletter={newsletter} />
      <Container maxW="6xl" py={{ base: 8, md: 12 }}>
        <Grid
          templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 18rem' }}
          templateAreas={{
            base: '"filters" "posts" "recent"',
            lg: '"posts filters" "posts recent"',
          }}
          templateRows={{ lg: 'auto 1fr' }}
          columnGap={12}
          rowGap={{ base: 10, lg: 8 }}
        >
          <Box as="aside" aria-label="Search and categories" gridArea="filters">
            <BlogFilters
              activeCategory={filter.category}
              query={filter.query}
              search={{ value: params.get('q') ?? '', onChange: setQuery }}
            />
          </Box>
          <Stack
            as="section"
            aria-labelledby="blog-posts-heading"
            gap={5}
            minW={0}
            gridArea="posts"
          >
            <Heading as="h2" id="blog-posts-heading" size="xl">
              {filter.category ? CATEGORY_LABELS[filter.category] : 'Latest posts'}
            </Heading>
            <Text role="status" aria-live="polite" color="fg.muted" fontSize="sm" minH="1lh">
              {state.status === 'success' ? describeResults(visible.length, filter) : ''}
            </Text>
            {state.status === 'loading' && <PostGridSkeleton />}
            {state.status === 'error' && (
              <RequestError title="The posts could not be loaded." onRetry={retry} />
            )}
            {state.status === 'success' &&
              (visible.length > 0 ? (
                <PostGrid posts={visible} />
              ) : (
                <NoMatches filter={filter} total={state.data.length} />
              ))}
          </Stack>
          <Box gridArea="recent">
            <RecentPosts posts={state} />
          </Box>
        </Grid>
      </Container>
    </Box>
  );
}

/** The sentence the result count is announced with, e.g. "2 posts in Guides matching “spam”". */
export function describeResults(count: number, filter: BlogFilter): string {
  const noun = count === 1 ? 'post' : 'posts';
  const parts = [`${count} ${noun}`];
  if (filter.category) parts.push(`in ${CATEGORY_LABELS[filter.category]}`);
  if (filter.query) parts.push(`matching “${filter.query}”`);
  return parts.join(' ');
}

function NoMatches({ filter, total }: { filter: BlogFilter; total: number }) {
  if (total === 0 && !filter.category && !filter.query) {
    return <Text color="fg.muted">No posts have been published yet.</Text>;
  }
  const what = [
    filter.query && `“${filter.query}”`,
    filter.category && `the ${CATEGORY_LABELS[filter.category]} category`,
  ]
    .filter(Boolean)
    .join(' in ');
  return (
    <Stack
      borderWidth="1px"
      borderStyle="dashed"
      borderRadius="xl"
      p={8}
      gap={3}
      align="center"
      textAlign="center"
    >
      <Text fontWeight="semibold" fontSize="lg">
        No posts match {what}.
      </Text>
      <Text color="fg.muted">Try other words or another category.</Text>
      <Link asChild color="teal.700" fontWeight="semibold">
        <RouterLink to={paths.blog}>Show all posts</RouterLink>
      </Link>
    </Stack>
  );
}
