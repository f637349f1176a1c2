// /blog/:id: one post (title, category, long date, cover, markdown body) beside the blog sidebar,
// with clear loading, error and not-found states. Coming from the list, the post's card data is
// already cached: its header shows at once and only the body loads. The sidebar's recent posts
// come from the list's cache entry; this page never reloads the list.
import { Link as RouterLink, useParams } from 'react-router-dom';
import {
  Badge,
  Box,
  Container,
  Grid,
  Heading,
  HStack,
  Link,
  Skeleton,
  SkeletonText,
  Stack,
  Text,
} from '@chakra-ui/react';
import { ArrowLeftIcon } from 'lucide-react';
import { paths } from '../../../config/paths';
import { PageMeta } from '../../../components/page-meta';
import { useCachedPostSummary, usePost } from '../api/get-post';
import { useCachedPosts } from '../api/get-posts';
import { formatLongDate } from '../format-date';
import { queryView } from '../query-view';
import { categoryLabel, isBlogCategory, type BlogPostSummary } from '../types';
import { BlogSidebar } from './blog-sidebar';
import { PostBody } from './post-body';
import { PostCover } from './post-cover';
import { RequestError } from './request-error';

export function BlogPostPage() {
  const { id } = useParams<{ id: string }>();
  const post = usePost(id);
  const state = queryView(post);
  const retry = () => void post.refetch();
  const summary = useCachedPostSummary(id);
  const posts = queryView(useCachedPosts());

  const title =
    state.status !== 'success'
      ? (summary?.title ?? null)
      : state.data
        ? state.data.title
        : 'Post not found';
  const loaded = state.status === 'success' ? state.data : summary;
  // The post's own title and excerpt in search results and share cards; a missing post is no result.
  const meta =
    state.status === 'success' && !state.data ? (
      <PageMeta title="Post not found · Blog" noindex />
    ) : (
      <PageMeta
        title={title ? `${title} · Blog` : 'Blog'}
        description={loaded?.excerpt}
        path={id ? paths.blogPost(id) : undefined}
        type="article"
      />
    );

  return (
    <Container maxW="6xl" py={{ base: 8, md: 12 }}>
      {meta}
      <Grid
        templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 18rem' }}
        gap={{ base: 10, lg: 12 }}
      >
        <Box minW={0}>
          <BackLink />
          {state.status === 'loading' &&
            (summary ? <PostArticle post={summary} /> : <PostSkeleton />)}
          {state.status === 'error' && (
            <>
              <Heading as="h1" size="2xl" mb={4}>
                Blog post
              </Heading>
              <RequestError title="The post could not be loaded." onRetry={retry} />
            </>
          )}
          {state.status === 'success' &&
            (state.data ? <PostArticle post={state.data} /> : <PostNotFound />)}
        </Box>
        <BlogSidebar
          posts={posts}
          activeCategory={activeCategory(state.status === 'success' ? state.data : summary)}
        />
      </Grid>
    </Container>
  );
}

function activeCategory(post: BlogPostSummary | null | undefined) {
  return post && isBlogCategory(post.category) ? post.category : undefined;
}

function BackLink() {
  return (
    <Link
      asChild
      color="teal.700"
      fontWeight="medium"
      mb={6}
      display="inline-flex"
      alignItems="center"
      gap={2}
    >
      <RouterLink to={paths.blog}>
        <ArrowLeftIcon aria-hidden="true" /> All posts
      </RouterLink>
    </Link>
  );
}

/** The post; without `content` (only its card is known yet) the body is a loading skeleton. */
function PostArticle({ post }: { post: BlogPostSummary & { content?: string } }) {
  return (
    <Box as="article">
      <Stack as="header" gap={4} mb={6}>
        <HStack gap={3} flexWrap="wrap">
          <Badge colorPalette="teal" variant="subtle">
            {categoryLabel(post.category)}
          </Badge>
          <Text as="time" color="fg.muted" {...{ dateTime: post.created_at }}>
            {formatLongDate(post.created_at)}
          </Text>
        </HStack>
        <Heading as="h1" size={{ base: '3xl', md: '4xl' }} lineHeight="shorter">
          {post.title}
        </Heading>
        {post.excerpt && (
          <Text fontSize="lg" color="fg.muted">
            {post.excerpt}
          </Text>
        )}
      </Stack>
      <Box borderRadius="xl" overflow="hidden" mb={8}>
        <PostCover post={post} aspectRatio={2} />
      </Box>
      {'content' in post ? <PostBody content={post.content} /> : <BodySkeleton />}
    </Box>
  );
}

function PostNotFound() {
  return (
    <Stack borderWidth="1px" borderRadius="xl" p={{ base: 6, md: 10 }} gap={4} align="flex-start">
      <Heading as="h1" size="2xl">
        Post not found
      </Heading>
      <Text color="fg.muted">This post does not exist or is no longer published.</Text>
      <Link asChild color="teal.700" fontWeight="semibold">
        <RouterLink to={paths.blog}>Back to the blog</RouterLink>
      </Link>
    </Stack>
  );
}

function BodySkeleton() {
  return (
    <Box role="status" aria-label="Loading post">
      <SkeletonText noOfLines={8} gap={4} />
    </Box>
  );
}

function PostSkeleton() {
  return (
    // A named status, as with the page and session spinners: a label on a plain div is not announced.
    <Stack gap={5} role="status" aria-label="Loading post">
      <Skeleton h="5" w="40" />
      <Skeleton h="10" w="90%" />
      <Skeleton h="64" borderRadius="xl" />
      <SkeletonText noOfLines={6} />
    </Stack>
  );
}
