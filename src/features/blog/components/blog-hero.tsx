// The blog list's hero: the page heading, what the blog is about, and the newsletter sign-up.
import type { ReactNode } from 'react';
import { Box, Container, Heading, Stack, Text } from '@chakra-ui/react';

export function BlogHero({ newsletter }: { newsletter?: ReactNode }) {
  return (
    <Box
      as="section"
      bgGradient="to-br"
      gradientFrom="teal.50"
      gradientTo="blue.50"
      borderBottomWidth="1px"
    >
      <Container maxW="6xl" py={{ base: 10, md: 16 }}>
        <Stack gap={4} maxW="2xl">
          <Text
            color="teal.700"
            fontWeight="semibold"
            textTransform="uppercase"
            letterSpacing="wider"
            fontSize="sm"
          >
            Blog
          </Text>
          <Heading as="h1" size={{ base: '3xl', md: '4xl' }} lineHeight="shorter">
            Notes on forms, spam and shipping small sites
          </Heading>
          <Text fontSize={{ base: 'md', md: 'lg' }} color="gray.700">
            Product updates, step-by-step guides and quick tips for running tinyback — the
            open-source form backend you can host on your own Supabase project.
          </Text>
          {newsletter}
        </Stack>
      </Container>
    </Box>
  );
}
