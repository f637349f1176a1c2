// One post in the blog grid: cover, category, date, title and excerpt; the whole card is a link.
import { Link as RouterLink } from 'react-router-dom';
import { Badge, Heading, HStack, LinkBox, LinkOverlay, Stack, Text } from '@chakra-ui/react';
import { paths } from '../../../config/paths';
import { formatLongDate } from '../format-date';
import { categoryLabel, type BlogPost } from '../types';
import { PostCover } from './post-cover';

export function PostCard({ post }: { post: BlogPost }) {
  return (
    <LinkBox
      as="article"
      borderWidth="1px"
      borderRadius="xl"
      overflow="hidden"
      bg="bg"
      transition="box-shadow 0.2s, transform 0.2s"
      _hover={{ shadow: 'lg', transform: 'translateY(-2px)' }}
      _focusWithin={{ outline: '2px solid', outlineColor: 'teal.500', outlineOffset: '2px' }}
      display="flex"
      flexDirection="column"
    >
      <PostCover post={post} aspectRatio={16 / 9} />
      <Stack p={5} gap={3} flex="1">
        <HStack gap={3} flexWrap="wrap">
          <Badge colorPalette="teal" variant="subtle">
            {categoryLabel(post.category)}
          </Badge>
          <Text as="time" fontSize="sm" color="fg.muted" {...{ dateTime: post.created_at }}>
            {formatLongDate(post.created_at)}
          </Text>
        </HStack>
        <Heading as="h3" size="lg" lineHeight="short">
          <LinkOverlay asChild _focusVisible={{ outline: 'none' }}>
            <RouterLink to={paths.blogPost(post.id)}>{post.title}</RouterLink>
          </LinkOverlay>
        </Heading>
        {post.excerpt && (
          <Text color="fg.muted" lineClamp={3}>
            {post.excerpt}
          </Text>
        )}
      </Stack>
    </LinkBox>
  );
}
