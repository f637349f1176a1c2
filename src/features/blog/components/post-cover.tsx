// A post's cover image at a fixed aspect ratio, or a neutral gradient when the post has none.
import { AspectRatio, Box, Image } from '@chakra-ui/react';
import type { BlogPost } from '../types';

export function PostCover({
  post,
  aspectRatio,
}: {
  post: Pick<BlogPost, 'image_url' | 'title'>;
  aspectRatio: number;
}) {
  return (
    <AspectRatio ratio={aspectRatio} bg="bg.muted">
      {post.image_url ? (
        <Image
          src={post.image_url}
          alt={`Cover illustration for “${post.title}”`}
          objectFit="cover"
        />
      ) : (
        <Box bgGradient="to-br" gradientFrom="teal.400" gradientTo="blue.600" aria-hidden="true" />
      )}
    </AspectRatio>
  );
}
