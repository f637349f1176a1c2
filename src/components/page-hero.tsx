// The top band of a content page: an eyebrow, the page's one h1 and a lead paragraph.
import type { ReactNode } from 'react';
import { Box, Container, Heading, Stack, Text } from '@chakra-ui/react';

export interface PageHeroProps {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
}

export function PageHero({ eyebrow, title, lead, children }: PageHeroProps) {
  return (
    <Box bgGradient="to-b" gradientFrom="teal.50" gradientTo="bg" borderBottomWidth="1px">
      <Container maxW="4xl" py={{ base: '12', md: '20' }} textAlign="center">
        <Stack gap="4" align="center">
          {eyebrow && (
            <Text
              color="teal.700"
              fontWeight="semibold"
              textTransform="uppercase"
              letterSpacing="wider"
              fontSize="sm"
            >
              {eyebrow}
            </Text>
          )}
          <Heading
            as="h1"
            size={{ base: '3xl', md: '5xl' }}
            letterSpacing="-0.02em"
            lineHeight="1.1"
          >
            {title}
          </Heading>
          {lead && (
            <Text fontSize={{ base: 'md', md: 'xl' }} color="fg.muted" maxW="2xl">
              {lead}
            </Text>
          )}
          {children}
        </Stack>
      </Container>
    </Box>
  );
}
