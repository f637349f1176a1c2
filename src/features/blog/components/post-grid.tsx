// The blog's grid of post cards, and its loading skeleton of the same size.
import { Box, SimpleGrid } from '@chakra-ui/react';
import type { BlogPostSummary } from '../types';
import { PostCard, PostCardSkeleton } from './post-card';

const GRID_COLUMNS = { base: 1, md: 2 } as const;

/** Skeleton cards while loading: a usual page of posts, so the grid rarely changes size. */
export const SKELETON_CARD_COUNT = 6;

export function PostGrid({ posts }: { posts: BlogPostSummary[] }) {
  return (
    <SimpleGrid as="ul" columns={GRID_COLUMNS} gap={6} listStyleType="none" p={0} m={0}>
      {posts.map((post) => (
        <Box as="li" key={post.id} display="flex" flexDirection="column">
          <PostCard post={post} />
        </Box>
      ))}
    </SimpleGrid>
  );
}

export function PostGridSkeleton({ count = SKELETON_CARD_COUNT }: { count?: number }) {
  return (
    <SimpleGrid columns={GRID_COLUMNS} gap={6} aria-hidden="true" data-testid="post-grid-skeleton">
      {Array.from({ length: count }, (_, i) => (
        <PostCardSkeleton key={i} />
      ))}
    </SimpleGrid>
  );
}
