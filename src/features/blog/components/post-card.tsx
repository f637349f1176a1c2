// One post in the blog grid: cover, category, date, title and excerpt; the whole card is a link.
// Every card has the same height (title two lines, excerpt three), and the loading skeleton is
// this same card with placeholders, so nothing moves when the posts arrive.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  AspectRatio,
  Badge,
  Box,
  Heading,
  HStack,
  LinkBox,
  LinkOverlay,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { paths } from '../../../config/paths';
import { formatLongDate } from '../format-date';
import { categoryLabel, type BlogPostSummary } from '../types';
import { PostCover } from './post-cover';

const COVER_RATIO = 16 / 9;
// Lines reserved for the title and the excerpt, filled or not.
const TITLE_LINES = 2;
const EXCERPT_LINES = 3;

const cardFrame = {
  borderWidth: '1px',
  borderRadius: 'xl',
  overflow: 'hidden',
  bg: 'bg',
  display: 'flex',
  flexDirection: 'column',
  h: 'full',
} as const;

export function PostCard({ post }: { post: BlogPostSummary }) {
  return (
    <LinkBox
      as="article"
      {...cardFrame}
      transition="box-shadow 0.2s, transform 0.2s"
      _hover={{ shadow: 'lg', transform: 'translateY(-2px)' }}
      _focusWithin={{ outline: '2px solid', outlineColor: 'teal.500', outlineOffset: '2px' }}
    >
      <PostCover post={post} aspectRatio={COVER_RATIO} />
      <CardBody
        meta={
          <>
            <Badge colorPalette="teal" variant="subtle">
              {categoryLabel(post.category)}
            </Badge>
            <Text as="time" fontSize="sm" color="fg.muted" {...{ dateTime: post.created_at }}>
              {formatLongDate(post.created_at)}
            </Text>
          </>
        }
        title={
          <LinkOverlay asChild _focusVisible={{ outline: 'none' }}>
            <RouterLink to={paths.blogPost(post.id)}>{post.title}</RouterLink>
          </LinkOverlay>
        }
        excerpt={post.excerpt}
      />
    </LinkBox>
  );
}

/** A card-sized placeholder: the real card's boxes, with shimmering blocks for the text. */
export function PostCardSkeleton() {
  return (
    <Box {...cardFrame} data-testid="post-card-skeleton">
      <AspectRatio ratio={COVER_RATIO}>
        <Skeleton borderRadius="0" />
      </AspectRatio>
      <CardBody
        meta={
          <>
            <Skeleton asChild>
              <Badge variant="subtle">Guides</Badge>
            </Skeleton>
            <Skeleton asChild>
              <Text fontSize="sm">March 20, 2026</Text>
            </Skeleton>
          </>
        }
        title={<Skeleton as="span" display="block" h="1lh" w="80%" />}
        excerpt={<Skeleton as="span" display="block" h={`${EXCERPT_LINES - 1}lh`} />}
      />
    </Box>
  );
}

function CardBody({
  meta,
  title,
  excerpt,
}: {
  meta: ReactNode;
  title: ReactNode;
  excerpt: ReactNode;
}) {
  return (
    <Stack p={5} gap={3} flex="1">
      <HStack gap={3} flexWrap="wrap">
        {meta}
      </HStack>
      <Heading
        as="h3"
        size="lg"
        lineHeight="short"
        lineClamp={TITLE_LINES}
        minH={`${TITLE_LINES}lh`}
      >
        {title}
      </Heading>
      <Text color="fg.muted" lineClamp={EXCERPT_LINES} minH={`${EXCERPT_LINES}lh`}>
        {excerpt}
      </Text>
    </Stack>
  );
}
