// The grid of post cards, and the skeleton shown while the posts load.
import { Box, SimpleGrid, Skeleton, SkeletonText, Stack } from '@chakra-ui/react';
import type { BlogPost } from '../types';
import { PostCard } from './post-card';

const GRID_COLUMNS = { base: 1, md: 2 } as const;

export function PostGrid({ posts }: { posts: BlogPost[] }) {
  return (
    <SimpleGrid as="ul" columns={GRID_COLUMNS} gap={6} listStyleType="none" p={0} m={0}>
      {posts.map((post) => (
        <Box
          as="li"
          key={post.id}
          display="flex"
          flexDirection="column"
          css={{ '& > article': { flex: 1 } }}
        >
          <PostCard post={post} />
        </Box>
      ))}
    </SimpleGrid>
  );
}

export function PostGridSkeleton({ count = 4 }: { count?: number }) {
  return (
    <SimpleGrid columns={GRID_COLUMNS} gap={6} aria-hidden="true" data-testid="post-grid-skeleton">
      {Array.from({ length: count }, (_, i) => (
        <Box key={i} borderWidth="1px" borderRadius="xl" overflow="hidden">
          <Skeleton h="44" borderRadius="0" />
          <Stack p={5} gap={3}>
            <Skeleton h="5" w="24" />
            <Skeleton h="6" w="80%" />
            <SkeletonText noOfLines={3} />
          </Stack>
        </Box>
      ))}
    </SimpleGrid>
  );
}
