// The full-page answer for a booking link or manage link that leads nowhere.
import { useEffect, useRef, type ReactNode } from 'react';
import { Container, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { UnlinkIcon } from 'lucide-react';
import { PageMeta } from '../../../../components/page-meta';

export function LinkGone({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Container maxW="xl" py={{ base: '16', md: '28' }}>
      <PageMeta title={title} noindex />
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
      </Stack>
    </Container>
  );
}
