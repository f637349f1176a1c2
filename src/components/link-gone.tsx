// The full-page answer for a link that leads nowhere (a booking page or manage link, a revoked
// share link): its heading takes the focus, and the page is nobody's search result.
import { useEffect, useRef, type ReactNode } from 'react';
import { Container, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { UnlinkIcon } from 'lucide-react';
import { PageMeta } from './page-meta';

export function LinkGone({
  title,
  pageTitle = title,
  children,
  action,
}: {
  title: string;
  /** The browser tab's title, when shorter than the heading. */
  pageTitle?: string;
  /** What happened, and what to do. */
  children: ReactNode;
  /** A way on, under the text. */
  action?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Container maxW="xl" py={{ base: '16', md: '28' }}>
      <PageMeta title={pageTitle} noindex />
      <Stack align="center" textAlign="center" gap="5">
        <Flex
          w="16"
          h="16"
          rounded="full"
          bg="gray.50"
          color="gray.700"
          align="center"
          justify="center"
        >
          <Icon as={UnlinkIcon} boxSize="8" aria-hidden />
        </Flex>
        <Heading
          as="h1"
          size={{ base: '2xl', md: '3xl' }}
          ref={heading}
          tabIndex={-1}
          outline="none"
        >
          {title}
        </Heading>
        <Text color="fg.muted">{children}</Text>
        {action}
      </Stack>
    </Container>
  );
}
